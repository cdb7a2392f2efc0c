// The mutator span automaton of seeds/threading-analyses.md, for one capability:
//
//   Idle       --RunThread[X]-----------> Mutator[X]   (unless X has finished: ignored)
//   Idle       --StopThread[X]----------> Idle
//   Mutator[X] --StopThread[X]----------> Idle         (yields a mutator span; with
//                                                       ThreadFinished, X joins the finished set)
//   Mutator[X] --RunThread[X]-----------> Mutator[X]
//   Mutator[X] --RunThread[Y], Y≠X------> Mutator[X]   (error, counted)
//   Mutator[X] --StopThread[Y], Y≠X-----> Mutator[X]   (error, counted)
//
// The finished set exists because the RTS often writes a false RunThread[X] right
// after StopThread[X] with ThreadFinished.
#pragma once

#include <cstdint>
#include <optional>

#include "eventlog/event_types.hpp"
#include "util/diagnostics.hpp"
#include "util/id_map.hpp"

namespace el2fx::analysis {

struct MutatorSpan {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    eventlog::ThreadId thread = 0;
    bool operator==(const MutatorSpan&) const = default;
};

class MutatorSpanAnalysis {
public:
    explicit MutatorSpanAnalysis(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

    void run_thread(std::uint64_t time, eventlog::ThreadId thread);
    std::optional<MutatorSpan> stop_thread(std::uint64_t time, eventlog::ThreadId thread, std::uint16_t status);
    // Closes an open mutator span at `end` (the end of the log).
    std::optional<MutatorSpan> finish(std::uint64_t end);

    // The thread of the Mutator state; none when Idle.
    std::optional<eventlog::ThreadId> running_thread() const {
        return running_ ? std::optional(running_->thread) : std::nullopt;
    }

private:
    struct Running {
        eventlog::ThreadId thread;
        std::uint64_t since;
    };
    Diagnostics& diagnostics_;
    std::optional<Running> running_;
    // A false RunThread of a finished thread is harmless and the thread-state
    // analysis counts it, so this one ignores it silently.
    util::IdSet finished_;
};

}  // namespace el2fx::analysis
