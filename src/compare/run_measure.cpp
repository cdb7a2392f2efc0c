#include "compare/run_measure.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "analysis/gc/gc_analysis.hpp"
#include "analysis/ghc_profiling/band_names.hpp"
#include "analysis/ghc_profiling/cost_centre_table.hpp"
#include "analysis/ghc_profiling/heap_profile.hpp"
#include "analysis/ghc_profiling/info_tables.hpp"
#include "analysis/ghc_profiling/time_profile.hpp"
#include "analysis/threading/stop_status_text.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "compare/statistics.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "pass/pass_plan.hpp"

namespace el2fx::compare {
namespace {

// The runtime's pause of each collection; the collections themselves go back to the tracker.
class PauseSink final : public gc::GcRecordSink {
public:
    void collection(gc::GcCollection&& c) override {
        if (auto pause = c.runtime_pause()) pauses.push_back(static_cast<double>(*pause));
        if (analysis) analysis->recycle(std::move(c));
    }
    void heap_sample(const gc::HeapSample& s) override {
        if (s.quantity == gc::HeapQuantity::heap_size)
            series->heap_size.push_back({s.time - std::min(s.time, origin), s.value});
        if (s.quantity == gc::HeapQuantity::heap_live)
            series->heap_live.push_back({s.time - std::min(s.time, origin), s.value});
    }
    gc::GcAnalysis* analysis = nullptr;
    RunSeries* series = nullptr;
    std::uint64_t origin = 0;  // the first event's time
    std::vector<double> pauses;
};

// Sums the spans; the samples are not wanted (the timer's interval is made long enough that
// it takes next to none).
class TimeSink final : public analysis::ThreadingSink {
public:
    struct CapTime {
        bool started = false;
        std::uint64_t gc = 0, mutator = 0, idle = 0;
    };
    void capability_started(eventlog::CapNo cap, std::uint64_t) override { at(cap).started = true; }
    void capability_span(eventlog::CapNo cap, const analysis::CapabilitySpan& span) override {
        CapTime& t = at(cap);
        const std::uint64_t d = span.end - span.start;
        switch (span.activity.state) {
            case analysis::CapabilityState::gc: t.gc += d; break;
            case analysis::CapabilityState::mutator: t.mutator += d; break;
            case analysis::CapabilityState::idle: t.idle += d; break;
        }
    }
    void capability_sample(eventlog::CapNo, const analysis::Sample<analysis::CapabilityActivity>&) override {}
    void thread_span(eventlog::ThreadId, const analysis::ThreadStateSpan& span) override {
        if (span.activity.state == analysis::ThreadState::blocked)
            blocked[span.activity.reason.status] += span.end - span.start;
    }
    void thread_sample(eventlog::ThreadId, const analysis::Sample<analysis::ThreadActivity>&) override {}

