#include "convert/rts_summary_panel.hpp"

#include <cstdio>
#include <string>

#include "analysis/gc/rts_summary_text.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using gc::Accuracy;
using gc::Figure;

Duration ns(std::uint64_t v) { return Duration::from_nanos(static_cast<std::int64_t>(v)); }
Duration ns(double v) { return Duration::from_nanos(static_cast<std::int64_t>(v + 0.5)); }

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
std::string secs(double nanos) { return fmt("%.3f s", nanos / 1e9); }
std::string pause_text(double nanos) { return fmt("%.4f s", nanos / 1e9); }

std::string accuracy_suffix(Accuracy a) {
    switch (a) {
        case Accuracy::estimate: return " (estimate)";
        case Accuracy::lower_bound: return " (at least)";
        default: return "";
    }
}

class RtsSummaryPanel {
public:
    explicit RtsSummaryPanel(Profile& p) : p_(p) {}

    // Exact to the byte: as text, since the panel would round a "bytes" value to three digits.
    void bytes_entry(ExtraSectionHandle s, const std::string& label, const Figure<std::uint64_t>& f) {
        if (f.value) {
            p_.add_extra_entry(s, label + accuracy_suffix(f.accuracy),
                               ExtraValue::text(gc::with_commas(*f.value) + " bytes"));
        } else {
            p_.add_extra_entry(s, label, ExtraValue::text("unknown: " + f.note));
        }
    }
    void duration_entry(ExtraSectionHandle s, const std::string& label, const Figure<std::uint64_t>& f) {
        if (f.value) {
            p_.add_extra_entry(s, label + accuracy_suffix(f.accuracy), ExtraValue::duration(ns(*f.value)));
        } else {
            p_.add_extra_entry(s, label, ExtraValue::text("unknown: " + f.note));
        }
    }
    // As text with the runtime's decimals; the panel would round a percentage to whole ones.
    void percentage_entry(ExtraSectionHandle s, const std::string& label, const Figure<double>& f, const char* format) {
        if (f.value) {
            p_.add_extra_entry(s, label + accuracy_suffix(f.accuracy), ExtraValue::text(fmt(format, *f.value * 100)));
        } else {
            p_.add_extra_entry(s, label, ExtraValue::text("unknown: " + f.note));
        }
    }

