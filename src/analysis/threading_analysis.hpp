// The driver of the threading analyses: takes the events in time order (from
// eventlog::TimeOrderedReader) and dispatches the scheduler events to one
// CapabilityUsageAnalysis per capability and one ThreadStateAnalysis per Haskell
// thread, each followed by a VirtualSamplingTimer. Memory grows with the
// capabilities, threads, spans and samples found, not with the events read.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/capability_usage_analysis.hpp"
#include "analysis/thread_state_analysis.hpp"
#include "analysis/threading_result.hpp"
#include "analysis/virtual_sampling_timer.hpp"
#include "eventlog/event.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::analysis {

struct ThreadingOptions {
    std::uint64_t sampling_interval_ns = kDefaultSamplingIntervalNs;
};

class ThreadingAnalysis {
public:
    // Throws std::invalid_argument for a sampling interval of 0.
    explicit ThreadingAnalysis(Diagnostics& diagnostics, ThreadingOptions options = {});

    // Every event, in time order: any event of a capability's block starts that
    // capability's life, and the last event's time is the end of the log.
    void handle(const eventlog::Event& event);
    // Closes every open span at the end of the log and hands over the results.
    ThreadingResult finish();

private:
    struct CapabilityTrack {
        CapabilityUsageAnalysis usage;
        VirtualSamplingTimer<CapabilityActivity> timer;
        std::vector<CapabilitySpan> spans;
    };
    struct ThreadTrack {
        ThreadStateAnalysis state;
        VirtualSamplingTimer<ThreadActivity> timer;
        std::vector<ThreadStateSpan> spans;
    };

    CapabilityTrack& capability(eventlog::CapNo cap, std::uint64_t time);
    ThreadTrack& thread(eventlog::ThreadId id);
    void handle_capability_event(const eventlog::Event& event, eventlog::CapNo cap, std::uint64_t time);
    static void record(CapabilityTrack& track, std::uint64_t time, std::optional<CapabilitySpan> span);
    static void record(ThreadTrack& track, std::uint64_t time, std::optional<ThreadStateSpan> span);

    Diagnostics& diagnostics_;
    ThreadingOptions options_;
    std::uint64_t now_ = 0;  // time of the latest event
    std::vector<std::optional<CapabilityTrack>> capabilities_;  // by capability number
    std::unordered_map<eventlog::ThreadId, ThreadTrack> threads_;
};

// Reads the whole log through the driver.
ThreadingResult analyse_threading(eventlog::TimeOrderedReader& reader, Diagnostics& diagnostics,
                                  ThreadingOptions options = {});

}  // namespace el2fx::analysis
