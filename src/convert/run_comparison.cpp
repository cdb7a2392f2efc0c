#include "convert/run_comparison.hpp"

#include <sys/stat.h>

#include "compare/comparison.hpp"
#include "compare/run_measure.hpp"
#include "compare/value_text.hpp"
#include "convert/heap_comparison_chart.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

// A line at zero last: a marker track scales its lines from their lowest value.
MarkerSchema chart_schema(const HeapComparisonChart& chart) {
    MarkerSchema schema{.name = "HeapComparison",
                        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table},
                        .tooltip_label = "{marker.name}",
                        .table_label = "{marker.name}",
                        .description =
                            "The runs' heaps on one scale, each run from its own start: heap size and live "
                            "heap as the runtime posted them, and the largest heap-profile bands; the "
                            "largest level of each within the span."};
    for (const ComparisonSeries& s : chart.series) {
        schema.fields.push_back(
            {s.key, "[" + std::string(v70::spelling(s.color)) + "] " + s.label, FieldFormat::bytes});
        schema.graphs.push_back({s.key, MarkerGraphType::line, s.color});
    }
    schema.fields.push_back({"zero", "", FieldFormat::integer, true});
    schema.graphs.push_back({"zero", MarkerGraphType::line, GraphColor::grey});
    return schema;
}

void add_chart(Profile& profile, const HeapComparisonChart& chart, std::uint64_t end) {
    if (chart.rows.empty()) return;
    const ProcessHandle process = profile.add_process("Runs compared", "compared", Timestamp{});
    profile.set_process_end_time(process, at(end));
    const ThreadHandle track = profile.add_thread(process, "Runs compared", 0, Timestamp{}, true);
    profile.set_thread_end_time(track, at(end));
    profile.set_thread_show_markers_in_timeline(track, true);
    profile.add_initial_visible_thread(track);
    const MarkerSchemaHandle schema = profile.register_marker_schema(chart_schema(chart));
    const StringHandle name = profile.handle_for_string("Heap, runs on one scale");
    const CategoryHandle memory = profile.handle_for_category("Memory", CategoryColor::purple);
    std::vector<FieldValue> values;
    for (const ComparisonRow& row : chart.rows) {
        values.clear();
        for (std::uint64_t level : row.levels) values.emplace_back(level);
        values.emplace_back(0);
        profile.add_marker(track, MarkerTiming::interval(at(row.start), at(row.end)), name, memory, schema, values);
    }
}

// "12.3 MB → 11.0 MB (-1.3 MB, -10.6%)"
std::string row_text(const compare::FigureComparison& f) {
    auto side = [&](const compare::SideFigure& s) {
        return s.present() ? compare::format_value(s.median, f.unit) : "-";
    };
    std::string text = side(f.before) + " → " + side(f.after);
    if (f.change) {
        text += " (" + compare::format_change(*f.change, f.unit);
        if (f.percent) text += ", " + compare::format_percent(*f.percent);
        text += ")";
    }
    return text;
}

void add_panel(Profile& profile, const compare::Comparison& c, const std::string& before, const std::string& after) {
    const ExtraSectionHandle section = profile.add_extra_section("Compared: " + before + " → " + after);
    for (const std::string& note : c.notes) profile.add_extra_entry(section, "Note", ExtraValue::text(note));
    std::size_t profiling_rows = 0;
    for (const compare::FigureComparison& f : c.figures) {
        const bool profiling = f.group == compare::Group::cost_centres || f.group == compare::Group::heap_bands;
        if (profiling && ++profiling_rows > 10) continue;  // the largest changes; `compare --json` has all
        profile.add_extra_entry(section, f.label, ExtraValue::text(row_text(f)));
    }
}

}  // namespace

void add_run_comparison(Profile& profile, const std::vector<RunInput>& inputs,
                        const std::vector<std::string>& run_names, const ConvertOptions& options) {
    std::vector<compare::RunFigures> figures;
    std::vector<compare::RunSeries> series;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < inputs.size() && i < run_names.size(); ++i) {
        struct stat st {};  // a pipe or FIFO was read once and cannot be read again
        if (inputs[i].path == "-" || ::stat(inputs[i].path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
        Diagnostics diagnostics;  // the conversion already reported the log's problems
        compare::MeasuredRun measured = compare::measure_run(inputs[i].path, diagnostics);
        if (options.redact_args) measured.figures.rts_options.clear();
        figures.push_back(std::move(measured.figures));
        series.push_back(std::move(measured.series));
        names.push_back(run_names[i]);
    }
    if (figures.size() < 2) return;
    std::uint64_t end = 1;
    for (const compare::RunSeries& s : series) end = std::max(end, s.end);
    add_chart(profile, make_heap_comparison_chart(series, names), end);
    for (std::size_t i = 1; i < figures.size(); ++i)
        add_panel(profile, compare::compare_runs({figures.front()}, {figures[i]}), names.front(), names[i]);
}

}  // namespace el2fx::convert
