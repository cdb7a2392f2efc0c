#include "convert/heap_profile_contributor.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "profiling/band_names.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

constexpr std::array<std::uint16_t, 8> kShownTags = {
    eventlog::HeapProfBegin::tag,       eventlog::HeapProfCostCentre::tag,     eventlog::HeapProfSampleBegin::tag,
    eventlog::HeapProfSampleCostCentre::tag, eventlog::HeapProfSampleString::tag, eventlog::HeapProfSampleEnd::tag,
    eventlog::HeapBioProfSampleBegin::tag,   eventlog::InfoProv::tag};

constexpr std::array<GraphColor, 9> kBandColors = {GraphColor::blue,   GraphColor::orange, GraphColor::green,
                                                   GraphColor::purple, GraphColor::teal,   GraphColor::magenta,
                                                   GraphColor::red,    GraphColor::yellow, GraphColor::ink};
constexpr int kFirstBandSortWeight = 40;  // below the runtime's own memory tracks (20)

CounterDisplay band_display(const std::string& label, GraphColor color, int sort_weight) {
    CounterDisplay d;
    d.graph_type = CounterGraphType::line_accumulated;
    d.unit = "bytes";
    d.color = color;
    d.marker_schema_location = std::nullopt;
    d.sort_weight = sort_weight;
    d.label = label;
    d.tooltip_rows = {
        CounterTooltipRow::value(CounterTooltipSource::accumulated, CounterTooltipUnit::bytes, "Residency"),
        CounterTooltipRow::value(CounterTooltipSource::count_range, CounterTooltipUnit::bytes, "Range in view"),
    };
    return d;
}

}  // namespace

void HeapProfileContributor::handle(const eventlog::Event& event) {
    switch (event.tag) {
        case eventlog::HeapProfCostCentre::tag:
            if (const auto* cc = event.as<eventlog::HeapProfCostCentre>()) cost_centres_.define(*cc);
            break;
        case eventlog::InfoProv::tag:
            if (const auto* ipe = event.as<eventlog::InfoProv>()) info_tables_.add(*ipe);
            break;
        case eventlog::HeapProfBegin::tag:
        case eventlog::HeapProfSampleBegin::tag:
        case eventlog::HeapProfSampleCostCentre::tag:
        case eventlog::HeapProfSampleString::tag:
        case eventlog::HeapProfSampleEnd::tag:
        case eventlog::HeapBioProfSampleBegin::tag:
            heap_.handle(event);
            break;
        default:
            break;
    }
}

