// The statistics of `+RTS -s`, computed from eventlog events only
// (seeds/rts-s-emulation-design.txt), each figure with how far it can be trusted and, when it
// cannot be derived from this eventlog, why. Beside them, the seed's own conventions, which
// count a collection's pause on every capability that took part.
//
// What the runtime computes, and where the eventlog has it:
//   bytes allocated      Σ over capabilities of the last HEAP_ALLOCATED (the runtime posts one
//                        per capability at every collection and at exit)
//   bytes copied         Σ GC_STATS_GHC.copied
//   maximum residency    max HEAP_LIVE over major collections; samples = major collections
//   maximum slop         max GC_STATS_GHC.slop over major collections
//   per generation       collections and parallel ones (par_n_threads > 1) by GC_STATS_GHC.gen;
//                        elapsed time and pauses from GC_START to GC_END on the initiating
//                        capability, which the runtime stamps with its own statistics' times
//   work balance         Σ par_balanced_copied / Σ copied over parallel collections (GHC >= 8.6)
//   SPARKS               Σ over capabilities of their last SPARK_COUNTERS
//   INIT / MUT / EXIT    split at the program's main bound task (TASK_CREATE / TASK_DELETE of
//                        the process's own OS thread): within microseconds of the runtime's clock
//   Total                the runtime's final HEAP_ALLOCATED events, posted as it stops the clock
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eventlog/event.hpp"
#include "eventlog/event_clock.hpp"
#include "analysis/gc/gc_event_class.hpp"
#include "analysis/gc/heap_census_timer.hpp"
#include "analysis/gc/gc_collection.hpp"
#include "analysis/gc/heap_counters.hpp"

namespace el2fx::gc {

enum class Accuracy : std::uint8_t {
    exact,        // what the runtime computes, from the same numbers
    estimate,     // derived from nearby events; the note says how
    lower_bound,  // the true figure is at least this (e.g. a truncated log)
    unavailable,  // cannot be derived; the note says why
};
const char* accuracy_name(Accuracy a);

template <typename T>
struct Figure {
    std::optional<T> value;
    Accuracy accuracy = Accuracy::unavailable;
    std::string note;  // why it is unavailable, or how it was estimated

    static Figure exact(T v, std::string note = {}) { return {std::move(v), Accuracy::exact, std::move(note)}; }
    static Figure estimate(T v, std::string note) { return {std::move(v), Accuracy::estimate, std::move(note)}; }
    static Figure lower_bound(T v, std::string note) { return {std::move(v), Accuracy::lower_bound, std::move(note)}; }
    static Figure missing(std::string why) { return {std::nullopt, Accuracy::unavailable, std::move(why)}; }
    bool known() const { return value.has_value(); }
};

struct GenerationFigures {
    std::uint16_t gen = 0;
    std::uint64_t collections = 0;
    std::uint64_t par_collections = 0;
    // The runtime's convention: the initiating capability's GC_START..GC_END.
    std::uint64_t timed = 0;  // collections with both (the others lost them to truncation)
    std::uint64_t elapsed_ns = 0;
    std::uint64_t max_pause_ns = 0;
    double avg_pause_ns() const {
        return collections ? static_cast<double>(elapsed_ns) / static_cast<double>(collections) : 0.0;
    }
    // Residency and slop, as the runtime samples them after each collection of this generation.
    std::uint64_t live_samples = 0;
    std::uint64_t max_live = 0;
    std::uint64_t max_slop = 0;
    // The seed's convention: a collection's pause is the average over the capabilities that
    // took part of their GC_START..GC_END.
    std::uint64_t seed_timed = 0;
    double seed_elapsed_ns = 0;
    double seed_max_pause_ns = 0;
    std::uint64_t longest_cap_pause_ns = 0;  // the longest single capability's pause
    double seed_avg_pause_ns() const { return seed_timed ? seed_elapsed_ns / static_cast<double>(seed_timed) : 0.0; }
};

struct SparkFigures {
    std::uint64_t created = 0, dud = 0, overflowed = 0, converted = 0, gcd = 0, fizzled = 0;
    // The runtime's "SPARKS: n" counts every spark it was given, kept or not.
    std::uint64_t total() const { return created + dud + overflowed; }
};

// Per capability, over all collections it took part in (the seed's per-HEC GC summary).
struct CapabilityGcFigures {
    CapNo cap = 0;
    std::uint64_t collections = 0;
    std::uint64_t gc_ns = 0;  // Σ GC_START..GC_END
    std::uint64_t work_ns = 0, idle_ns = 0, done_ns = 0;
};

struct RtsSummary {
    std::string rts_identifier;                // "GHC-9.0.2 rts_thr_l"; empty if the log did not say
    std::optional<bool> threaded;              // from the RTS identifier
    std::optional<std::uint16_t> generations;  // HEAP_INFO_GHC
    std::uint64_t collections = 0;
    std::uint64_t first_time = 0, last_time = 0;  // the eventlog's span
    bool truncated = false;

    Figure<std::uint64_t> bytes_allocated, bytes_copied, max_residency, max_slop, memory_in_use, fragmentation;
    std::uint64_t residency_samples = 0;            // major collections
    Figure<std::uint64_t> max_fragmentation_at_gc;  // the largest GC_STATS_GHC.frag (not a runtime figure)
    Figure<std::vector<GenerationFigures>> generations_table;
    Figure<double> work_balance;  // 0..1
    Figure<SparkFigures> sparks;
    Figure<std::uint64_t> init_elapsed, mut_elapsed, gc_elapsed, exit_elapsed, total_elapsed;  // ns
    // Heap-profile censuses of a profiling runtime (its PROF line, left out of its GC line);
    // missing with no census in the log, or where the runtime is not a profiling one (it counts
    // its censuses in GC and prints no PROF line). gc_elapsed excludes it.
    Figure<std::uint64_t> prof_elapsed;
    bool has_censuses = false;
    Figure<double> alloc_rate;    // bytes per MUT second (elapsed)
    Figure<double> productivity;  // MUT / Total, elapsed; 0..1
    Figure<double> gc_share;      // GC / Total, elapsed (the non-threaded runtime's %GC line)

