#include "fxprof/profile_json_writer.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof::detail {

void ProfileWriter::write_thread(std::uint32_t h) {
    const Thread& t = p_.threads()[h];
    const Process& proc = p_.processes()[t.process.index()];
    j_.begin_object();
    string_field(key::name, t.name);
    string_field(key::processName, proc.name);
    string_field(key::processType, v70::kProcessType);
    j_.key(key::processStartupTime);
    j_.ms_from_ns(proc.start.nanos());
    j_.key(key::processShutdownTime);
    if (proc.end)
        j_.ms_from_ns(proc.end->nanos());
    else
        j_.null();
    j_.key(key::registerTime);
    j_.ms_from_ns(t.register_time.nanos());
    j_.key(key::unregisterTime);
    if (t.unregister_time)
        j_.ms_from_ns(t.unregister_time->nanos());
    else
        j_.null();
    j_.key(key::pausedRanges);
    j_.begin_array();
    j_.end_array();
    j_.key(key::isMainThread);
    j_.boolean(t.is_main);
    j_.key(key::showMarkersInTimeline);
    j_.boolean(t.show_markers_in_timeline);
    string_field(key::pid, proc.pid);
    j_.key(key::tid);
    j_.int64(t.tid);
    j_.key(key::samples);
    part(DocumentPart::Value::samples, h);
    j_.key(key::markers);
    part(DocumentPart::Value::markers, h);
    j_.end_object();
}

void ProfileWriter::write_samples(const Thread& t) {
    const SampleTable& s = t.samples;
    const std::size_t n = s.size();
    const bool keep = n <= KeptRows::kMax;
    KeptRows& kept = *kept_;
    kept.samples.clear();
    // Each further column from the rows kept, or from the table again.
    const auto samples_column = [&](std::string_view k, auto&& f) {
        if (keep)
            kept_column(k, kept.samples, f);
        else
            rows_column(k, s, f);
    };

    j_.begin_object();
    rows_column(key::stack, s, [&](const SampleRow& r) {
        if (keep) kept.samples.push_back(r);
        if (r.stack == SampleTable::kNoStack)
            j_.null();
        else
            j_.int64(r.stack);
    });
    std::int64_t previous = 0;
    samples_column(key::timeDeltas, [&](const SampleRow& r) {
        j_.ms_from_ns(r.time - previous);
        previous = r.time;
    });
    if (t.weight_type == WeightType::samples && s.all_weights_one()) {
        j_.key(key::weight);
        j_.null();
    } else {
        samples_column(key::weight, [&](const SampleRow& r) {
            if (t.weight_type == WeightType::tracing_ms)
                j_.ms_from_ns(r.weight);
            else
                j_.int64(r.weight);
        });
    }
    string_field(key::weightType, v70::spelling(t.weight_type));
    if (s.has_cpu_delta()) {
        samples_column(key::threadCPUDelta, [&](const SampleRow& r) {
            if (r.cpu_delta == SampleTable::kNoCpuDelta)
                j_.null();
            else
                j_.int64(r.cpu_delta);
        });
    }
    length(n);
    j_.end_object();
}

void ProfileWriter::write_field_value(const MarkerField& f, const FieldValue& v) {
    switch (v70::kind_of(f.format)) {
        case v70::FieldKind::json_string: j_.flat_string(p_.strings().get(v.string())); return;
        case v70::FieldKind::string_index: j_.flat_uint64(v.string().index()); return;
        case v70::FieldKind::number:
            switch (v.type()) {
                case FieldValue::Type::integer: j_.flat_int64(v.integer()); return;
                case FieldValue::Type::real: j_.flat_number(v.real()); return;
                case FieldValue::Type::duration:
                case FieldValue::Type::timestamp: j_.flat_scaled(v.integer(), duration_scale(f.format)); return;
                case FieldValue::Type::string:
                case FieldValue::Type::absent: break;
            }
            break;
    }
    throw Error("JSON writer: marker field value does not match its schema");
}

void ProfileWriter::write_markers(const Thread& t) {
    const MarkerTable& m = t.markers;
    const auto& schemas = p_.marker_schemas();
    const bool keep = m.size() <= KeptRows::kMax;
    KeptRows& kept = *kept_;
    kept.markers.clear();
    // Each further column from the markers kept, or from the table again (without values).
    const auto markers_column = [&](std::string_view k, auto&& f) {
        if (keep)
            kept_column(k, kept.markers, f);
        else
            marker_column(k, m,
                          [&](const MarkerRow& r) { f(KeptRows::Marker{r.start, r.end, r.name, r.category, r.phase}); });
    };
    j_.begin_object();
    rows_column(key::data, m, [&](const MarkerRow& r) {
        if (keep) kept.markers.push_back(KeptRows::Marker{r.start, r.end, r.name, r.category, r.phase});
        if (r.schema == MarkerTable::kNoSchema) {
            j_.null();
            return;
        }
        const MarkerSchema& s = schemas[r.schema];
        const WriterTables::EncodedSchema& e = tables_.schemas[r.schema];
        if (r.values.size() != s.fields.size()) throw Error("JSON writer: a marker's values do not match its schema");
        j_.begin_flat_object();
        j_.flat_key(tables_.type_key);
        j_.flat_encoded_string(e.name);
        for (std::size_t i = 0; i < s.fields.size(); ++i) {
            // No value: no key (the profiler's tooltip, sidebar and search skip it).
            if (r.values[i].type() == FieldValue::Type::absent) continue;
            j_.flat_key(e.keys[i]);
            write_field_value(s.fields[i], r.values[i]);
        }
        j_.end_flat_object();
    });
    markers_column(key::name, [&](const KeptRows::Marker& r) { j_.uint64(r.name); });
    markers_column(key::startTime, [&](const KeptRows::Marker& r) {
        if (r.phase == MarkerPhase::interval_end)
            j_.null();
        else
            j_.ms_from_ns(r.start);
    });
    markers_column(key::endTime, [&](const KeptRows::Marker& r) {
        if (r.phase == MarkerPhase::interval || r.phase == MarkerPhase::interval_end)
            j_.ms_from_ns(r.end);
        else
            j_.null();
    });
    markers_column(key::phase, [&](const KeptRows::Marker& r) { j_.uint64(static_cast<unsigned>(r.phase)); });
    markers_column(key::category, [&](const KeptRows::Marker& r) { j_.uint64(r.category); });
    length(m.size());
    j_.end_object();
}

}  // namespace el2fx::fxprof::detail
