// The GC span automaton of seeds/threading-analyses.md, for one capability:
//
//   Idle --StartGC--> GC     GC --EndGC--> Idle  (yields a GC span)
//   Idle --EndGC----> Idle   GC --StartGC--> GC  (the span keeps its first start)
#pragma once

#include <cstdint>
#include <optional>

namespace el2fx::analysis {

struct GcSpan {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    bool operator==(const GcSpan&) const = default;
};

class GcSpanAnalysis {
public:
    void start_gc(std::uint64_t time);
    std::optional<GcSpan> end_gc(std::uint64_t time);
    // Closes an open GC span at `end` (the end of the log).
    std::optional<GcSpan> finish(std::uint64_t end);

    bool in_gc() const { return gc_start_.has_value(); }

private:
    std::optional<std::uint64_t> gc_start_;  // set in the GC state
};

}  // namespace el2fx::analysis
