// Everything the threading analyses found in one eventlog: per capability and per
// Haskell thread, the spans and the samples, ready for the profile builder.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/threading/capability_usage_analysis.hpp"
#include "analysis/threading/thread_state_analysis.hpp"
#include "analysis/threading/virtual_sampling_timer.hpp"

namespace el2fx::analysis {

struct CapabilityTimeline {
    eventlog::CapNo cap = 0;
    std::uint64_t start = 0;                          // its first event
    std::uint64_t end = 0;                            // the end of the log
    std::vector<CapabilitySpan> spans;                // in time order; they tile [start, end]
    std::vector<Sample<CapabilityActivity>> samples;  // in time order
};

struct ThreadTimeline {
    eventlog::ThreadId thread = 0;
    std::vector<ThreadStateSpan> spans;           // in time order, from its first RunThread
    std::vector<Sample<ThreadActivity>> samples;  // in time order
};

struct ThreadingResult {
    std::uint64_t end_time = 0;                    // of the last event
    std::vector<CapabilityTimeline> capabilities;  // by capability number
    std::vector<ThreadTimeline> threads;           // by thread id
};

}  // namespace el2fx::analysis