void HeapProfileContributor::contribute(ProfileContext& context, std::uint64_t /*end*/) {
    heap_.finish();
    if (!heap_.info() && heap_.censuses().empty()) return;
    Profile& p = context.profile;
    // Censuses without HEAP_PROF_BEGIN (a log cut at the front) still show, breakdown unknown.
    const profiling::HeapProfileInfo info = heap_.info().value_or(profiling::HeapProfileInfo{});
    const profiling::BreakdownInfo how = profiling::describe_breakdown(info.breakdown);
    const std::vector<profiling::HeapBand>& bands = heap_.bands();
    auto name_of = [&](std::uint32_t band) {
        return profiling::band_name(bands[band], info.breakdown, cost_centres_, info_tables_);
    };

    // Counters: the top bands, then "other".
    std::vector<std::uint32_t> top = heap_.top_bands(band_limit_);
    std::vector<int> rank(bands.size(), -1);  // band -> counter index, -1: "other"
    // Track labels: the end of each stack, as much of it as tells the shown bands apart.
    std::vector<std::string> labels(top.size());
    std::vector<std::size_t> depth(top.size(), 1);
    for (bool again = true; again;) {
        again = false;
        for (std::size_t i = 0; i < top.size(); ++i)
            labels[i] = profiling::band_label(bands[top[i]], info.breakdown, cost_centres_, info_tables_, depth[i]);
        for (std::size_t i = 0; i < top.size(); ++i)
            for (std::size_t j = 0; j < top.size(); ++j)
                if (i != j && labels[i] == labels[j] && depth[i] < bands[top[i]].stack.size()) {
                    ++depth[i];
                    again = true;
                    break;
                }
    }
    std::vector<CounterHandle> counters;
    for (std::size_t i = 0; i < top.size(); ++i) {
        rank[top[i]] = static_cast<int>(i);
        std::string name = name_of(top[i]);
        const std::string& label = labels[i];
        counters.push_back(p.add_counter(
            context.process, "Heap: " + name, "Memory",
            profiling::band_description(bands[top[i]], info.breakdown, cost_centres_, info_tables_),
            band_display("Heap: " + label, kBandColors[i % kBandColors.size()],
                         kFirstBandSortWeight + static_cast<int>(i))));
        p.set_counter_resolution(counters.back(), Duration{});  // every census counts: never merged
    }
    std::size_t nonzero = heap_.top_bands(bands.size()).size();
    std::optional<CounterHandle> other;
    if (nonzero > top.size()) {
        other = p.add_counter(context.process, "Heap: other", "Memory",
                              "Heap residency (" + std::string(how.flag) + ") of the " +
                                  std::to_string(nonzero - top.size()) + " smaller bands, added up",
                              band_display("Heap: other (" + std::to_string(nonzero - top.size()) + " bands)",
                                           GraphColor::grey, kFirstBandSortWeight + static_cast<int>(top.size())));
        p.set_counter_resolution(*other, Duration{});
    }

    // Census markers on the process track.
    MarkerSchema schema{.name = "HeapCensus",
                        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table},
                        .fields = {{"breakdown", "Breakdown", FieldFormat::string},
                                   {"total", "Total residency", FieldFormat::bytes},
                                   {"bands", "Bands", FieldFormat::integer}},
                        .tooltip_label = "Heap census: {marker.data.total}",
                        .table_label = "{marker.data.total}: {marker.data.band1} {marker.data.band1Bytes}",
                        .chart_label = "{marker.data.band1}",
                        .description = "A heap-profile census: residency by band, largest first."};
    for (std::size_t k = 1; k <= kMarkerBands; ++k) {
        std::string n = std::to_string(k);
        schema.fields.push_back({"band" + n, "Band " + n, FieldFormat::string});
        schema.fields.push_back({"band" + n + "Bytes", "Band " + n + " residency", FieldFormat::bytes});
    }
    MarkerSchemaHandle census_schema = p.register_marker_schema(std::move(schema));
    StringHandle census_name = p.handle_for_string("Heap census");
    StringHandle bio_name = p.handle_for_string("Heap census (biographical)");
    StringHandle breakdown = p.handle_for_string(std::string(how.flag) + ", by " + std::string(how.by));
    StringHandle none = p.handle_for_string("");

    std::vector<std::uint64_t> level(counters.size());
    for (const profiling::HeapCensus& census : heap_.censuses()) {
        Timestamp at = ProfileContext::at(census.time);
        std::fill(level.begin(), level.end(), 0);
        std::uint64_t rest = 0;
        for (const auto& [band, bytes] : census.bands) {
            if (rank[band] >= 0)
                level[static_cast<std::size_t>(rank[band])] += bytes;
            else
                rest += bytes;
        }
        for (std::size_t i = 0; i < counters.size(); ++i) p.add_counter_value(counters[i], at, static_cast<double>(level[i]));
        if (other) p.add_counter_value(*other, at, static_cast<double>(rest));

        std::vector<std::pair<std::uint32_t, std::uint64_t>> largest = census.bands;
        std::stable_sort(largest.begin(), largest.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        std::vector<FieldValue> values = {FieldValue(breakdown), FieldValue(census.total), FieldValue(census.bands.size())};
        for (std::size_t k = 0; k < kMarkerBands; ++k) {
            if (k < largest.size()) {
                StringHandle band = p.handle_for_string(name_of(largest[k].first));
                values.push_back(FieldValue(band));
                values.push_back(FieldValue(largest[k].second));
            } else {
                values.push_back(FieldValue(none));
                values.push_back(FieldValue(0));
            }
        }
        bool interval = census.end && !census.biographical && *census.end >= census.time;
        MarkerTiming timing = interval ? MarkerTiming::interval(at, ProfileContext::at(*census.end))
                                       : MarkerTiming::instant(at);
        p.add_marker(context.process_track, timing, census.biographical ? bio_name : census_name,
                     context.categories.memory, census_schema, values);
    }

    ExtraSectionHandle s = p.add_extra_section(context.section_label("Heap profile"));
    p.add_extra_entry(s, "Breakdown", ExtraValue::text(std::string(how.flag) + ", by " + std::string(how.by)));
    if (info.sampling_period_ns)
        p.add_extra_entry(s, "Census interval",
                          ExtraValue::duration(Duration::from_nanos(static_cast<std::int64_t>(info.sampling_period_ns))));
    for (const auto& [what, filter] : info.filters) p.add_extra_entry(s, "Only " + std::string(what), ExtraValue::text(filter));
    p.add_extra_entry(s, "Censuses", ExtraValue::integer(static_cast<std::int64_t>(heap_.censuses().size())));
    p.add_extra_entry(s, "Bands", ExtraValue::integer(static_cast<std::int64_t>(nonzero)));
    p.add_extra_entry(s, "Bands with a counter track",
                      ExtraValue::text(std::to_string(top.size()) +
                                       (other ? " (the rest in \"Heap: other\"; --heap-bands N shows more)" : "")));
    if (info_tables_.size())
        p.add_extra_entry(s, "Info tables with provenance (IPE)", ExtraValue::integer(static_cast<std::int64_t>(info_tables_.size())));
    if (heap_.stray_samples())
        p.add_extra_entry(s, "Samples outside a census (not shown)",
                          ExtraValue::integer(static_cast<std::int64_t>(heap_.stray_samples())));
}

std::span<const std::uint16_t> HeapProfileContributor::shown_tags() const { return kShownTags; }

}  // namespace el2fx::convert
