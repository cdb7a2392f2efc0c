#include "fxprof/counter.hpp"

namespace el2fx::fxprof {

CounterDisplay CounterDisplay::memory(std::string label, GraphColor color) {
    CounterDisplay d;
    d.graph_type = CounterGraphType::line_accumulated;
    d.unit = "bytes";
    d.color = color;
    d.marker_schema_location = DisplayLocation::timeline_memory;
    d.sort_weight = 20;
    d.label = label;
    d.tooltip_rows = {
        CounterTooltipRow::value(CounterTooltipSource::accumulated, CounterTooltipUnit::bytes,
                                 label),
        CounterTooltipRow::value(CounterTooltipSource::count_range, CounterTooltipUnit::bytes,
                                 "Range in view"),
        CounterTooltipRow::value(CounterTooltipSource::sample_number, CounterTooltipUnit::number,
                                 "Operations since previous sample"),
    };
    return d;
}

CounterDisplay CounterDisplay::byte_rate(std::string label, GraphColor color) {
    CounterDisplay d;
    d.graph_type = CounterGraphType::line_rate;
    d.unit = "bytes";
    d.color = color;
    d.marker_schema_location = std::nullopt;
    d.sort_weight = 30;
    d.label = label;
    d.tooltip_rows = {
        CounterTooltipRow::value(CounterTooltipSource::rate, CounterTooltipUnit::bytes_per_second,
                                 label),
        CounterTooltipRow::value(CounterTooltipSource::count, CounterTooltipUnit::bytes,
                                 "Since the previous sample"),
        CounterTooltipRow::make_separator(),
        CounterTooltipRow::value(CounterTooltipSource::committed_range_total,
                                 CounterTooltipUnit::bytes, "Total in the visible range"),
        CounterTooltipRow::value(CounterTooltipSource::selection_total, CounterTooltipUnit::bytes,
                                 "Total in the selection", true),
    };
    return d;
}

}  // namespace el2fx::fxprof
