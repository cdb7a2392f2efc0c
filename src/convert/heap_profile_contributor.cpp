#include "convert/heap_profile_contributor.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <array>
#include <string>
#include <vector>

#include "analysis/ghc_profiling/band_names.hpp"
#include "analysis/ghc_profiling/heap_chart.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

constexpr std::array<std::uint16_t, 8> kShownTags = {
    eventlog::HeapProfBegin::tag,          eventlog::HeapProfCostCentre::tag,
    eventlog::HeapProfSampleBegin::tag,    eventlog::HeapProfSampleCostCentre::tag,
    eventlog::HeapProfSampleString::tag,   eventlog::HeapProfSampleEnd::tag,
    eventlog::HeapBioProfSampleBegin::tag, eventlog::InfoProv::tag};

// The chart's colours, band 1 (the bottom of the stack) first; "other" is grey. Bands past the
// ninth reuse them.
constexpr std::array<GraphColor, 9> kBandColors = {GraphColor::blue,   GraphColor::orange, GraphColor::green,
                                                   GraphColor::purple, GraphColor::teal,   GraphColor::magenta,
                                                   GraphColor::red,    GraphColor::yellow, GraphColor::ink};

GraphColor band_color(std::size_t column) { return kBandColors[column % kBandColors.size()]; }

// "3.10 MB", as the profiler writes bytes (powers of 1000).
std::string human_bytes(std::uint64_t n) {
    static constexpr const char* kUnits[] = {"B", "kB", "MB", "GB", "TB"};
    double v = static_cast<double>(n);
    std::size_t u = 0;
    while (v >= 1000 && u + 1 < std::size(kUnits)) v /= 1000, ++u;
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", v, kUnits[u]);
    return buf;
}

// A census: its total and its largest bands (fewer when it has fewer).
struct HeapCensusMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "HeapCensus",
        .display = kChartDisplay,
        .tooltip_label = "Heap census: {marker.data.total}",
        .table_label = "{marker.data.total}: {marker.data.band1} {marker.data.band1Bytes}",
        .chart_label = "{marker.data.band1}",
        .description = "A heap-profile census: residency by band, largest first."};
    static constexpr std::array kFields{StaticField{"breakdown", "Breakdown", FieldFormat::string},
                                        StaticField{"total", "Total residency", FieldFormat::bytes},
                                        StaticField{"bands", "Bands", FieldFormat::integer},
                                        StaticField{"band1", "Band 1", FieldFormat::string},
                                        StaticField{"band1Bytes", "Band 1 residency", FieldFormat::bytes},
                                        StaticField{"band2", "Band 2", FieldFormat::string},
                                        StaticField{"band2Bytes", "Band 2 residency", FieldFormat::bytes},
                                        StaticField{"band3", "Band 3", FieldFormat::string},
                                        StaticField{"band3Bytes", "Band 3 residency", FieldFormat::bytes},
                                        StaticField{"band4", "Band 4", FieldFormat::string},
                                        StaticField{"band4Bytes", "Band 4 residency", FieldFormat::bytes},
                                        StaticField{"band5", "Band 5", FieldFormat::string},
                                        StaticField{"band5Bytes", "Band 5 residency", FieldFormat::bytes}};
    struct Band {
        std::optional<StringHandle> name;
        std::optional<std::uint64_t> bytes;
    };
    static_assert(HeapProfileContributor::kMarkerBands == 5, "kFields lists five bands");
    StringHandle breakdown;
    std::uint64_t total;
    std::size_t bands;
    std::array<Band, 5> largest{};
    auto field_values() const {
        return std::tuple{breakdown,
                          total,
                          bands,
                          largest[0].name,
                          largest[0].bytes,
                          largest[1].name,
                          largest[1].bytes,
                          largest[2].name,
                          largest[2].bytes,
                          largest[3].name,
                          largest[3].bytes,
                          largest[4].name,
                          largest[4].bytes};
    }
};

