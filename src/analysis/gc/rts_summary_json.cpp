#include "analysis/gc/rts_summary_json.hpp"

#include <cmath>

#include "analysis/gc/json.hpp"

namespace el2fx::gc {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void key(Writer& w, const char* k) { w.Key(k); }

void string(Writer& w, const std::string& s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); }

void number(Writer& w, std::uint64_t v) { w.Uint64(v); }
void number(Writer& w, double v) {
    if (std::isfinite(v)) {
        w.Double(v);
    } else {
        w.Null();
    }
}

template <typename T>
void figure(Writer& w, const char* name, const Figure<T>& f) {
    key(w, name);
    w.StartObject();
    key(w, "value");
    if (f.value) {
        number(w, *f.value);
    } else {
        w.Null();
    }
    key(w, "accuracy");
    w.String(accuracy_name(f.accuracy));
    if (!f.note.empty()) {
        key(w, "note");
        string(w, f.note);
    }
    w.EndObject();
}

void accuracy_and_note(Writer& w, Accuracy a, const std::string& note) {
    key(w, "accuracy");
    w.String(accuracy_name(a));
    if (!note.empty()) {
        key(w, "note");
        string(w, note);
    }
}

}  // namespace

std::string render_summary_json(const RtsSummary& s, const std::string& input_name) {
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.SetIndent(' ', 2);
    w.StartObject();
    key(w, "input");
    string(w, input_name);
    key(w, "rts");
    if (s.rts_identifier.empty()) {
        w.Null();
    } else {
        string(w, s.rts_identifier);
    }
    key(w, "threaded");
    if (s.threaded) {
        w.Bool(*s.threaded);
    } else {
        w.Null();
    }
    key(w, "generations");
    if (s.generations) {
        w.Uint(*s.generations);
    } else {
        w.Null();
    }
    key(w, "truncated");
    w.Bool(s.truncated);
    key(w, "collections");
    number(w, s.collections);
    key(w, "first_event_ns");
    number(w, s.first_time);
    key(w, "last_event_ns");
    number(w, s.last_time);

    figure(w, "bytes_allocated", s.bytes_allocated);
    figure(w, "bytes_copied", s.bytes_copied);
    figure(w, "max_residency_bytes", s.max_residency);
    key(w, "residency_samples");
    number(w, s.residency_samples);
    figure(w, "max_slop_bytes", s.max_slop);
    figure(w, "memory_in_use_bytes", s.memory_in_use);
    figure(w, "fragmentation_bytes", s.fragmentation);
    figure(w, "max_fragmentation_at_gc_bytes", s.max_fragmentation_at_gc);

    key(w, "generations_table");
    w.StartObject();
    key(w, "rows");
    if (s.generations_table.value) {
        w.StartArray();
        for (const GenerationFigures& g : *s.generations_table.value) {
            w.StartObject();
            key(w, "gen");
            w.Uint(g.gen);
            key(w, "collections");
            number(w, g.collections);
            key(w, "par_collections");
            number(w, g.par_collections);
            key(w, "elapsed_ns");
            number(w, g.elapsed_ns);
            key(w, "avg_pause_ns");
            number(w, g.avg_pause_ns());
            key(w, "max_pause_ns");
            number(w, g.max_pause_ns);
            key(w, "timed_collections");
            number(w, g.timed);
            key(w, "max_live_bytes");
            number(w, g.max_live);
            key(w, "live_samples");
            number(w, g.live_samples);
            key(w, "max_slop_bytes");
            number(w, g.max_slop);
            key(w, "seed");
            w.StartObject();
            key(w, "elapsed_ns");
            number(w, g.seed_elapsed_ns);
            key(w, "avg_pause_ns");
            number(w, g.seed_avg_pause_ns());
            key(w, "max_pause_ns");
            number(w, g.seed_max_pause_ns);
            key(w, "longest_capability_pause_ns");
            number(w, g.longest_cap_pause_ns);
            w.EndObject();
            w.EndObject();
        }
        w.EndArray();
    } else {
        w.Null();
    }
    accuracy_and_note(w, s.generations_table.accuracy, s.generations_table.note);
    w.EndObject();

    figure(w, "work_balance", s.work_balance);

    key(w, "sparks");
    w.StartObject();
    key(w, "value");
    if (s.sparks.value) {
        const SparkFigures& f = *s.sparks.value;
        w.StartObject();
        key(w, "total");
        number(w, f.total());
        key(w, "created");
        number(w, f.created);
        key(w, "converted");
        number(w, f.converted);
        key(w, "overflowed");
        number(w, f.overflowed);
        key(w, "dud");
        number(w, f.dud);
        key(w, "gcd");
        number(w, f.gcd);
        key(w, "fizzled");
        number(w, f.fizzled);
        w.EndObject();
    } else {
        w.Null();
    }
    accuracy_and_note(w, s.sparks.accuracy, s.sparks.note);
    w.EndObject();

    figure(w, "init_elapsed_ns", s.init_elapsed);
    figure(w, "mut_elapsed_ns", s.mut_elapsed);
    figure(w, "gc_elapsed_ns", s.gc_elapsed);
    if (s.has_censuses) figure(w, "prof_elapsed_ns", s.prof_elapsed);
    figure(w, "exit_elapsed_ns", s.exit_elapsed);
    figure(w, "total_elapsed_ns", s.total_elapsed);
    figure(w, "alloc_rate_bytes_per_mut_second", s.alloc_rate);
    figure(w, "productivity_elapsed", s.productivity);
    figure(w, "gc_share_elapsed", s.gc_share);

    key(w, "seed");
    w.StartObject();
    figure(w, "gc_elapsed_ns", s.seed_gc_elapsed);
    figure(w, "mut_elapsed_ns", s.seed_mut_elapsed);
    figure(w, "productivity", s.seed_productivity);
    figure(w, "max_pause_ns", s.seed_max_pause);
    key(w, "gc_sync");
    w.StartObject();
    key(w, "requests");
    number(w, s.gc_sync_count);
    key(w, "total_ns");
    number(w, s.gc_sync_total_ns);
    key(w, "max_ns");
    number(w, s.gc_sync_max_ns);
    w.EndObject();
    key(w, "capabilities");
    w.StartArray();
    for (const CapabilityGcFigures& c : s.capabilities) {
        w.StartObject();
        key(w, "cap");
        w.Uint(c.cap);
        key(w, "collections");
        number(w, c.collections);
        key(w, "gc_ns");
        number(w, c.gc_ns);
        key(w, "work_ns");
        number(w, c.work_ns);
        key(w, "idle_ns");
        number(w, c.idle_ns);
        key(w, "done_ns");
        number(w, c.done_ns);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();

    key(w, "anomalies");
    w.StartObject();
    const GcTrackerAnomalies& a = s.anomalies;
    key(w, "start_while_in_gc");
    number(w, a.start_while_in_gc);
    key(w, "end_without_start");
    number(w, a.end_without_start);
    key(w, "phase_outside_gc");
    number(w, a.phase_outside_gc);
    key(w, "missing_end");
    number(w, a.missing_end);
    key(w, "extra_request");
    number(w, a.extra_request);
    key(w, "sync_without_start");
    number(w, a.sync_without_start);
    key(w, "stats_without_sync");
    number(w, a.stats_without_sync);
    key(w, "unsynced_collections");
    number(w, a.unsynced_collections);
    w.EndObject();

    w.EndObject();
    std::string out(buffer.GetString(), buffer.GetSize());
    out += '\n';
    return out;
}

}  // namespace el2fx::gc