    CapTime& at(eventlog::CapNo cap) {
        if (cap >= caps.size()) caps.resize(cap + 1u);
        return caps[cap];
    }
    std::vector<CapTime> caps;
    std::map<std::uint16_t, std::uint64_t> blocked;  // by STOP_THREAD status
};

std::string file_name(std::string_view path) {
    const auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// An RTS option as it bears on the run: the files the runtime writes (-ol, -po, and the
// report files of -s, -S, -t) name where its output goes, not how it ran.
std::string rts_option_said(std::string_view word) {
    if (word.starts_with("-ol") || word.starts_with("-po")) return {};
    if (word.size() > 2 && (word.starts_with("-s") || word.starts_with("-S") || word.starts_with("-t")))
        return std::string(word.substr(0, 2));
    return std::string(word);
}

// What the run was: the runtime and the program's command line (its RTS options as they bear
// on the run), from their first events.
class RunIdentity {
public:
    explicit RunIdentity(RunFigures& run) : run_(run) {}
    static pass::Interests interests() {
        return pass::Interests::of({eventlog::RtsIdentifier::tag, eventlog::ProgramArgs::tag});
    }
    void handle(const eventlog::Event& event) {
        if (const auto* rts = event.as<eventlog::RtsIdentifier>()) {
            if (run_.rts_identifier.empty()) run_.rts_identifier = std::string(rts->identifier.bytes);
        } else if (const auto* args = event.as<eventlog::ProgramArgs>()) {
            if (run_.program.empty()) take_args(*args);
        }
    }

private:
    void take_args(const eventlog::ProgramArgs& args) {
        bool first = true, in_rts = false;
        args.args.for_each([&](std::string_view word) {
            if (first) {
                run_.program = file_name(word);
                first = false;
            } else if (word == "+RTS") {
                in_rts = true;
            } else if (word == "-RTS") {
                in_rts = false;
            } else if (in_rts) {
                const std::string said = rts_option_said(word);
                if (said.empty()) return;
                if (!run_.rts_options.empty()) run_.rts_options += ' ';
                run_.rts_options += said;
            }
        });
    }

    RunFigures& run_;
};

struct Adder {
    RunFigures& run;
    void operator()(std::string key, std::string label, Group group, Unit unit, Better better, double value) {
        run.figures.push_back({std::move(key), std::move(label), group, unit, better, value});
    }
    template <typename T>
    void figure(const gc::Figure<T>& f, const char* key, const char* label, Unit unit, Better better) {
        if (f.value) (*this)(key, label, Group::rts, unit, better, static_cast<double>(*f.value));
    }
};

void add_summary(Adder& add, const gc::RtsSummary& s) {
    add.figure(s.bytes_allocated, "allocated", "bytes allocated in the heap", Unit::bytes, Better::lower);
    add.figure(s.bytes_copied, "copied", "bytes copied during GC", Unit::bytes, Better::lower);
    add.figure(s.max_residency, "max_residency", "maximum residency", Unit::bytes, Better::lower);
    add.figure(s.max_slop, "max_slop", "maximum slop", Unit::bytes, Better::lower);
    add.figure(s.memory_in_use, "memory_in_use", "total memory in use", Unit::bytes, Better::lower);
    if (s.generations_table.value)
        for (const gc::GenerationFigures& g : *s.generations_table.value) {
            const std::string gen = "gen" + std::to_string(g.gen);
            add(gen + "_collections", "Gen " + std::to_string(g.gen) + " collections", Group::rts, Unit::count,
                Better::lower, static_cast<double>(g.collections));
            add(gen + "_par_collections", "Gen " + std::to_string(g.gen) + " parallel collections", Group::rts,
                Unit::count, Better::neither, static_cast<double>(g.par_collections));
        }
    add.figure(s.init_elapsed, "init_elapsed", "INIT elapsed", Unit::ns, Better::lower);
    add.figure(s.mut_elapsed, "mut_elapsed", "MUT elapsed", Unit::ns, Better::lower);
    add.figure(s.gc_elapsed, "gc_elapsed", "GC elapsed", Unit::ns, Better::lower);
    add.figure(s.prof_elapsed, "prof_elapsed", "PROF elapsed", Unit::ns, Better::lower);
    add.figure(s.exit_elapsed, "exit_elapsed", "EXIT elapsed", Unit::ns, Better::lower);
    add.figure(s.total_elapsed, "total_elapsed", "Total elapsed", Unit::ns, Better::lower);
    add.figure(s.alloc_rate, "alloc_rate", "allocation rate (bytes per MUT elapsed second)", Unit::count,
               Better::neither);
    add.figure(s.productivity, "productivity", "productivity (MUT / Total, elapsed)", Unit::ratio, Better::higher);
    if (s.sparks.value) {
        const gc::SparkFigures& sp = *s.sparks.value;
        add("sparks", "SPARKS", Group::rts, Unit::count, Better::neither, static_cast<double>(sp.total()));
        add("sparks_converted", "sparks converted", Group::rts, Unit::count, Better::higher,
            static_cast<double>(sp.converted));
        add("sparks_overflowed", "sparks overflowed", Group::rts, Unit::count, Better::lower,
            static_cast<double>(sp.overflowed));
        add("sparks_dud", "sparks dud", Group::rts, Unit::count, Better::lower, static_cast<double>(sp.dud));
        add("sparks_gcd", "sparks GC'd", Group::rts, Unit::count, Better::lower, static_cast<double>(sp.gcd));
        add("sparks_fizzled", "sparks fizzled", Group::rts, Unit::count, Better::lower,
            static_cast<double>(sp.fizzled));
    }
}

void add_pauses(Adder& add, std::vector<double>& pauses) {
    if (pauses.empty()) return;
    add("pause_count", "collections timed", Group::pauses, Unit::count, Better::lower,
        static_cast<double>(pauses.size()));
    add("pause_median", "median pause", Group::pauses, Unit::ns, Better::lower, percentile(pauses, 50));
    add("pause_p90", "90th percentile pause", Group::pauses, Unit::ns, Better::lower, percentile(pauses, 90));
    add("pause_p99", "99th percentile pause", Group::pauses, Unit::ns, Better::lower, percentile(pauses, 99));
    add("pause_max", "longest pause", Group::pauses, Unit::ns, Better::lower, percentile(pauses, 100));
}

void add_capabilities(Adder& add, const TimeSink& time) {
    for (std::size_t cap = 0; cap < time.caps.size(); ++cap) {
        const TimeSink::CapTime& t = time.caps[cap];
        const double life = static_cast<double>(t.gc + t.mutator + t.idle);
        if (!t.started || life <= 0) continue;
        const std::string k = "cap" + std::to_string(cap), l = "capability " + std::to_string(cap);
        add(k + "_mutator", l + " mutator", Group::capabilities, Unit::ratio, Better::neither,
            static_cast<double>(t.mutator) / life);
        add(k + "_gc", l + " GC", Group::capabilities, Unit::ratio, Better::lower, static_cast<double>(t.gc) / life);
        add(k + "_idle", l + " idle", Group::capabilities, Unit::ratio, Better::neither,
            static_cast<double>(t.idle) / life);
    }
}

void add_blocked(Adder& add, const TimeSink& time) {
    for (const auto& [status, ns] : time.blocked) {
        const std::string text = analysis::stop_status_text(status);
        add("blocked:" + text, text, Group::blocked, Unit::ns, Better::lower, static_cast<double>(ns));
    }
}

// Self: the ticks a cost centre was the innermost of; inherited: the ticks it was anywhere on
// the stack (once per tick, as GHC's .prof counts recursion), both as shares of all ticks.
void add_cost_centres(Adder& add, const profiling::TimeProfile& ticks, const profiling::CostCentreTable& table) {
    if (ticks.empty()) return;
    std::vector<std::uint64_t> per_stack(ticks.stack_count());
    for (const profiling::Tick& t : ticks.ticks()) ++per_stack[t.stack];
    std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by_name;  // self, inherited
    std::vector<std::uint32_t> seen;
    for (std::uint32_t s = 0; s < per_stack.size(); ++s) {
        if (!per_stack[s]) continue;
        const auto stack = ticks.stack(s);
        if (stack.empty()) continue;
        by_name[table.name(stack.back())].first += per_stack[s];
        seen.clear();
        for (std::uint32_t id : stack)
            if (std::find(seen.begin(), seen.end(), id) == seen.end()) seen.push_back(id);
        std::vector<std::string> names;
        for (std::uint32_t id : seen) names.push_back(table.name(id));
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        for (const std::string& n : names) by_name[n].second += per_stack[s];
    }
    const double total = static_cast<double>(ticks.ticks().size());
    for (const auto& [name, counts] : by_name) {
        add("cc_self:" + name, name + " (self)", Group::cost_centres, Unit::ratio, Better::lower,
            static_cast<double>(counts.first) / total);
        add("cc_inherited:" + name, name + " (inherited)", Group::cost_centres, Unit::ratio, Better::lower,
            static_cast<double>(counts.second) / total);
    }
}

// Peak: the most any census counted; time-averaged: each census's bytes held until the next
// (the last one's for no time), over the span from the first census to the last.
void add_heap_bands(Adder& add, const profiling::HeapProfile& heap, const profiling::CostCentreTable& cost_centres,
                    const profiling::InfoTableCatalog& info_tables, RunSeries& series, std::uint64_t origin) {
    const auto& censuses = heap.censuses();
    if (!heap.info() || censuses.empty()) return;
    const std::size_t n = heap.bands().size();
    std::vector<double> peak(n), area(n), last(n);
    const double span = static_cast<double>(censuses.back().time - censuses.front().time);
    for (std::size_t c = 0; c < censuses.size(); ++c) {
        const double held =
            c + 1 < censuses.size() ? static_cast<double>(censuses[c + 1].time - censuses[c].time) : 0.0;
        for (const auto& [band, bytes] : censuses[c].bands) {
            peak[band] = std::max(peak[band], static_cast<double>(bytes));
            area[band] += static_cast<double>(bytes) * held;
            last[band] = static_cast<double>(bytes);
        }
    }
    std::map<std::string, std::pair<double, double>> by_name;  // bands of one name are added up
    std::vector<std::string> names(n);
    std::map<std::string, std::size_t> series_of;
    for (std::size_t b = 0; b < n; ++b) {
        if (peak[b] <= 0) continue;
        names[b] = profiling::band_name(heap.bands()[b], heap.info()->breakdown, cost_centres, info_tables);
        auto& [p, avg] = by_name[names[b]];
        p += peak[b];
        avg += span > 0 ? area[b] / span : last[b];
        if (series_of.emplace(names[b], series.bands.size()).second) series.bands.push_back({names[b], 0, {}});
    }
    for (const profiling::HeapCensus& census : censuses) {
        for (BandSeries& band : series.bands) band.censuses.push_back({census.time - std::min(census.time, origin), 0});
        for (const auto& [band, bytes] : census.bands)
            if (!names[band].empty()) series.bands[series_of[names[band]]].censuses.back().bytes += bytes;
    }
    for (BandSeries& band : series.bands)
        for (const TimedBytes& c : band.censuses) band.peak = std::max(band.peak, c.bytes);
    for (const auto& [name, v] : by_name) {
        add("band_peak:" + name, name + " (peak)", Group::heap_bands, Unit::bytes, Better::lower, v.first);
        add("band_avg:" + name, name + " (time-averaged)", Group::heap_bands, Unit::bytes, Better::lower, v.second);
    }
}

}  // namespace

MeasuredRun measure_run(const std::string& input_name, Diagnostics& diagnostics) {
    eventlog::InputFile input(input_name);
    eventlog::TimeOrderedReader reader(input, diagnostics);
    PauseSink pauses;
    gc::GcAnalysis gc_analysis(/*keep_records=*/false, &pauses);
    pauses.analysis = &gc_analysis;
    TimeSink time;
    analysis::ThreadingOptions threading_options;
    // A virtual timer that never ticks: only the spans are wanted.
    threading_options.sampling_interval_ns = std::uint64_t{1} << 52;
    analysis::ThreadingAnalysis threading(diagnostics, threading_options, &time);
    profiling::TimeProfile ticks;
    profiling::HeapProfile heap;
    profiling::CostCentreTable cost_centres;
    profiling::InfoTableCatalog info_tables;

    RunFigures run;
    run.input = input_name;
    RunSeries series;
    pauses.series = &series;
    RunIdentity identity(run);
    // The GC and threading analyses take every event (their clocks); the others theirs.
    pass::AnalysisPart<profiling::TimeProfile> tick_part(ticks);
    pass::AnalysisPart<profiling::CostCentreTable> cost_centre_part(cost_centres);
    pass::AnalysisPart<profiling::InfoTableCatalog> info_table_part(info_tables);
    pass::AnalysisPart<profiling::HeapProfile> heap_part(heap);
    pass::AnalysisPart<RunIdentity> identity_part(identity);
    pass::PassPart* const parts[] = {&tick_part, &cost_centre_part, &info_table_part, &heap_part, &identity_part};
    const pass::PartDispatch dispatch(parts);
    std::vector<pass::Interests> asked = dispatch.interests();
    asked.push_back(gc::GcAnalysis::interests());
    asked.push_back(analysis::ThreadingAnalysis::interests());
    eventlog::EventPrefetcher events(reader, diagnostics);  // the merge beside the analyses
    events.leave_undecoded(~pass::plan_pass(asked).decoded);
    bool first = true;
    while (const eventlog::Event* event = events.next()) {
        if (first) {
            pauses.origin = event->time;
            first = false;
        }
        series.end = event->time;
        gc_analysis.handle(*event);
        threading.handle(*event);
        dispatch.handle(*event);
    }
    gc::SummaryEnd end;
    end.truncated = reader.stream_end().truncated_at.has_value();
    const gc::RtsSummary summary = gc_analysis.finish(end).summary;
    threading.finish();
    heap.finish();

    Adder add{run};
    add_summary(add, summary);
    add_pauses(add, pauses.pauses);
    add_capabilities(add, time);
    add_blocked(add, time);
    add_cost_centres(add, ticks, cost_centres);
    add_heap_bands(add, heap, cost_centres, info_tables, series, pauses.origin);
    series.end -= std::min(series.end, pauses.origin);
    return {std::move(run), std::move(series), reader.stream_end()};
}

}  // namespace el2fx::compare
