#include "convert/data_loss.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace el2fx::convert {
namespace {

using fxprof::ExtraValue;
using fxprof::FieldFormat;
using fxprof::FieldValue;
using fxprof::MarkerTiming;

constexpr std::size_t kMaxEntries = 20;  // Profile Info stays readable; the count says how many

std::string milliseconds(std::uint64_t ns) {
    char text[64];
    std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
    return text;
}

std::string where(const eventlog::LostData& lost) {
    return lost.cap ? "capability " + std::to_string(*lost.cap) : std::string("no capability (the global block)");
}

std::string describe(const eventlog::LostData& lost) {
    std::string text = where(lost) + ", events between " + milliseconds(lost.from_time) + " and " +
                       milliseconds(lost.to_time) + ": " + std::string(eventlog::corruption_text(lost.kind)) +
                       " (tag " + std::to_string(lost.tag) + ")";
    text +=
        lost.resynchronised ? "; read on from the next block" : "; no later block: the rest of the eventlog is lost";
    return text;
}

}  // namespace

void add_data_loss_entries(fxprof::Profile& profile, fxprof::ExtraSectionHandle section,
                           const eventlog::StreamEnd& end) {
    for (std::size_t i = 0; i < end.lost.size() && i < kMaxEntries; ++i) {
        const eventlog::LostData& lost = end.lost[i];
        profile.add_extra_entry(section,
                                "Data lost at bytes " + std::to_string(lost.begin) + "-" + std::to_string(lost.end),
                                ExtraValue::text(describe(lost)));
    }
    if (end.lost.size() > kMaxEntries)
        profile.add_extra_entry(section, "Data lost elsewhere",
                                ExtraValue::text(std::to_string(end.lost.size() - kMaxEntries) + " more stretches"));
    if (end.first_bad_time_at)
        profile.add_extra_entry(section, "First impossible timestamp",
                                ExtraValue::text("at byte " + std::to_string(*end.first_bad_time_at) +
                                                 "; such events were given the time of the event before them"));
}

namespace {

// Corrupt bytes: the span of the timeline whose events they held.
struct DataLostMarker {
    static constexpr fxprof::MarkerTypeInfo kType{
        .name = "DataLost",
        .display = fxprof::kTimelineDisplay,
        .tooltip_label = "Data lost: {marker.data.problem}",
        .table_label = "Data lost (bytes {marker.data.firstByte}-{marker.data.lastByte}): {marker.data.problem}",
        .chart_label = "Data lost",
        .description = "Corrupt bytes in the eventlog: the events they held are missing from this span."};
    static constexpr std::array kFields{fxprof::StaticField{"problem", "Problem", FieldFormat::string},
                                        fxprof::StaticField{"firstByte", "First byte lost", FieldFormat::integer},
                                        fxprof::StaticField{"lastByte", "Bytes lost up to", FieldFormat::integer},
                                        fxprof::StaticField{"tag", "Event type found", FieldFormat::integer},
                                        fxprof::StaticField{"recovery", "Recovery", FieldFormat::string}};
    fxprof::StringHandle problem;
    std::int64_t first_byte;
    std::int64_t last_byte;
    std::int64_t tag;
    fxprof::StringHandle recovery;
    auto field_values() const { return std::tuple{problem, first_byte, last_byte, tag, recovery}; }
};

}  // namespace

void add_data_loss_markers(ProfileContext& ctx, const eventlog::StreamEnd& end, std::uint64_t shift) {
    if (end.lost.empty()) return;
    fxprof::Profile& p = ctx.profile;
    const fxprof::StringHandle name = p.handle_for_string("Data lost");
    const fxprof::StringHandle resumed = p.handle_for_string("read on from the next block");
    const fxprof::StringHandle lost_rest = p.handle_for_string("no later block: the rest of the eventlog is lost");
    auto shifted = [shift](std::uint64_t t) { return t >= shift ? t - shift : 0; };
    for (const eventlog::LostData& lost : end.lost) {
        fxprof::ThreadHandle track = ctx.process_track;
        if (lost.cap)
            if (auto t = ctx.capability_track(*lost.cap)) track = *t;
        const std::uint64_t from = shifted(lost.from_time), to = std::max(from, shifted(lost.to_time));
        const MarkerTiming timing = to > from ? MarkerTiming::interval(ProfileContext::at(from), ProfileContext::at(to))
                                              : MarkerTiming::instant(ProfileContext::at(from));
        const fxprof::StringHandle problem = p.handle_for_string(eventlog::corruption_text(lost.kind));
        p.add_marker(track, timing, name, ctx.categories.warning,
                     DataLostMarker{.problem = problem,
                                    .first_byte = static_cast<std::int64_t>(lost.begin),
                                    .last_byte = static_cast<std::int64_t>(lost.end),
                                    .tag = static_cast<std::int64_t>(lost.tag),
                                    .recovery = lost.resynchronised ? resumed : lost_rest});
    }
}

}  // namespace el2fx::convert