    // The seed's conventions.
    Figure<double> seed_gc_elapsed;    // ns: Σ over collections of the average pause over capabilities
    Figure<double> seed_mut_elapsed;   // ns: the eventlog's span minus seed_gc_elapsed
    Figure<double> seed_productivity;  // seed_mut / span
    Figure<double> seed_max_pause;     // ns: max over collections of the average pause over capabilities
    std::uint64_t gc_sync_count = 0;   // requests followed by the initiating capability's GC_START
    std::uint64_t gc_sync_total_ns = 0, gc_sync_max_ns = 0;
    std::vector<CapabilityGcFigures> capabilities;

    GcTrackerAnomalies anomalies;
};

// Where the eventlog ended.
struct SummaryEnd {
    bool truncated = false;  // the data stopped before the end-of-data marker
    // A window of the log (src/window) starts here: Total counts from it, INIT is not in it.
    std::optional<std::uint64_t> window_start;
    // A window of the log ended here while the log went on: collections under way are cut there.
    std::optional<std::uint64_t> window_cut;
};

// Feed it every event (handle) with the heap sample it gave (add, right after), and every
// collection the tracker completes (add, in any interleaving); finish() computes the figures.
// Memory grows with generations, capabilities, tasks and collections (two numbers each), not
// with events.
class RtsSummaryCalculator {
public:
    // Inline: most events only move the clock and the count.
    void handle(const eventlog::Event& event) {
        clock_.add(event.time);
        handle_without_clock(event);
    }
    // The same for a caller that counts the events itself (EventClock): only the events this
    // calculator concerns, then every event's count and times at once, before finish().
    // Inline: most GC and heap events only say that the log declares its collections.
    void handle_without_clock(const eventlog::Event& event) {
        if (is_gc_class_event(event.tag)) gc_events_declared_ = true;
        if (reads(event.tag)) handle_concerned(event);
    }
    void set_clock(const eventlog::EventClock& clock) { clock_ = clock; }
    void add(const HeapSample& sample);
    void add(const GcCollection& collection);
    RtsSummary finish(const SummaryEnd& end, const GcTrackerAnomalies& anomalies) const;

    // The tags it acts on: the GC class (it notes that there are some), and those it reads.
    static bool concerns(std::uint16_t tag) { return is_gc_class_event(tag) || reads(tag); }

private:
    // The tags handle_concerned() reads.
    static bool reads(std::uint16_t tag) {
        using namespace eventlog;
        if (HeapCensusTimer::concerns(tag)) return true;
        switch (tag) {
            case RtsIdentifier::tag:
            case OsProcessPid::tag:
            case HeapInfoGHC::tag:
            case TaskCreate::tag:
            case TaskDelete::tag:
            case GCStatsGHC::tag:
            case MemReturn::tag:
            case SparkCounters::tag: return true;
            default: return false;
        }
    }
    void handle_concerned(const eventlog::Event& event);
    GenerationFigures& generation(std::uint16_t gen);
    CapabilityGcFigures& capability(CapNo cap);

    // Run facts.
    std::string rts_identifier_;
    std::optional<std::uint32_t> pid_;
    std::optional<std::uint16_t> generations_;
    eventlog::EventClock clock_;       // every event's count and time range
    bool gc_events_declared_ = false;  // any GC or heap event seen
    // Tasks: sessions of bound tasks (TASK_CREATE .. TASK_DELETE), by OS thread.
    struct TaskSession {
        std::uint64_t task = 0, kernel_tid = 0;
        std::uint64_t created = 0;
        std::optional<std::uint64_t> deleted;
        // Pauses of collections that started before its deletion: the rest are the exit's.
        std::uint64_t pauses_before_deletion = 0;
    };
    std::vector<TaskSession> sessions_;
    std::vector<std::size_t> deletions_;  // sessions_ indexes, in the order of their deletion
    // Heap.
    std::uint64_t allocated_sum_ = 0;
    bool allocated_seen_ = false;
    std::optional<std::uint64_t> last_stats_time_;
    std::optional<std::uint64_t> exit_allocation_time_;  // first HEAP_ALLOCATED after the last GC_STATS_GHC
    std::optional<std::uint64_t> max_heap_size_;
    std::uint32_t max_mblocks_ = 0;  // the most megablocks a MEM_RETURN reported allocated
    std::vector<std::optional<eventlog::SparkCounters>> sparks_;
    // Collections.
    std::uint64_t collections_ = 0, with_stats_ = 0, timed_ = 0;
    std::uint64_t copied_ = 0;
    std::uint64_t par_collections_ = 0, par_copied_ = 0, par_balanced_ = 0, par_max_copied_ = 0;
    std::uint32_t max_par_threads_ = 0;
    bool par_balanced_everywhere_ = true;
    std::uint64_t max_frag_ = 0;
    std::vector<GenerationFigures> gens_;
    std::uint64_t gc_elapsed_ = 0;  // the sum of collections' pauses (censuses included)
    HeapCensusTimer censuses_;
    double seed_gc_elapsed_ = 0, seed_max_pause_ = 0;
    std::uint64_t seed_timed_ = 0;
    std::uint64_t sync_count_ = 0, sync_total_ = 0, sync_max_ = 0;
    std::vector<CapabilityGcFigures> caps_;
};

}  // namespace el2fx::gc
