#include "fxprof/profile_json_writer.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace el2fx::fxprof::detail {

// ---- counters ---------------------------------------------------------------------------
std::uint32_t ProfileWriter::main_thread_index(const Counter& c) {
    const Process& proc = p_.processes()[c.process.index()];
    if (proc.main_thread) return position(*proc.main_thread);
    // No main thread: its first thread as written, so a shown one when there is one.
    if (!proc.threads.empty()) {
        std::uint32_t first = position(proc.threads.front());
        for (ThreadHandle t : proc.threads) first = std::min(first, position(t));
        return first;
    }
    throw Error("counter \"" + c.name + "\": process " + proc.pid + " has no thread");
}

void ProfileWriter::write_counter(const Counter& c) {
    const std::uint32_t main_thread = main_thread_index(c);
    const CounterSamples& s = c.samples;
    const std::size_t n = s.size();
    CounterSampleRow first;
    const bool any = s.front(first);

    j_.begin_object();
    string_field(key::name, c.name);
    string_field(key::category, c.category);
    string_field(key::description, c.description);
    string_field(key::pid, p_.processes()[c.process.index()].pid);
    j_.key(key::mainThreadIndex);
    j_.uint64(main_thread);

    // The profiler zeroes the first sample's count and number (processCounter: Gecko's
    // first values are unreliable). Unless ours are zero already, a zero sample one
    // interval earlier goes first, so the first real sample keeps its value (and a rate
    // graph sees the same interval the profiler assumes for a first sample).
    const bool lead = any && (first.count != 0 || (s.has_number() && first.number != 0));
    const std::size_t written = n + (lead ? 1 : 0);
    j_.key(key::samples);
    j_.begin_object();
    std::int64_t previous = 0;
    j_.key(key::timeDeltas);
    j_.begin_array();
    if (lead) {
        previous = first.time - p_.meta().interval.nanos();
        j_.ms_from_ns(previous);
    }
    s.for_each([&](const CounterSampleRow& r) {
        j_.ms_from_ns(r.time - previous);
        previous = r.time;
    });
    j_.end_array();
    j_.key(key::count);
    j_.begin_array();
    if (lead) j_.int64(0);
    s.for_each([&](const CounterSampleRow& r) { j_.number(r.count); });
    j_.end_array();
    if (s.has_number()) {
        j_.key(key::number);
        j_.begin_array();
        if (lead) j_.int64(0);
        s.for_each([&](const CounterSampleRow& r) { j_.uint64(r.number); });
        j_.end_array();
    }
    length(written);
    j_.end_object();

    const CounterDisplay& d = c.display;
    j_.key(key::display);
    j_.begin_object();
    string_field(key::graphType, v70::spelling(d.graph_type));
    string_field(key::unit, d.unit);
    string_field(key::color, v70::spelling(d.color));
    j_.key(key::markerSchemaLocation);
    if (d.marker_schema_location)
        j_.string(v70::spelling(*d.marker_schema_location));
    else
        j_.null();
    j_.key(key::sortWeight);
    j_.int64(d.sort_weight);
    string_field(key::label, d.label.empty() ? c.name : d.label);
    j_.key(key::tooltipRows);
    j_.begin_array();
    for (const CounterTooltipRow& row : d.tooltip_rows) {
        j_.begin_object();
        if (row.separator) {
            string_field(key::type, v70::kTooltipRowSeparator);
        } else {
            string_field(key::type, v70::kTooltipRowValue);
            string_field(key::source, v70::spelling(row.source));
            j_.key(key::format);
            j_.begin_object();
            string_field(key::unit, v70::spelling(row.unit));
            j_.end_object();
            string_field(key::label, row.label);
            if (row.requires_preview_selection) {
                j_.key(key::requiresPreviewSelection);
                j_.boolean(true);
            }
        }
        j_.end_object();
    }
    j_.end_array();
    j_.end_object();

    j_.end_object();
}

}  // namespace el2fx::fxprof::detail
