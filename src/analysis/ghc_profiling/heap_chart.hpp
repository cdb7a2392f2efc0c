// A heap profile drawn the way hp2ps draws it: the bands with the most residency over the run,
// stacked from the largest (bottom) up, then the rest added up as "other" on top, all on one
// scale. One row per census; a row holds each chart band's own residency and the cumulative
// levels (the top edge of each band in the stack), which is what a track drawing its lines
// overlaid, each from zero, needs to show the stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/ghc_profiling/heap_profile.hpp"

namespace el2fx::profiling {

struct HeapChartRow {
    std::uint64_t start = 0;  // the census's time
    // Until the next census (the level holds until then); the last census: as long as the
    // gap before it, cut at the run's end. Equal to start when nothing is known.
    std::uint64_t end = 0;
    std::uint64_t total = 0;
    std::vector<std::uint64_t> levels;      // per chart band, then "other"
    std::vector<std::uint64_t> cumulative;  // levels summed from the bottom: cumulative.back() == total
};

struct HeapChart {
    std::vector<std::uint32_t> bands;  // the chart's bands, bottom of the stack (largest) first
    std::size_t other_bands = 0;       // bands with residency that are not in the chart ("other")
    std::vector<HeapChartRow> rows;    // one per census, in time order
    // Per chart band, then "other": the highest residency in any census.
    std::vector<std::uint64_t> peaks;
    // Per chart band, then "other": residency summed over all censuses (the ranking's measure).
    std::vector<std::uint64_t> sums;
};

// The chart of `heap`'s censuses (finished: in time order) with its `band_limit` largest
// bands; `run_end` bounds the last census's row.
HeapChart make_heap_chart(const HeapProfile& heap, std::size_t band_limit, std::uint64_t run_end);

}  // namespace el2fx::profiling