// The chart's marker type. Fields: the total, each chart band's own residency labelled with
// its full name and colour (tooltip and sidebar), "other", and hidden cumulative levels that
// the graphs draw. The track draws bars from zero, overlaid in the order given, on one scale:
// the highest level first (the total) and band 1's last, so each band shows as the strip
// between its level and the one below it, like hp2ps.
MarkerSchema chart_schema(const std::string& type, const std::vector<std::string>& names, std::size_t other_bands) {
    MarkerSchema schema{.name = type,
                        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table},
                        .fields = {{"total", "Total residency", FieldFormat::bytes}},
                        .tooltip_label = "{marker.name}: {marker.data.total}",
                        .table_label = "{marker.data.total}",
                        .chart_label = "{marker.data.total}",
                        .description =
                            "Residency by band at each census, stacked on one scale (like hp2ps): "
                            "the band with the most residency over the run at the bottom, "
                            "the smaller ones above it, the rest added up as \"other\" on top. "
                            "Each census holds until the next one."};
    for (std::size_t i = 0; i < names.size(); ++i)
        schema.fields.push_back({"b" + std::to_string(i + 1),
                                 "[" + std::string(v70::spelling(band_color(i))) + "] " + names[i],
                                 FieldFormat::bytes});
    if (other_bands)
        schema.fields.push_back(
            {"other", "[grey] other (" + std::to_string(other_bands) + " smaller bands)", FieldFormat::bytes});
    const std::size_t columns = names.size() + (other_bands ? 1 : 0);
    for (std::size_t i = 0; i < columns; ++i)
        schema.fields.push_back({"c" + std::to_string(i + 1), "", FieldFormat::bytes, true});
    for (std::size_t i = columns; i-- > 0;)
        schema.graphs.push_back(
            {"c" + std::to_string(i + 1), MarkerGraphType::bar, i < names.size() ? band_color(i) : GraphColor::grey});
    return schema;
}

void add_chart(ProfileContext& context, const profiling::HeapChart& chart, const std::vector<std::string>& names,
               const std::string& breakdown) {
    if (chart.rows.empty()) return;
    Profile& p = context.profile;
    // One type per run: its field labels are this run's band names.
    std::string type = "HeapBands" + (context.run_index ? "-" + std::to_string(context.run_index + 1) : "");
    MarkerSchemaHandle schema = p.register_marker_schema(chart_schema(type, names, chart.other_bands));
    StringHandle name = p.handle_for_string("Heap profile (" + breakdown + ")");
    const std::size_t columns = names.size() + (chart.other_bands ? 1 : 0);
    std::vector<FieldValue> values;
    for (const profiling::HeapChartRow& row : chart.rows) {
        values.clear();
        values.emplace_back(row.total);
        for (std::size_t i = 0; i < columns; ++i) values.emplace_back(row.levels[i]);
        for (std::size_t i = 0; i < columns; ++i) values.emplace_back(row.cumulative[i]);
        MarkerTiming timing = row.end > row.start
                                  ? MarkerTiming::interval(ProfileContext::at(row.start), ProfileContext::at(row.end))
                                  : MarkerTiming::instant(ProfileContext::at(row.start));
        p.add_marker(context.process_track, timing, name, context.categories.memory, schema, values);
    }
}

}  // namespace

void HeapProfileContributor::handle(const eventlog::Event& event) {
    cost_centres_.handle(event);
    info_tables_.handle(event);
    heap_.handle(event);
}

pass::Interests HeapProfileContributor::interests() const {
    pass::Interests i = profiling::HeapProfile::interests();
    i |= profiling::CostCentreTable::interests();
    i |= profiling::InfoTableCatalog::interests();
    return i;
}