    void add_summary(const gc::RtsSummary& m) {
        ExtraSectionHandle s = p_.add_extra_section("GC and heap: +RTS -s, from the events");
        bytes_entry(s, "Bytes allocated in the heap", m.bytes_allocated);
        bytes_entry(s, "Bytes copied during GC", m.bytes_copied);
        bytes_entry(s, "Maximum residency", m.max_residency);
        if (m.max_residency.value)
            p_.add_extra_entry(s, "Residency samples (major GCs)",
                               ExtraValue::integer(static_cast<std::int64_t>(m.residency_samples)));
        bytes_entry(s, "Maximum slop", m.max_slop);
        if (m.memory_in_use.value) {
            p_.add_extra_entry(s, "Total memory in use" + accuracy_suffix(m.memory_in_use.accuracy),
                               ExtraValue::text(std::to_string(*m.memory_in_use.value / (1024 * 1024)) + " MiB (" +
                                                gc::with_commas(*m.memory_in_use.value) + " bytes)"));
        } else {
            bytes_entry(s, "Total memory in use", m.memory_in_use);
        }
        bytes_entry(s, "Lost to fragmentation", m.fragmentation);
        if (m.generations_table.value) {
            for (const gc::GenerationFigures& g : *m.generations_table.value) {
                std::string text =
                    std::to_string(g.collections) + " collections (" + std::to_string(g.par_collections) +
                    " parallel), " + secs(static_cast<double>(g.elapsed_ns)) + " elapsed, average pause " +
                    pause_text(g.avg_pause_ns()) + ", longest " + pause_text(static_cast<double>(g.max_pause_ns));
                p_.add_extra_entry(s, "Gen " + std::to_string(g.gen) + accuracy_suffix(m.generations_table.accuracy),
                                   ExtraValue::text(text));
            }
        } else {
            p_.add_extra_entry(s, "Collections by generation",
                               ExtraValue::text("unknown: " + m.generations_table.note));
        }
        if (m.work_balance.value || m.threaded != false)
            percentage_entry(s, "Parallel GC work balance", m.work_balance, "%.2f%% (serial 0%%, perfect 100%%)");
        if (m.sparks.value) {
            const gc::SparkFigures& f = *m.sparks.value;
            p_.add_extra_entry(
                s, "Sparks" + accuracy_suffix(m.sparks.accuracy),
                ExtraValue::text(std::to_string(f.total()) + " (" + std::to_string(f.converted) + " converted, " +
                                 std::to_string(f.overflowed) + " overflowed, " + std::to_string(f.dud) + " dud, " +
                                 std::to_string(f.gcd) + " GC'd, " + std::to_string(f.fizzled) + " fizzled)"));
        } else {
            p_.add_extra_entry(s, "Sparks", ExtraValue::text("unknown: " + m.sparks.note));
        }
        duration_entry(s, "INIT time (elapsed)", m.init_elapsed);
        duration_entry(s, "MUT time (elapsed)", m.mut_elapsed);
        duration_entry(s, "GC time (elapsed)", m.gc_elapsed);
        if (m.has_censuses) duration_entry(s, "PROF time: heap censuses (elapsed)", m.prof_elapsed);
        duration_entry(s, "EXIT time (elapsed)", m.exit_elapsed);
        duration_entry(s, "Total time (elapsed)", m.total_elapsed);
        if (m.alloc_rate.value) {
            p_.add_extra_entry(
                s, "Alloc rate" + accuracy_suffix(m.alloc_rate.accuracy),
                ExtraValue::text(gc::rounded_with_commas(*m.alloc_rate.value) + " bytes per MUT second (elapsed)"));
        } else {
            p_.add_extra_entry(s, "Alloc rate", ExtraValue::text("unknown: " + m.alloc_rate.note));
        }
        percentage_entry(s, "Productivity (elapsed)", m.productivity, "%.1f%% of the total elapsed time");
        p_.add_extra_entry(
            s, "How these were derived",
            ExtraValue::text("`eventlog2fxprof summary` prints them in the runtime's layout, with a note "
                             "for each estimate"));

        ExtraSectionHandle seed = p_.add_extra_section("GC per capability: the seed's conventions");
        if (m.seed_gc_elapsed.value)
            p_.add_extra_entry(seed, "GC time (average over the capabilities in each GC)",
                               ExtraValue::duration(ns(*m.seed_gc_elapsed.value)));
        if (m.seed_mut_elapsed.value)
            p_.add_extra_entry(seed, "MUT time (the eventlog's span less GC)",
                               ExtraValue::duration(ns(*m.seed_mut_elapsed.value)));
        if (m.seed_productivity.value)
            p_.add_extra_entry(seed, "Productivity (of the eventlog's span)",
                               ExtraValue::text(fmt("%.1f%%", *m.seed_productivity.value * 100)));
        if (m.seed_max_pause.value)
            p_.add_extra_entry(seed, "Max pause (average over the capabilities in a GC)",
                               ExtraValue::duration(ns(*m.seed_max_pause.value)));
        if (m.generations_table.value)
            for (const gc::GenerationFigures& g : *m.generations_table.value)
                p_.add_extra_entry(seed, "Gen " + std::to_string(g.gen),
                                   ExtraValue::text(secs(g.seed_elapsed_ns) + " elapsed, average pause " +
                                                    pause_text(g.seed_avg_pause_ns()) + ", longest " +
                                                    pause_text(g.seed_max_pause_ns) + ", longest on one capability " +
                                                    pause_text(static_cast<double>(g.longest_cap_pause_ns))));
        if (m.gc_sync_count)
            p_.add_extra_entry(seed, "GC sync (request to start)",
                               ExtraValue::text(secs(static_cast<double>(m.gc_sync_total_ns)) + " over " +
                                                std::to_string(m.gc_sync_count) + " requests, longest " +
                                                pause_text(static_cast<double>(m.gc_sync_max_ns))));
        for (const gc::CapabilityGcFigures& c : m.capabilities)
            p_.add_extra_entry(
                seed, "Capability " + std::to_string(c.cap),
                ExtraValue::text(std::to_string(c.collections) + " collections, " + secs(static_cast<double>(c.gc_ns)) +
                                 " in GC: work " + secs(static_cast<double>(c.work_ns)) + ", idle " +
                                 secs(static_cast<double>(c.idle_ns)) + ", done " +
                                 secs(static_cast<double>(c.done_ns))));
    }

private:
    Profile& p_;
};

}  // namespace

void add_rts_summary_panel(Profile& profile, const gc::RtsSummary& summary) {
    RtsSummaryPanel(profile).add_summary(summary);
}

}  // namespace el2fx::convert
