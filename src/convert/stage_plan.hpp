// Which analyses of a conversion's second pass run on the reader's thread (the prefetcher's
// worker) beside the merge: the GC analysis (gc_stage.hpp), the capabilities' part of the
// threading analysis (capability_stage.hpp), both or neither. The profile is the same either
// way; only the time differs. The pass takes as long as the busier of the two threads, so the
// plan balances them, estimated from what the census counted: the merge costs the worker for
// every event, each stage costs it for the events it takes and saves the consumer less than
// that (the events are decoded on both sides, its output crosses the cores).
#pragma once

#include <cstdint>
#include <vector>

namespace el2fx::convert {

struct StagePlan {
    bool gc = false;            // the GC analysis on the worker
    bool capabilities = false;  // the capabilities' part of the threading analysis
    bool operator==(const StagePlan&) const = default;
};

// From the census's events by tag (RunInfo::events_by_tag) and their total.
StagePlan plan_stages(const std::vector<std::uint64_t>& events_by_tag, std::uint64_t events);

}  // namespace el2fx::convert
