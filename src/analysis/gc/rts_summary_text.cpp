#include "analysis/gc/rts_summary_text.hpp"

#include <cmath>
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <vector>

namespace el2fx::gc {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
    char buf[512];
    va_list args;
    va_start(args, fmt);
    int n = std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    if (n < 0) return {};
    if (static_cast<std::size_t>(n) < sizeof buf) return std::string(buf, static_cast<std::size_t>(n));
    std::string big(static_cast<std::size_t>(n) + 1, '\0');
    va_start(args, fmt);
    std::vsnprintf(big.data(), big.size(), fmt, args);
    va_end(args);
    big.resize(static_cast<std::size_t>(n));
    return big;
}

double seconds(double ns) { return ns / 1e9; }

// "1234567" -> "1,234,567".
std::string group_digits(const std::string& digits) {
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// Notes for figures that are not exact, numbered in the order they are printed.
class Notes {
public:
    template <typename T>
    std::string mark(const Figure<T>& f) {
        if (f.accuracy == Accuracy::exact || f.note.empty()) return {};
        const char* what = f.accuracy == Accuracy::estimate      ? "estimate"
                           : f.accuracy == Accuracy::lower_bound ? "at least"
                                                                 : "unknown";
        return mark_text(std::string(what) + ": " + f.note);
    }
    std::string mark_text(const std::string& text) {
        std::size_t i = 0;
        while (i < lines_.size() && lines_[i] != text) ++i;  // the same note keeps its number
        if (i == lines_.size()) lines_.push_back(text);
        return " [" + std::to_string(i + 1) + "]";
    }
    void write(std::string& out) const {
        if (lines_.empty()) return;
        out += "Notes\n";
        for (std::size_t i = 0; i < lines_.size(); ++i) out += format("  [%zu] ", i + 1) + lines_[i] + "\n";
        out += "\n";
    }

private:
    std::vector<std::string> lines_;
};

std::string bytes_text(const Figure<std::uint64_t>& f) { return f.value ? with_commas(*f.value) : "?"; }

std::string elapsed_text(const Figure<std::uint64_t>& f) {
    return f.value ? format("%7.3fs", seconds(static_cast<double>(*f.value))) : "      ?";
}

}  // namespace

std::string with_commas(std::uint64_t n) { return group_digits(std::to_string(n)); }

// Beyond 9e18 the digits come from printf: converting such a double to an integer is undefined.
std::string rounded_with_commas(double v) {
    if (!std::isfinite(v) || v < 0) return "?";
    if (v < 9e18) return with_commas(static_cast<std::uint64_t>(v + 0.5));
    return group_digits(format("%.0f", v));
}

