#include "fxprof/counter.hpp"

#include <algorithm>

namespace el2fx::fxprof {

void CounterSamples::add(std::int64_t time, double count, std::optional<std::uint32_t> number,
                         std::int64_t resolution) {
    if (number) has_number_ = true;
    const std::uint32_t n = number.value_or(0);
    if (resolution <= 0) {
        rows_.append(CounterSampleRow{time, count, n});
        return;
    }
    if (pending_ && time >= pending_first_ &&
        static_cast<std::uint64_t>(time) - static_cast<std::uint64_t>(pending_first_) <
            static_cast<std::uint64_t>(resolution)) {
        pending_row_.count += count;
        pending_row_.number =
            static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{pending_row_.number} + n, UINT32_MAX));
        pending_row_.time = std::max(pending_row_.time, time);
        return;
    }
    if (pending_) rows_.append(pending_row_);
    pending_ = true;
    pending_row_ = CounterSampleRow{time, count, n};
    pending_first_ = time;
}

CounterDisplay CounterDisplay::memory(std::string label, GraphColor color) {
    CounterDisplay d;
    d.graph_type = CounterGraphType::line_accumulated;
    d.unit = "bytes";
    d.color = color;
    d.marker_schema_location = DisplayLocation::timeline_memory;
    d.sort_weight = 20;
    d.label = label;
    d.tooltip_rows = {
        CounterTooltipRow::value(CounterTooltipSource::accumulated, CounterTooltipUnit::bytes, label),
        CounterTooltipRow::value(CounterTooltipSource::count_range, CounterTooltipUnit::bytes, "Range in view"),
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
        CounterTooltipRow::value(CounterTooltipSource::rate, CounterTooltipUnit::bytes_per_second, label),
        CounterTooltipRow::value(CounterTooltipSource::count, CounterTooltipUnit::bytes, "Since the previous sample"),
        CounterTooltipRow::make_separator(),
        CounterTooltipRow::value(CounterTooltipSource::committed_range_total, CounterTooltipUnit::bytes,
                                 "Total in the visible range"),
        CounterTooltipRow::value(CounterTooltipSource::selection_total, CounterTooltipUnit::bytes,
                                 "Total in the selection", true),
    };
    return d;
}

CounterDisplay CounterDisplay::event_count(std::string label, std::string unit, std::string_view what, GraphColor color,
                                           int sort_weight) {
    CounterDisplay d;
    d.graph_type = CounterGraphType::line_accumulated;
    d.unit = std::move(unit);
    d.color = color;
    d.marker_schema_location = std::nullopt;
    d.sort_weight = sort_weight;
    d.label = std::move(label);
    const std::string w(what);
    d.tooltip_rows = {
        CounterTooltipRow::value(CounterTooltipSource::accumulated, CounterTooltipUnit::number, w + " so far"),
        CounterTooltipRow::value(CounterTooltipSource::count, CounterTooltipUnit::number,
                                 w + " since the previous sample"),
        CounterTooltipRow::make_separator(),
        CounterTooltipRow::value(CounterTooltipSource::selection_total, CounterTooltipUnit::number,
                                 w + " in the selection", true),
    };
    return d;
}

}  // namespace el2fx::fxprof
