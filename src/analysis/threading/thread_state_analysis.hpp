// The thread-state automaton of seeds/threading-analyses.md, for one Haskell thread:
//
//   [*]     --RunThread--> Running
//   Running --RunThread--> Running   (no span; the earlier start and capability stay)
//   Blocked --RunThread--> Running   (yields a Blocked span with its reason)
//   Running --StopThread-> Blocked   (yields a Running span with its capability)
//   Blocked --StopThread-> Blocked   (yields a Blocked span: the reason may change,
//                                     e.g. from yielding to blocked on an MVar)
//   either  --StopThread ThreadFinished--> final (yields the span it closes)
//   [*]     --stopped_at_start--> Blocked (no span: a window of the log starts with the
//                                   thread already stopped; elsewhere as StopThread)
//
// In the final state every event of the thread is ignored and counted
// (event_after_thread_finished): the RTS often writes a false RunThread and
// WakeupThread pair right after the thread finished. WakeupThread is no
// transition; THREAD_RUNNABLE is not used (GHC stopped writing it).
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/threading/activity.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::analysis {

struct ThreadStateSpan {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    ThreadActivity activity;  // running (with its capability) or blocked (with the reason)
    bool operator==(const ThreadStateSpan&) const = default;
};

class ThreadStateAnalysis {
public:
    explicit ThreadStateAnalysis(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

    std::optional<ThreadStateSpan> run_thread(std::uint64_t time, eventlog::CapNo cap);
    std::optional<ThreadStateSpan> stop_thread(std::uint64_t time, std::uint16_t status, eventlog::ThreadId blocker);
    // A thread known to be stopped (blocked, runnable, in a foreign call) where the events
    // start: a window's synthetic StopThread (src/window). Not counted as
    // thread_stopped_before_running; once the thread has a state, as stop_thread.
    std::optional<ThreadStateSpan> stopped_at_start(std::uint64_t time, std::uint16_t status,
                                                    eventlog::ThreadId blocker);
    // Not a transition; counted when it comes after the thread finished.
    void wakeup_thread();
    // Closes an open span at `end` (the end of the log).
    std::optional<ThreadStateSpan> finish(std::uint64_t end);

    // What the thread does now; none before its first RunThread and once finished. A pointer,
    // not an optional: asked after each of its events, and an optional built on the stack and
    // read back whole stalled on store forwarding.
    const ThreadActivity* activity() const { return phase_ == Phase::in_span ? &current_ : nullptr; }
    bool finished() const { return phase_ == Phase::finished; }

private:
    enum class Phase : std::uint8_t { not_started, in_span, finished };

    std::optional<ThreadStateSpan> close_span(std::uint64_t time);

    Diagnostics& diagnostics_;
    Phase phase_ = Phase::not_started;
    ThreadActivity current_;   // in_span: the open span's activity
    std::uint64_t since_ = 0;  // in_span: the open span's start
};

}  // namespace el2fx::analysis
