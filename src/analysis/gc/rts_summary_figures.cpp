// RtsSummaryCalculator::finish: the `+RTS -s` figures from what the calculator gathered (the
// events' handling is in rts_summary.cpp), each with its accuracy and, when it is not exact,
// why.
#include <algorithm>
#include <optional>
#include <string>

#include "analysis/gc/rts_summary.hpp"
#include "util/utf8.hpp"

namespace el2fx::gc {
namespace {

// Heap censuses are the runtime's PROF time, not GC time (heap_census_timer.hpp): an upper
// bound of PROF, so GC less it is an estimate too.
void split_census_time(RtsSummary& s, const HeapCensusTimer& c) {
    s.has_censuses = c.measured() + c.unmeasured() > 0;
    if (!s.has_censuses) return;
    if (c.unmeasured() > 0 || !s.gc_elapsed.value) {
        s.prof_elapsed = Figure<std::uint64_t>::missing(
            "a census without a GC_DONE before it in its collection: its start is not in the eventlog");
        return;
    }
    const char* how =
        "from each census collection's last GC_DONE to its HEAP_PROF_SAMPLE_END (the census's start "
        "is not in the eventlog): above the runtime's on GHC 9.0, up to a tenth below it on 9.6 and 9.10";
    s.prof_elapsed = Figure<std::uint64_t>::estimate(c.total_ns(), how);
    const std::uint64_t gc = *s.gc_elapsed.value - std::min(*s.gc_elapsed.value, c.total_ns());
    s.gc_elapsed = Figure<std::uint64_t>::estimate(gc, "the collections' pauses less the PROF time (an estimate)");
}

// Whether the runtime is a profiling one (its way has a "p" part: rts_p, rts_thr_p,
// rts_thr_debug_p): only that runtime times its censuses apart and prints PROF; any other
// counts them in GC. None when the eventlog does not name its runtime.
std::optional<bool> profiling_runtime(const std::string& rts_identifier) {
    const std::size_t at = rts_identifier.find(" rts");
    if (at == std::string::npos) return std::nullopt;
    std::size_t part = at + 4;
    const std::size_t end = rts_identifier.find(' ', part);
    const std::string way = rts_identifier.substr(part, end == std::string::npos ? std::string::npos : end - part);
    for (std::size_t from = 0; from < way.size();) {
        std::size_t next = way.find('_', from + 1);
        if (next == std::string::npos) next = way.size();
        if (way.compare(from, next - from, "_p") == 0) return true;
        from = next;
    }
    return false;
}

std::string count_text(std::uint64_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

RtsSummary RtsSummaryCalculator::finish(const SummaryEnd& end, const GcTrackerAnomalies& anomalies) const {
    RtsSummary s;
    s.rts_identifier = rts_identifier_;
    if (!rts_identifier_.empty()) {
        std::size_t at = rts_identifier_.find(" rts");
        s.threaded = at != std::string::npos && rts_identifier_.find("thr", at) != std::string::npos;
    }
    s.generations = generations_;
    s.collections = collections_;
    s.first_time = clock_.first_time;
    s.last_time = clock_.last_time;
    s.truncated = end.truncated;
    s.anomalies = anomalies;
    s.capabilities = caps_;
    if (clock_.events == 0) {
        const std::string none = end.truncated ? "the eventlog holds no events: the program stopped before writing any"
                                               : "the eventlog holds no events";
        for (Figure<std::uint64_t>* f :
             {&s.bytes_allocated, &s.bytes_copied, &s.max_residency, &s.max_slop, &s.memory_in_use, &s.fragmentation,
              &s.max_fragmentation_at_gc, &s.init_elapsed, &s.mut_elapsed, &s.gc_elapsed, &s.exit_elapsed,
              &s.total_elapsed})
            *f = Figure<std::uint64_t>::missing(none);
        for (Figure<double>* f : {&s.work_balance, &s.alloc_rate, &s.productivity, &s.gc_share, &s.seed_gc_elapsed,
                                  &s.seed_mut_elapsed, &s.seed_productivity, &s.seed_max_pause})
            *f = Figure<double>::missing(none);
        s.generations_table = Figure<std::vector<GenerationFigures>>::missing(none);
        s.sparks = Figure<SparkFigures>::missing(none);
        return s;
    }
    const std::string truncated = "the eventlog is truncated, so this covers only the part written";
    const bool clean_exit = !end.truncated && exit_allocation_time_.has_value();

    // ---- heap -------------------------------------------------------------------------------
    if (!allocated_seen_) {
        s.bytes_allocated = Figure<std::uint64_t>::missing(
            "no HEAP_ALLOCATED events: the runtime posts them with the GC events (+RTS -l with g, GHC >= 7.6)");
    } else if (clean_exit) {
        s.bytes_allocated = Figure<std::uint64_t>::exact(allocated_sum_);
    } else if (end.truncated) {
        s.bytes_allocated = Figure<std::uint64_t>::lower_bound(allocated_sum_, truncated);
    } else {
        s.bytes_allocated = Figure<std::uint64_t>::lower_bound(
            allocated_sum_,
            "no HEAP_ALLOCATED after the last collection: the runtime's final count at exit is missing");
    }

    std::string gc_missing = "no GC events: the eventlog was written without the GC event class (+RTS -l with g)";
    if (with_stats_ == 0 && collections_ > 0) {
        s.bytes_copied = Figure<std::uint64_t>::missing(
            "no GC_STATS_GHC events (GHC < 7.6): the collections' statistics are not in the eventlog");
    } else if (collections_ == 0 && !gc_events_declared_) {
        s.bytes_copied = Figure<std::uint64_t>::missing(gc_missing);
    } else if (with_stats_ < collections_) {
        s.bytes_copied = Figure<std::uint64_t>::lower_bound(
            copied_, count_text(collections_ - with_stats_, "collection has", "collections have") + " no GC_STATS_GHC");
    } else if (end.truncated) {
        s.bytes_copied = Figure<std::uint64_t>::lower_bound(copied_, truncated);
    } else {
        s.bytes_copied = Figure<std::uint64_t>::exact(copied_);
    }

    // The major generation: the oldest, which HEAP_INFO_GHC names.
    std::optional<std::uint16_t> major;
    std::string major_note;
    if (generations_ && *generations_ > 0) {
        major = static_cast<std::uint16_t>(*generations_ - 1);
    } else if (!gens_.empty()) {
        major = static_cast<std::uint16_t>(gens_.size() - 1);
        major_note = "no HEAP_INFO_GHC: generation " + std::to_string(*major) +
                     ", the oldest collected, is taken as the major one";
    }
    const GenerationFigures* mg = major && *major < gens_.size() ? &gens_[*major] : nullptr;
    s.residency_samples = mg ? mg->collections : 0;
    if (with_stats_ == 0 && collections_ > 0) {
        s.max_residency =
            Figure<std::uint64_t>::missing("no GC_STATS_GHC events: major collections cannot be told apart");
        s.max_slop = Figure<std::uint64_t>::missing("no GC_STATS_GHC events");
    } else if (collections_ == 0 && !gc_events_declared_) {
        s.max_residency = Figure<std::uint64_t>::missing(gc_missing);
        s.max_slop = Figure<std::uint64_t>::missing(gc_missing);
    } else {
        if (!mg || mg->collections == 0) {
            s.max_residency = Figure<std::uint64_t>::missing(
                "no major collection: the runtime samples residency only there (and prints no residency line)");
        } else if (mg->live_samples == 0) {
            s.max_residency = Figure<std::uint64_t>::missing("no HEAP_LIVE events after the major collections");
        } else if (mg->live_samples < mg->collections) {
            s.max_residency = Figure<std::uint64_t>::lower_bound(
                mg->max_live,
                count_text(mg->collections - mg->live_samples, "major collection has", "major collections have") +
                    " no HEAP_LIVE");
        } else if (end.truncated) {
            s.max_residency = Figure<std::uint64_t>::lower_bound(mg->max_live, truncated);
        } else if (!major_note.empty()) {
            s.max_residency = Figure<std::uint64_t>::estimate(mg->max_live, major_note);
        } else {
            s.max_residency = Figure<std::uint64_t>::exact(mg->max_live);
        }
        std::uint64_t slop = mg ? mg->max_slop : 0;  // the runtime samples slop at major collections only
        if (end.truncated) {
            s.max_slop = Figure<std::uint64_t>::lower_bound(slop, truncated);
        } else if (!major_note.empty()) {
            s.max_slop = Figure<std::uint64_t>::estimate(slop, major_note);
        } else {
            s.max_slop = Figure<std::uint64_t>::exact(slop);
        }
    }

    if (max_heap_size_) {
        // A megablock is 1 MiB on every platform GHC supports (MBLOCK_SHIFT 20).
        const std::uint64_t mem_return = std::uint64_t{max_mblocks_} << 20;
        s.memory_in_use = Figure<std::uint64_t>::lower_bound(
            std::max(*max_heap_size_, mem_return),
            "the largest HEAP_SIZE, which the runtime posts at the end of each collection, or megablocks allocated "
            "that a MEM_RETURN reports (GHC 9.2 and newer, after a major collection); the runtime reports its "
            "peak, which can be higher during a collection");
    } else {
        s.memory_in_use = Figure<std::uint64_t>::missing("no HEAP_SIZE events");
    }
    s.fragmentation = Figure<std::uint64_t>::missing(
        "the runtime compares its peak megablocks with the high-water mark of allocated blocks; the eventlog has "
        "neither (GC_STATS_GHC gives the fragmentation at the end of each collection instead)");
    if (with_stats_ > 0) {
        s.max_fragmentation_at_gc = Figure<std::uint64_t>::exact(
            max_frag_, "the largest fragmentation GC_STATS_GHC reported at the end of a collection");
    } else {
        s.max_fragmentation_at_gc = Figure<std::uint64_t>::missing("no GC_STATS_GHC events");
    }

    // ---- collections by generation ------------------------------------------------------------
    std::vector<GenerationFigures> table = gens_;
    for (std::size_t g = table.size(); g < generations_.value_or(0); ++g) {
        GenerationFigures f;
        f.gen = static_cast<std::uint16_t>(g);
        table.push_back(f);
    }
    if (with_stats_ == 0 && collections_ > 0) {
        s.generations_table = Figure<std::vector<GenerationFigures>>::missing(
            "no GC_STATS_GHC events: collections cannot be told apart by generation");
    } else if (collections_ == 0 && !gc_events_declared_) {
        s.generations_table = Figure<std::vector<GenerationFigures>>::missing(gc_missing);
    } else if (timed_ < with_stats_) {
        s.generations_table = Figure<std::vector<GenerationFigures>>::lower_bound(
            std::move(table), count_text(with_stats_ - timed_, "collection lacks", "collections lack") +
                                  " the initiating capability's GC_START or GC_END: their time is missing");
    } else if (end.truncated) {
        s.generations_table = Figure<std::vector<GenerationFigures>>::lower_bound(std::move(table), truncated);
    } else {
        s.generations_table = Figure<std::vector<GenerationFigures>>::exact(std::move(table));
    }

    if (par_collections_ == 0) {
        s.work_balance = Figure<double>::missing("no parallel collection (the runtime prints no work-balance line)");
    } else if (par_balanced_everywhere_ && par_copied_ > 0) {
        double wb = static_cast<double>(par_balanced_) / static_cast<double>(par_copied_);
        s.work_balance = end.truncated ? Figure<double>::estimate(wb, truncated) : Figure<double>::exact(wb);
    } else if (par_max_copied_ > 0 && max_par_threads_ > 1) {
        double ratio = static_cast<double>(par_copied_) / static_cast<double>(par_max_copied_);
        s.work_balance = Figure<double>::estimate(
            std::clamp((ratio - 1.0) / static_cast<double>(max_par_threads_ - 1), 0.0, 1.0),
            "GC_STATS_GHC without balanced-copied bytes (GHC < 8.6): the older formula (copied / max copied - 1) / "
            "(threads - 1)");
    } else {
        s.work_balance = Figure<double>::missing("the parallel collections copied nothing");
    }

    // ---- sparks ---------------------------------------------------------------------------------
    bool any_sparks = std::any_of(sparks_.begin(), sparks_.end(), [](const auto& c) { return c.has_value(); });
    if (s.threaded == false && !any_sparks) {
        s.sparks = Figure<SparkFigures>::missing("non-threaded RTS: no sparks (the runtime prints no SPARKS line)");
    } else if (!any_sparks) {
        s.sparks = Figure<SparkFigures>::missing("no SPARK_COUNTERS events (+RTS -l with p, GHC >= 7.4)");
    } else {
        SparkFigures f;
        for (const auto& c : sparks_) {
            if (!c) continue;
            f.created += c->created;
            f.dud += c->dud;
            f.overflowed += c->overflowed;
            f.converted += c->converted;
            f.gcd += c->gcd;
            f.fizzled += c->fizzled;
        }
        s.sparks = end.truncated ? Figure<SparkFigures>::lower_bound(f, truncated) : Figure<SparkFigures>::exact(f);
    }

    // ---- times ----------------------------------------------------------------------------------
    // The program's main bound task: the longest-lived task of the process's own OS thread
    // (one still open when the log ends lasts until then). hs_main creates it right after the
    // runtime's init ends and deletes it when main returns, right before the runtime starts
    // timing its exit.
    const TaskSession* main_task = nullptr;
    auto lifetime = [&](const TaskSession& t) { return t.deleted.value_or(clock_.last_time) - t.created; };
    if (pid_) {
        for (const TaskSession& t : sessions_) {
            if (t.kernel_tid != *pid_) continue;
            if (!main_task || lifetime(t) > lifetime(*main_task)) main_task = &t;
        }
    }
    // Where INIT ends: GHC 9.6 and newer run a bound task of the main OS thread inside hs_init
    // (9.10.3: ending 10 ms before main's own), and the runtime ends INIT with it; else where
    // the main bound task starts.
    std::uint64_t init_end = main_task ? main_task->created : 0;
    if (main_task) {
        std::optional<std::uint64_t> init_task_end;  // the latest such task's deletion
        for (const TaskSession& t : sessions_)
            if (&t != main_task && t.kernel_tid == main_task->kernel_tid && t.deleted &&
                *t.deleted <= main_task->created)
                init_task_end = std::max(init_task_end.value_or(0), *t.deleted);
        if (init_task_end) init_end = *init_task_end;
    }
    // The pauses of collections that started at or after main returned.
    std::uint64_t exit_gc = main_task && main_task->deleted ? gc_elapsed_ - main_task->pauses_before_deletion : 0;

    if (timed_ == 0 && collections_ > 0) {
        s.gc_elapsed =
            Figure<std::uint64_t>::missing("no collection has its initiating capability's GC_START and GC_END");
    } else if (timed_ < collections_) {
        s.gc_elapsed = Figure<std::uint64_t>::lower_bound(
            gc_elapsed_, count_text(collections_ - timed_, "collection lacks", "collections lack") +
                             " the initiating capability's GC_START or GC_END");
    } else if (end.truncated) {
        s.gc_elapsed = Figure<std::uint64_t>::lower_bound(gc_elapsed_, truncated);
    } else {
        s.gc_elapsed = Figure<std::uint64_t>::exact(gc_elapsed_);
    }
    if (profiling_runtime(rts_identifier_) == true) split_census_time(s, censuses_);

    const std::uint64_t origin = end.window_start.value_or(0);  // a window counts from its start
    if (end.window_start) {
        s.total_elapsed = Figure<std::uint64_t>::exact(clock_.last_time - std::min(clock_.last_time, origin),
                                                       "the window's length (--from/--to)");
    } else if (clean_exit) {
        s.total_elapsed = Figure<std::uint64_t>::estimate(
            *exit_allocation_time_,
            "the runtime's final HEAP_ALLOCATED events, which it posts right after reading its clock for Total");
    } else {
        s.total_elapsed = Figure<std::uint64_t>::lower_bound(
            clock_.last_time, end.truncated ? truncated
                                            : std::string("no final HEAP_ALLOCATED after the last collection: the "
                                                          "eventlog's last event is taken"));
    }

    const std::string no_main_task =
        "no TASK_CREATE/TASK_DELETE of the program's main bound task (tasks of the OS thread OSPROCESS_PID names; "
        "+RTS -l with s)";
    if (end.window_start) {
        const std::uint64_t total = *s.total_elapsed.value;
        s.init_elapsed = Figure<std::uint64_t>::missing("a window of the log: the runtime's start is not in it");
        s.exit_elapsed = Figure<std::uint64_t>::missing("a window of the log: EXIT counts as MUT here");
        s.mut_elapsed =
            Figure<std::uint64_t>::estimate(total - std::min(total, gc_elapsed_), "the window's length less GC");
    } else if (main_task) {
        s.init_elapsed = Figure<std::uint64_t>::estimate(
            init_end, init_end == main_task->created
                          ? "INIT ends where the main bound task starts (its TASK_CREATE)"
                          : "INIT ends where the runtime's initialisation ends its task on the main OS thread (the "
                            "TASK_DELETE before the main bound task's TASK_CREATE)");
        if (main_task->deleted) {
            std::uint64_t span = *main_task->deleted - init_end;
            std::uint64_t gc_during = gc_elapsed_ - std::min(gc_elapsed_, exit_gc);
            s.mut_elapsed = Figure<std::uint64_t>::estimate(
                span - std::min(span, gc_during),
                "from the end of INIT to the main bound task's TASK_DELETE (when main returns), less the collections "
                "in between; the runtime reads its clock a few microseconds from these events");
        } else {
            std::uint64_t span = clock_.last_time - init_end;
            s.mut_elapsed = Figure<std::uint64_t>::lower_bound(
                span - std::min(span, gc_elapsed_),
                std::string(end.truncated ? "the eventlog is truncated" : "the eventlog ends") +
                    " before main returned: from the main bound task's TASK_CREATE to the last event, less the "
                    "collections");
        }
        if (clean_exit && main_task->deleted) {
            std::uint64_t after = *exit_allocation_time_ - std::min(*exit_allocation_time_, *main_task->deleted);
            s.exit_elapsed = Figure<std::uint64_t>::estimate(
                after - std::min(after, exit_gc),
                "from the main bound task's TASK_DELETE to the final HEAP_ALLOCATED, less the exit collection");
        } else {
            s.exit_elapsed = Figure<std::uint64_t>::missing(
                end.truncated ? truncated
                              : std::string("the end of the program's exit is not in the eventlog (no TASK_DELETE of "
                                            "the main bound task, or no final HEAP_ALLOCATED)"));
        }
    } else {
        s.init_elapsed = Figure<std::uint64_t>::missing(no_main_task);
        s.exit_elapsed = Figure<std::uint64_t>::missing(no_main_task);
        std::uint64_t total = s.total_elapsed.value.value_or(clock_.last_time);
        s.mut_elapsed = Figure<std::uint64_t>::estimate(
            total - std::min(total, gc_elapsed_),
            "Total less GC: INIT and EXIT count as MUT here, for lack of the main bound task's TASK_CREATE and "
            "TASK_DELETE");
    }
    if (s.bytes_allocated.known() && s.mut_elapsed.known() && *s.mut_elapsed.value > 0) {
        s.alloc_rate = Figure<double>::estimate(
            static_cast<double>(*s.bytes_allocated.value) / (static_cast<double>(*s.mut_elapsed.value) / 1e9),
            "bytes per elapsed MUT second; the runtime divides by MUT CPU time, which is not in the eventlog");
    } else {
        s.alloc_rate = Figure<double>::missing("needs bytes allocated and MUT time");
    }
    if (s.mut_elapsed.known() && s.total_elapsed.known() && *s.total_elapsed.value > 0) {
        double total = static_cast<double>(*s.total_elapsed.value);
        // The runtime's productivity counts census (PROF) time as the mutator's, unlike its MUT line.
        const double prof = s.prof_elapsed.value ? static_cast<double>(*s.prof_elapsed.value) : 0.0;
        s.productivity =
            Figure<double>::estimate((static_cast<double>(*s.mut_elapsed.value) + prof) / total,
                                     s.prof_elapsed.value ? "(MUT + PROF) / Total, elapsed, as the runtime computes it"
                                                          : "MUT / Total, elapsed");
        if (s.gc_elapsed.known())
            s.gc_share = Figure<double>::estimate(
                static_cast<double>(*s.gc_elapsed.value) / total,
                "GC / Total, elapsed. The non-threaded runtime prints 0.0% here: its Stats.c divides integer "
                "nanoseconds, which gives 0 unless GC took all the time");
    } else {
        s.productivity = Figure<double>::missing("needs MUT and Total time");
        s.gc_share = Figure<double>::missing("needs GC and Total time");
    }

    // ---- the seed's conventions -------------------------------------------------------------------
    const double span = static_cast<double>(clock_.last_time - clock_.first_time);
    if (seed_timed_ == 0 && collections_ > 0) {
        s.seed_gc_elapsed = Figure<double>::missing("no collection has a capability with both GC_START and GC_END");
        s.seed_max_pause = Figure<double>::missing("no collection has a capability with both GC_START and GC_END");
    } else {
        s.seed_gc_elapsed =
            Figure<double>::exact(seed_gc_elapsed_,
                                  "Σ over collections of the average over the capabilities that took part of their "
                                  "GC_START..GC_END");
        s.seed_max_pause = Figure<double>::exact(
            seed_max_pause_, "max over collections of the average pause over the capabilities that took part");
    }
    if (s.seed_gc_elapsed.known() && span > 0) {
        s.seed_mut_elapsed = Figure<double>::exact(span - *s.seed_gc_elapsed.value,
                                                   "the eventlog's span (first to last event) less the seed's GC time");
        s.seed_productivity = Figure<double>::exact(*s.seed_mut_elapsed.value / span, "seed MUT / the eventlog's span");
    } else {
        s.seed_mut_elapsed = Figure<double>::missing("an empty eventlog");
        s.seed_productivity = Figure<double>::missing("an empty eventlog");
    }
    s.gc_sync_count = sync_count_;
    s.gc_sync_total_ns = sync_total_;
    s.gc_sync_max_ns = sync_max_;
    return s;
}

}  // namespace el2fx::gc
