#include "convert/merged_markers.hpp"

namespace el2fx::convert {

using namespace el2fx::fxprof;

MarkerSchemaHandle merged_spans_schema(Profile& profile) {
    using DL = DisplayLocation;
    return profile.register_marker_schema(
        {.name = "MergedSpans",
         .display = {DL::marker_chart, DL::marker_table},
         .fields = {{"count", "Spans", FieldFormat::integer},
                    {"total", "Total time", FieldFormat::duration},
                    {"longest", "Longest", FieldFormat::duration}},
         .tooltip_label = "{marker.name} ×{marker.data.count} (merged)",
         .table_label = "×{marker.data.count} merged, {marker.data.total} in all",
         .chart_label = "×{marker.data.count}",
         .description = "Spans shorter than the marker resolution (--marker-resolution), merged: how many, "
                        "their total and longest duration. The samples show them exactly."});
}

void add_merged_marker(Profile& profile, MarkerSchemaHandle schema, ThreadHandle track, StringHandle name,
                       CategoryHandle category, const MergedSpans& m) {
    auto at = [](std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); };
    auto dur = [](std::uint64_t ns) { return Duration::from_nanos(static_cast<std::int64_t>(ns)); };
    profile.add_marker(track, MarkerTiming::interval(at(m.start), at(m.end)), name, category,
                       schema, {FieldValue(m.count), FieldValue(dur(m.total)),
                                                      FieldValue(dur(m.longest))});
}

}  // namespace el2fx::convert
