// Several runs' heaps as one chart on one scale: heap size, live heap and the largest
// heap-profile bands of every run, each run from its own start (compare::RunSeries). The
// profiler draws all the graphs of one marker type on a track with one scale (its marker
// track graph takes the lowest and highest value over all of them), so one marker type
// with a field per run and series, one marker per span of the time grid, is the chart.
//
// The time grid has at most `bins` spans over the longest run; a span shows each series' largest
// level within it (so no peak is lost), 0 before a series' first sample and after its run ended;
// neighbouring spans with the same levels are one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compare/run_measure.hpp"
#include "fxprof/format_v70.hpp"

namespace el2fx::convert {

struct ComparisonSeries {
    std::string key;    // the marker field: "r1_size", "r2_live", "r1_b1"
    std::string label;  // "before: heap size"
    fxprof::v70::GraphColor color = fxprof::v70::GraphColor::grey;
};

struct ComparisonRow {
    std::uint64_t start = 0, end = 0;   // ns from every run's start
    std::vector<std::uint64_t> levels;  // one per series
};

struct HeapComparisonChart {
    std::vector<ComparisonSeries> series;
    std::vector<ComparisonRow> rows;
};

HeapComparisonChart make_heap_comparison_chart(const std::vector<compare::RunSeries>& runs,
                                               const std::vector<std::string>& names, std::size_t max_bands = 3,
                                               std::size_t bins = 2000);

}  // namespace el2fx::convert