std::string render_summary_text(const RtsSummary& s) {
    std::string out;
    Notes notes;

    // ---- the heap ----------------------------------------------------------------------------
    out += format("%16s bytes allocated in the heap", bytes_text(s.bytes_allocated).c_str()) +
           notes.mark(s.bytes_allocated) + "\n";
    out +=
        format("%16s bytes copied during GC", bytes_text(s.bytes_copied).c_str()) + notes.mark(s.bytes_copied) + "\n";
    if (s.max_residency.value) {
        out += format("%16s bytes maximum residency (%llu sample(s))", bytes_text(s.max_residency).c_str(),
                      static_cast<unsigned long long>(s.residency_samples)) +
               notes.mark(s.max_residency) + "\n";
    } else {
        out += format("%16s bytes maximum residency", "?") + notes.mark(s.max_residency) + "\n";
    }
    out += format("%16s bytes maximum slop", bytes_text(s.max_slop).c_str()) + notes.mark(s.max_slop) + "\n";
    std::string mib = s.memory_in_use.value ? std::to_string(*s.memory_in_use.value / (1024 * 1024)) : std::string("?");
    std::string frag = s.fragmentation.value ? std::to_string(*s.fragmentation.value / (1024 * 1024)) : "?";
    std::string mem_mark = notes.mark(s.memory_in_use);
    std::string frag_mark = notes.mark(s.fragmentation);
    out += format("%16s MiB total memory in use%s (%s MB lost due to fragmentation%s)\n", mib.c_str(), mem_mark.c_str(),
                  frag.c_str(), frag_mark.c_str());

    // ---- collections by generation ---------------------------------------------------------------
    std::string cpu_note = notes.mark_text(
        "CPU times (the runtime's user times) are not in the eventlog: shown as -. Elapsed times and pauses are "
        "the initiating capability's GC_START..GC_END, the very timestamps the runtime adds up.");
    out += "\n                                     Tot time (elapsed)  Avg pause  Max pause" + cpu_note +
           notes.mark(s.generations_table) + "\n";
    if (s.generations_table.value) {
        for (const GenerationFigures& g : *s.generations_table.value) {
            out += format("  Gen %2u     %5llu colls, %5llu par   %7s  %6.3fs     %3.4fs    %3.4fs\n",
                          static_cast<unsigned>(g.gen), static_cast<unsigned long long>(g.collections),
                          static_cast<unsigned long long>(g.par_collections), "-",
                          seconds(static_cast<double>(g.elapsed_ns)), seconds(g.avg_pause_ns()),
                          seconds(static_cast<double>(g.max_pause_ns)));
        }
    } else {
        out += "  Gen  ?         ? colls,     ? par\n";
    }
    out += "\n";

    if (s.threaded != false) {
        if (s.work_balance.value) {
            out +=
                format("  Parallel GC work balance: %.2f%% (serial 0%%, perfect 100%%)", *s.work_balance.value * 100) +
                notes.mark(s.work_balance) + "\n\n";
        } else if (s.work_balance.note.rfind("no parallel collection", 0) != 0) {
            out += "  Parallel GC work balance: ?" + notes.mark(s.work_balance) + "\n\n";
        }
        if (s.sparks.value) {
            const SparkFigures& f = *s.sparks.value;
            out += format("  SPARKS: %llu (%llu converted, %llu overflowed, %llu dud, %llu GC'd, %llu fizzled)",
                          static_cast<unsigned long long>(f.total()), static_cast<unsigned long long>(f.converted),
                          static_cast<unsigned long long>(f.overflowed), static_cast<unsigned long long>(f.dud),
                          static_cast<unsigned long long>(f.gcd), static_cast<unsigned long long>(f.fizzled)) +
                   notes.mark(s.sparks) + "\n\n";
        } else {
            out += "  SPARKS: ?" + notes.mark(s.sparks) + "\n\n";
        }
    }

    // ---- times ------------------------------------------------------------------------------------
    auto time_line = [&](const char* label, const Figure<std::uint64_t>& f) {
        out += format("  %-7s time  %8s  (%s elapsed)", label, "-", elapsed_text(f).c_str()) + notes.mark(f) + "\n";
    };
    time_line("INIT", s.init_elapsed);
    time_line("MUT", s.mut_elapsed);
    time_line("GC", s.gc_elapsed);
    if (s.has_censuses) time_line("PROF", s.prof_elapsed);
    time_line("EXIT", s.exit_elapsed);
    time_line("Total", s.total_elapsed);
    out += "\n";
    if (s.threaded == false) {
        std::string share = s.gc_share.value ? format("%.1f%%", *s.gc_share.value * 100) : "?";
        out += format("  %%GC     time  %9s  (%s elapsed)", "-", share.c_str()) + notes.mark(s.gc_share) + "\n\n";
    }
    std::string rate = s.alloc_rate.value ? rounded_with_commas(*s.alloc_rate.value) : std::string("?");
    out += "  Alloc rate    " + rate + " bytes per MUT second" + notes.mark(s.alloc_rate) + "\n\n";
    std::string prod = s.productivity.value ? format("%.1f%%", *s.productivity.value * 100) : "?";
    out += format("  Productivity %5s of total user, %s of total elapsed", "-", prod.c_str()) +
           notes.mark(s.productivity) + "\n\n";

    // ---- the seed's conventions -------------------------------------------------------------------
    out += "Per-capability view (the seed's conventions, not the runtime's)\n";
    out +=
        "  A capability's pause runs from its GC_START to its GC_END; a collection's pause is the average\n"
        "  over the capabilities that took part. Unlike +RTS -s, this counts the time the other\n"
        "  capabilities wait to run Haskell code again after the initiating one finished.\n";
    if (s.generations_table.value) {
        out += "                                     Tot time (elapsed)  Avg pause  Max pause  Longest cap pause\n";
        for (const GenerationFigures& g : *s.generations_table.value) {
            out += format("  Gen %2u     %5llu colls                   %6.3fs     %3.4fs    %3.4fs    %3.4fs\n",
                          static_cast<unsigned>(g.gen), static_cast<unsigned long long>(g.collections),
                          seconds(g.seed_elapsed_ns), seconds(g.seed_avg_pause_ns()), seconds(g.seed_max_pause_ns),
                          seconds(static_cast<double>(g.longest_cap_pause_ns)));
        }
    }
    if (s.seed_gc_elapsed.value) {
        out += format("  GC      time  (%7.3fs elapsed)\n", seconds(*s.seed_gc_elapsed.value));
    } else {
        out += "  GC      time  (      ?  elapsed)" + notes.mark(s.seed_gc_elapsed) + "\n";
    }
    if (s.seed_mut_elapsed.value) {
        out += format("  MUT     time  (%7.3fs elapsed: the eventlog's %.3fs span less GC)\n",
                      seconds(*s.seed_mut_elapsed.value), seconds(static_cast<double>(s.last_time - s.first_time)));
        out += format("  Productivity  %.1f%% of the eventlog's span\n", *s.seed_productivity.value * 100);
    }
    if (s.gc_sync_count > 0) {
        out += format(
            "  GC sync       %.3fs elapsed over %llu requests, longest %.4fs (REQUEST_*_GC to the\n"
            "                initiating capability's GC_START: waiting for every capability to stop)\n",
            seconds(static_cast<double>(s.gc_sync_total_ns)), static_cast<unsigned long long>(s.gc_sync_count),
            seconds(static_cast<double>(s.gc_sync_max_ns)));
    }
    if (!s.capabilities.empty()) {
        out += "\n  Capability  Collections   GC time      work      idle      done\n";
        for (const CapabilityGcFigures& c : s.capabilities) {
            out += format("  cap %-6u  %11llu  %7.3fs  %7.3fs  %7.3fs  %7.3fs\n", static_cast<unsigned>(c.cap),
                          static_cast<unsigned long long>(c.collections), seconds(static_cast<double>(c.gc_ns)),
                          seconds(static_cast<double>(c.work_ns)), seconds(static_cast<double>(c.idle_ns)),
                          seconds(static_cast<double>(c.done_ns)));
        }
        out += "  (work, idle, done: from each GC_WORK, GC_IDLE, GC_DONE to the next one or GC_END)\n";
    }
    out += "\n";
    if (s.anomalies.total() > 0) {
        out += format("  The eventlog's GC events were odd %llu time(s): ",
                      static_cast<unsigned long long>(s.anomalies.total()));
        const GcTrackerAnomalies& a = s.anomalies;
        std::vector<std::string> parts;
        auto part = [&](std::uint64_t n, const char* what) {
            if (n) parts.push_back(std::to_string(n) + " " + what);
        };
        part(a.start_while_in_gc, "GC_START while already collecting");
        part(a.end_without_start, "GC_END without GC_START");
        part(a.phase_outside_gc, "GC_IDLE/WORK/DONE outside a collection");
        part(a.missing_end, "capabilities without their GC_END");
        part(a.extra_request, "extra GC requests");
        part(a.sync_without_start, "GC_GLOBAL_SYNC or GC_STATS_GHC without GC_START");
        part(a.stats_without_sync, "GC_STATS_GHC without GC_GLOBAL_SYNC");
        part(a.unsynced_collections, "collections without GC_GLOBAL_SYNC");
        for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
        out += "\n\n";
    }
    notes.write(out);
    return out;
}

}  // namespace el2fx::gc
