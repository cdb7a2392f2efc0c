#include "fxprof/profile_json_writer.hpp"

#include <variant>

#include "util/error.hpp"

namespace el2fx::fxprof::detail {

void ProfileWriter::write_meta() {
    const MetaInfo& m = p_.meta();
    const auto [start, end] = p_.profiling_range();
    j_.key(key::meta);
    j_.begin_object();
    j_.key(key::interval);
    j_.ms_from_ns(m.interval.nanos());
    j_.key(key::startTime);
    j_.ms_from_ns(m.start_time.unix_nanos());
    j_.key(key::endTime);
    j_.ms_from_ns(m.start_time.unix_nanos() + end.nanos());
    j_.key(key::profilingStartTime);
    j_.ms_from_ns(start.nanos());
    j_.key(key::profilingEndTime);
    j_.ms_from_ns(end.nanos());
    j_.key(key::processType);
    j_.int64(0);
    string_field(key::product, m.product);
    j_.key(key::stackwalk);
    j_.int64(0);
    j_.key(key::version);
    j_.int64(v70::kGeckoMetaVersion);
    j_.key(key::preprocessedProfileVersion);
    j_.int64(v70::kPreprocessedProfileVersion);
    j_.key(key::symbolicated);
    j_.boolean(true);
    j_.key(key::usesOnlyOneStackType);
    j_.boolean(true);
    j_.key(key::sourceCodeIsNotOnSearchfox);
    j_.boolean(true);
    j_.key(key::keepProfileThreadOrder);
    j_.boolean(m.keep_profile_thread_order);
    if (!m.imported_from.empty()) string_field(key::importedFrom, m.imported_from);
    if (!m.update_channel.empty()) string_field(key::updateChannel, m.update_channel);
    if (!m.arguments.empty()) string_field(key::arguments, m.arguments);
    if (!m.platform.empty()) string_field(key::platform, m.platform);
    if (!m.oscpu.empty()) string_field(key::oscpu, m.oscpu);
    if (!m.cpu_name.empty()) string_field(key::CPUName, m.cpu_name);
    if (m.logical_cpus) {
        j_.key(key::logicalCPUs);
        j_.uint64(*m.logical_cpus);
    }
    if (m.physical_cpus) {
        j_.key(key::physicalCPUs);
        j_.uint64(*m.physical_cpus);
    }
    if (!m.initial_visible_threads.empty())
        column(key::initialVisibleThreads, m.initial_visible_threads.size(),
               [&](std::size_t i) { j_.uint64(position(m.initial_visible_threads[i])); });
    if (!m.initial_selected_threads.empty())
        column(key::initialSelectedThreads, m.initial_selected_threads.size(),
               [&](std::size_t i) { j_.uint64(position(m.initial_selected_threads[i])); });

    j_.key(key::categories);
    j_.begin_array();
    for (const Category& c : p_.categories().categories()) {
        j_.begin_object();
        string_field(key::name, c.name);
        string_field(key::color, v70::spelling(c.color));
        column(key::subcategories, c.subcategories.size(), [&](std::size_t i) { j_.string(c.subcategories[i]); });
        j_.end_object();
    }
    j_.end_array();

    j_.key(key::sampleUnits);
    j_.begin_object();
    string_field(key::time, v70::kSampleUnitTime);
    string_field(key::eventDelay, v70::kSampleUnitEventDelay);
    string_field(key::threadCPUDelta, v70::kSampleUnitThreadCPUDeltaNs);
    j_.end_object();

    j_.key(key::markerSchema);
    j_.begin_array();
    for (const MarkerSchema& s : p_.marker_schemas()) write_schema(s);
    j_.end_array();

    if (!m.extra.empty()) {
        j_.key(key::extra);
        j_.begin_array();
        for (const ExtraSection& s : m.extra) write_extra(s);
        j_.end_array();
    }
    j_.end_object();
}

void ProfileWriter::write_schema(const MarkerSchema& s) {
    j_.begin_object();
    string_field(key::name, s.name);
    column(key::display, s.display.size(), [&](std::size_t i) { j_.string(v70::spelling(s.display[i])); });
    j_.key(key::fields);
    j_.begin_array();
    for (const MarkerField& f : s.fields) {
        j_.begin_object();
        string_field(key::key, f.key);
        if (!f.label.empty()) string_field(key::label, f.label);
        string_field(key::format, v70::spelling(f.format));
        if (f.hidden) {
            j_.key(key::hidden);
            j_.boolean(true);
        }
        j_.end_object();
    }
    j_.end_array();
    if (!s.tooltip_label.empty()) string_field(key::tooltipLabel, s.tooltip_label);
    if (!s.table_label.empty()) string_field(key::tableLabel, s.table_label);
    if (!s.chart_label.empty()) string_field(key::chartLabel, s.chart_label);
    if (!s.description.empty()) string_field(key::description, s.description);
    if (!s.graphs.empty()) {
        j_.key(key::graphs);
        j_.begin_array();
        for (const MarkerGraph& g : s.graphs) {
            j_.begin_object();
            string_field(key::key, g.key);
            string_field(key::type, v70::spelling(g.type));
            if (g.color) string_field(key::color, v70::spelling(*g.color));
            j_.end_object();
        }
        j_.end_array();
    }
    if (!s.color_field.empty()) string_field(key::colorField, s.color_field);
    if (s.is_stack_based) {
        j_.key(key::isStackBased);
        j_.boolean(true);
    }
    j_.end_object();
}

void ProfileWriter::write_extra(const ExtraSection& s) {
    j_.begin_object();
    string_field(key::label, s.label);
    j_.key(key::entries);
    j_.begin_array();
    for (const ExtraEntry& e : s.entries) {
        j_.begin_object();
        string_field(key::label, e.label);
        string_field(key::format, v70::spelling(e.value.format()));
        j_.key(key::value);
        std::visit(
            [&](const auto& v) {
                using V = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<V, std::string>)
                    j_.string(v);
                else if constexpr (std::is_same_v<V, std::int64_t>)
                    j_.int64(v);
                else if constexpr (std::is_same_v<V, double>)
                    j_.number(v);
                else
                    j_.ms_from_ns(v.nanos());
            },
            e.value.value());
        j_.end_object();
    }
    j_.end_array();
    j_.end_object();
}

// ---- shared -----------------------------------------------------------------------------

}  // namespace el2fx::fxprof::detail
