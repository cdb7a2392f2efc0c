// Heap size, live heap and blocks size as one chart on one scale: a marker-graph track of the
// process, one marker per span between level changes. As counters they were three tracks, each
// on its own scale, that the profiler always lists before the threads (they pushed the
// capability tracks off the first screen); on one scale the live data reads against the heap
// that holds it.
//
//   set(level, t)  no open span           → a span opens at t with the levels known
//                  t - start >= resolution → the span closes at t; a new one opens at t
//                  closer                  → the span keeps each level's largest value
//   finish(end)                            → the open span closes at end
// So a log of duration D gives at most D/resolution + 1 spans (resolution 0: one per change),
// and a span shows the peak of each level within it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/gc/heap_counters.hpp"

namespace el2fx::convert {

struct HeapLevels {
    std::uint64_t size = 0, live = 0, blocks = 0;  // bytes; 0 until posted
    bool operator==(const HeapLevels&) const = default;
};

struct HeapLevelSpan {
    std::uint64_t start = 0, end = 0;
    HeapLevels levels;
    bool operator==(const HeapLevelSpan&) const = default;
};

class HeapLevelSpans {
public:
    explicit HeapLevelSpans(std::uint64_t resolution) : resolution_(resolution) {}

    // A level (heap_size, heap_live or blocks_size; others are ignored) is `bytes` from `time` on.
    // Times must not decrease.
    void set(gc::HeapQuantity level, std::uint64_t time, std::uint64_t bytes);
    void finish(std::uint64_t end);

    const std::vector<HeapLevelSpan>& spans() const { return spans_; }
    bool any() const { return any_; }

private:
    std::uint64_t resolution_;
    HeapLevels current_;
    std::optional<HeapLevelSpan> open_;
    std::vector<HeapLevelSpan> spans_;
    bool any_ = false;
};

}  // namespace el2fx::convert
