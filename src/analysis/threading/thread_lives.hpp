// The Haskell threads' half of the threading analysis: one ThreadStateAnalysis and one
// sampling timer per live thread, driven by the scheduler's thread events, their spans
// and samples handed to a sink as they become final. The threading analysis keeps one for the
// threads it follows; a pass may keep another on the reader's thread for the others
// (reader_thread_lives.hpp): each thread's life depends on its own events only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory_resource>
#include <unordered_map>

#include "analysis/threading/thread_state_analysis.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "analysis/threading/virtual_sampling_timer.hpp"
#include "eventlog/event_types.hpp"
#include "util/diagnostics.hpp"
#include "util/id_map.hpp"
#include "util/recent_ids.hpp"
#include "util/recycling_memory.hpp"

namespace el2fx::analysis {

class ThreadLives {
public:
    // `diagnostics` and `sink` must outlive it. `recent_slots`: the recent threads' slots
    // (util::recent_slots_for() where the threads it follows are a known few).
    ThreadLives(Diagnostics& diagnostics, std::uint64_t sampling_interval_ns, ThreadingSink& sink,
                std::size_t recent_slots = util::kFewRecentSlots);

    // The thread events of a capability's block, at `time` (the latest event's: the clock
    // never goes back). A finished thread's later events count event_after_thread_finished.
    void run_thread(eventlog::ThreadId id, eventlog::CapNo cap, std::uint64_t time);
    // `at_start`: a window's stated state (the thread was stopped when the window began).
    void stop_thread(eventlog::ThreadId id, std::uint64_t time, std::uint16_t status, std::uint32_t blocker,
                     bool at_start);
    void wakeup_thread(eventlog::ThreadId id);
    // Closes every live thread's open span at `now`, in id order (what a sink sees must not
    // depend on hashing), and forgets every thread. `before_thread`, if any, is called with
    // each thread's id before it closes.
    void finish(std::uint64_t now, const std::function<void(eventlog::ThreadId)>& before_thread = {});

private:
    struct ThreadTrack {
        eventlog::ThreadId id;
        ThreadStateAnalysis state;
        UnbufferedSamplingTimer<ThreadActivity> timer;
    };
    // nullptr for a finished thread (the event is counted as coming after its end). Inline
    // for a recent one, most scheduler events; the rest out of line.
    ThreadTrack* thread(eventlog::ThreadId id) {
        if (ThreadTrack** t = recent_.find(id)) return *t;
        return thread_not_recent(id);
    }
    ThreadTrack* thread_not_recent(eventlog::ThreadId id);
    // The live thread's track, else nullptr; through recent_ first.
    ThreadTrack* live_thread(eventlog::ThreadId id) {
        if (ThreadTrack** t = recent_.find(id)) return *t;
        return live_in_map(id);
    }
    // The live thread's track from the map, noted as recent; else nullptr.
    ThreadTrack* live_in_map(eventlog::ThreadId id);
    void record(ThreadTrack& track, std::uint64_t time, const std::optional<ThreadStateSpan>& span);
    void drain(eventlog::ThreadId id);  // samples_, the thread's that changed last, to the sink

    Diagnostics& diagnostics_;
    std::uint64_t sampling_interval_ns_;
    ThreadingSink& sink_;
    // Live threads. Their nodes come from recycled memory: a log may start and finish millions
    // of threads, each a node made and freed.
    util::RecyclingMemory thread_nodes_;
    std::pmr::unordered_map<eventlog::ThreadId, ThreadTrack> threads_{&thread_nodes_};
    // The tracks of recently seen live threads: a scheduler event (tens of millions) finds
    // its thread without hashing. The map's elements never move; an erased one leaves here first.
    util::RecentIds<ThreadTrack*> recent_;
    // Finished threads are forgotten but for their id: later events of theirs only count as
    // a diagnostic, and a program with a million short-lived threads keeps a million ids only.
    util::IdSet finished_;
    // The samples of the thread that changed last, handed to the sink before the next changes
    // (drain()): one buffer for every thread, not one made and freed with each.
    UnbufferedSamplingTimer<ThreadActivity>::Samples samples_;
};

}  // namespace el2fx::analysis
