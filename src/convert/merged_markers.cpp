#include "convert/merged_markers.hpp"

namespace el2fx::convert {

using namespace el2fx::fxprof;

// A run of short spans on one row, merged: how many, their total and longest duration.
struct MergedSpansMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "MergedSpans",
        .display = kChartDisplay,
        .tooltip_label = "{marker.name} ×{marker.data.count} (merged)",
        .table_label = "×{marker.data.count} merged, {marker.data.total} in all",
        .chart_label = "×{marker.data.count}",
        .description =
            "Spans shorter than the marker resolution (--marker-resolution), merged: how many, "
            "their total and longest duration. The samples show them exactly."};
    static constexpr std::array kFields{StaticField{"count", "Spans", FieldFormat::integer},
                                        StaticField{"total", "Total time", FieldFormat::duration},
                                        StaticField{"longest", "Longest", FieldFormat::duration}};
    std::uint64_t count;
    Duration total;
    Duration longest;
    auto field_values() const { return std::tuple{count, total, longest}; }
};

void add_merged_marker(Profile& profile, ThreadHandle track, StringHandle name, CategoryHandle category,
                       const MergedSpans& m) {
    auto at = [](std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); };
    auto dur = [](std::uint64_t ns) { return Duration::from_nanos(static_cast<std::int64_t>(ns)); };
    profile.add_marker(track, MarkerTiming::interval(at(m.start), at(m.end)), name, category,
                       MergedSpansMarker{.count = m.count, .total = dur(m.total), .longest = dur(m.longest)});
}

}  // namespace el2fx::convert
