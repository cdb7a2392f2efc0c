#include "convert/run_summary_marker.hpp"

#include <cstdio>

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

template <typename T>
const char* accuracy_mark(const gc::Figure<T>& f) {
    switch (f.accuracy) {
        case gc::Accuracy::lower_bound: return "≥";
        case gc::Accuracy::estimate: return "~";
        default: return "";
    }
}

// 50.4 MB, 2.1 GB: three significant figures, decimal units as the profiler's own.
std::string decimal_bytes(double bytes) {
    const char* const units[] = {"B", "kB", "MB", "GB", "TB"};
    int u = 0;
    while (bytes >= 1000 && u < 4) bytes /= 1000, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, bytes < 10 ? "%.2f %s" : bytes < 100 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

void append(std::string& out, const std::string& part) {
    if (!out.empty()) out += " · ";
    out += part;
}

}  // namespace

std::string run_summary_text(const gc::RtsSummary& s) {
    std::string out;
    char buf[64];
    if (s.gc_elapsed.value && s.total_elapsed.value && *s.total_elapsed.value > 0) {
        const double share =
            100.0 * static_cast<double>(*s.gc_elapsed.value) / static_cast<double>(*s.total_elapsed.value);
        std::snprintf(buf, sizeof buf, "GC %s%.1f%%", accuracy_mark(s.total_elapsed), share);
        append(out, buf);
    }
    if (s.productivity.value) {
        std::snprintf(buf, sizeof buf, "productivity %s%.1f%%", accuracy_mark(s.productivity),
                      *s.productivity.value * 100);
        append(out, buf);
    }
    if (s.max_residency.value)
        append(out, std::string("max residency ") + accuracy_mark(s.max_residency) +
                        decimal_bytes(static_cast<double>(*s.max_residency.value)));
    if (s.alloc_rate.value)
        append(out,
               std::string("alloc ") + accuracy_mark(s.alloc_rate) + decimal_bytes(*s.alloc_rate.value) + "/s of MUT");
    return out;
}

namespace {

// The headline of `+RTS -s`, over the whole run.
struct RunSummaryMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "RunSummary",
        // Not in the timeline: a bar over the whole process track would hide its GC markers.
        // The process track opens on the marker chart, where this is the first row.
        .display = kChartDisplay,
        .tooltip_label = "+RTS -s: {marker.data.summary}",
        .table_label = "{marker.data.summary}",
        .chart_label = "{marker.data.summary}",
        .description =
            "The headline figures of the +RTS -s summary, computed from the events (elapsed "
            "times; ~ an estimate, ≥ a lower bound). Profile Info has the whole summary."};
    static constexpr std::array kFields{StaticField{"summary", "Summary", FieldFormat::string}};
    StringHandle summary;
    auto field_values() const { return std::tuple{summary}; }
};

}  // namespace

void add_run_summary_marker(ProfileContext& context, const gc::RtsSummary& summary, std::uint64_t start,
                            std::uint64_t end) {
    const std::string text = run_summary_text(summary);
    if (text.empty()) return;
    Profile& p = context.profile;
    auto at = [](std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); };
    // One interning call per statement: compilers order a call's arguments differently.
    const StringHandle name = p.handle_for_string("+RTS -s");
    const StringHandle summary_text = p.handle_for_string(text);
    p.add_marker(context.process_track, MarkerTiming::interval(at(start), at(std::max(start, end))), name,
                 context.categories.gc, RunSummaryMarker{summary_text});
}

}  // namespace el2fx::convert
