// counters[]: a graph track under a process, with its display (required since v62) and its
// samples. For graphType line-accumulated the samples hold increments; the profiler plots their
// running sum (minus its minimum, which starts at 0). The profiler ignores the first sample's
// count, so the writer puts a zero sample one interval before the first one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

using v70::CounterGraphType;
using v70::DisplayLocation;
using v70::GraphColor;
using v70::CounterTooltipSource;
using v70::CounterTooltipUnit;

struct CounterTooltipRow {
    bool separator = false;  // a separator row has no other properties
    CounterTooltipSource source = CounterTooltipSource::count;
    CounterTooltipUnit unit = CounterTooltipUnit::number;
    std::string label{};
    bool requires_preview_selection = false;  // shown only while a range is selected

    static CounterTooltipRow value(CounterTooltipSource s, CounterTooltipUnit u, std::string label,
                                   bool requires_preview_selection = false) {
        return {false, s, u, std::move(label), requires_preview_selection};
    }
    static CounterTooltipRow make_separator() { return {true, {}, {}, {}, false}; }
};

struct CounterDisplay {
    CounterGraphType graph_type = CounterGraphType::line_accumulated;
    std::string unit = "bytes";
    GraphColor color = GraphColor::blue;
    // Markers of schemas displayed at this location are drawn above the graph.
    std::optional<DisplayLocation> marker_schema_location{};
    int sort_weight = 20;  // lower: nearer the top (Firefox's memory track uses 20)
    std::string label{};   // track name
    std::vector<CounterTooltipRow> tooltip_rows{};

    // Firefox's memory track: accumulated bytes, the range, and the operation count.
    static CounterDisplay memory(std::string label, GraphColor color = GraphColor::orange);
    // A rate graph of increments in bytes (count / elapsed time), e.g. allocation: the rate per
    // sample, the total in the selection and in the visible range.
    static CounterDisplay byte_rate(std::string label, GraphColor color = GraphColor::blue);
};

struct CounterSamples {
    std::vector<std::int64_t> times{};  // ns
    std::vector<double> counts{};
    std::vector<std::uint32_t> numbers{};  // written only if has_number
    bool has_number = false;
    bool sorted = true;
};

struct Counter {
    ProcessHandle process;
    std::string name{};
    std::string category{};  // e.g. "Memory"
    std::string description{};
    CounterDisplay display{};
    CounterSamples samples{};
    double running_total = 0;  // sum of counts, for add_counter_value
};

}  // namespace el2fx::fxprof