void HeapProfileContributor::contribute(ProfileContext& context, std::uint64_t run_end) {
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

    // The band chart: one marker per census on the process track, its bands stacked on one
    // scale (a marker-graph track, drawn after the capability and thread tracks).
    const profiling::HeapChart chart = profiling::make_heap_chart(heap_, band_limit_, run_end);
    const std::size_t shown = chart.bands.size();
    const bool with_other = chart.other_bands > 0;
    std::vector<std::string> names;
    for (std::uint32_t band : chart.bands) names.push_back(name_of(band));
    add_chart(context, chart, names, std::string(how.flag) + ", by " + std::string(how.by));

    // Census markers on the process track.
    StringHandle census_name = p.handle_for_string("Heap census");
    StringHandle bio_name = p.handle_for_string("Heap census (biographical)");
    StringHandle breakdown = p.handle_for_string(std::string(how.flag) + ", by " + std::string(how.by));

    for (const profiling::HeapCensus& census : heap_.censuses()) {
        Timestamp at = ProfileContext::at(census.time);
        std::vector<std::pair<std::uint32_t, std::uint64_t>> largest = census.bands;
        std::stable_sort(largest.begin(), largest.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
        HeapCensusMarker marker{.breakdown = breakdown, .total = census.total, .bands = census.bands.size()};
        for (std::size_t k = 0; k < std::min(largest.size(), kMarkerBands); ++k) {
            StringHandle band = p.handle_for_string(name_of(largest[k].first));
            marker.largest[k] = {band, largest[k].second};
        }
        bool interval = census.end && !census.biographical && *census.end >= census.time;
        MarkerTiming timing =
            interval ? MarkerTiming::interval(at, ProfileContext::at(*census.end)) : MarkerTiming::instant(at);
        p.add_marker(context.process_track, timing, census.biographical ? bio_name : census_name,
                     context.categories.memory, marker);
    }

    ExtraSectionHandle s = p.add_extra_section(context.section_label("Heap profile"));
    p.add_extra_entry(s, "Breakdown", ExtraValue::text(std::string(how.flag) + ", by " + std::string(how.by)));
    if (info.sampling_period_ns)
        p.add_extra_entry(
            s, "Census interval",
            ExtraValue::duration(Duration::from_nanos(static_cast<std::int64_t>(info.sampling_period_ns))));
    for (const auto& [what, filter] : info.filters)
        p.add_extra_entry(s, "Only " + std::string(what), ExtraValue::text(filter));
    p.add_extra_entry(s, "Censuses", ExtraValue::integer(static_cast<std::int64_t>(heap_.censuses().size())));
    p.add_extra_entry(s, "Bands", ExtraValue::integer(static_cast<std::int64_t>(shown + chart.other_bands)));
    p.add_extra_entry(
        s, "Bands in the chart",
        ExtraValue::text(std::to_string(shown) +
                         (with_other ? " (the rest added up as \"other\"; --heap-bands N shows more)" : "")));
    // Per chart band, bottom up: its colour, what it is (cost centre, info table) and its peak.
    for (std::size_t i = 0; i < shown; ++i)
        p.add_extra_entry(s, "[" + std::string(v70::spelling(band_color(i))) + "] band " + std::to_string(i + 1),
                          ExtraValue::text(profiling::band_description(bands[chart.bands[i]], info.breakdown,
                                                                       cost_centres_, info_tables_) +
                                           "; peak " + human_bytes(chart.peaks[i])));
    if (with_other)
        p.add_extra_entry(s, "[grey] other",
                          ExtraValue::text(std::to_string(chart.other_bands) + " smaller bands added up; peak " +
                                           human_bytes(chart.peaks[shown])));
    if (info_tables_.size())
        p.add_extra_entry(s, "Info tables with provenance (IPE)",
                          ExtraValue::integer(static_cast<std::int64_t>(info_tables_.size())));
    if (heap_.stray_samples())
        p.add_extra_entry(s, "Samples outside a census (not shown)",
                          ExtraValue::integer(static_cast<std::int64_t>(heap_.stray_samples())));
}

std::span<const std::uint16_t> HeapProfileContributor::shown_tags() const { return kShownTags; }

}  // namespace el2fx::convert
