// One garbage collection as the eventlog tells it, across every capability that took part
// (seeds/rts-s-emulation-design.txt). GcCollectionTracker (gc_collection_tracker.hpp) builds
// these records; nothing here knows the profile format.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/event_types.hpp"

namespace el2fx::gc {

using eventlog::CapNo;

// What a GC thread does inside a collection: GC_WORK, GC_IDLE and GC_DONE each start one.
enum class GcPhase : std::uint8_t { work, idle, done };

struct GcPhaseSpan {
    GcPhase phase = GcPhase::work;
    std::uint64_t start = 0, end = 0;
    bool operator==(const GcPhaseSpan&) const = default;
};

// One capability's part in a collection: GC_START to GC_END on that capability.
struct GcParticipation {
    CapNo cap = 0;
    std::uint64_t start = 0;
    std::optional<std::uint64_t> end;  // none: the log never said (truncated, or a GC_END went missing)
    std::vector<GcPhaseSpan> phases;   // in time order, inside [start, end]
    std::uint64_t pause() const { return end ? *end - start : 0; }
    std::uint64_t phase_total(GcPhase p) const {
        std::uint64_t total = 0;
        for (const GcPhaseSpan& s : phases)
            if (s.phase == p) total += s.end - s.start;
        return total;
    }
};

// REQUEST_SEQ_GC / REQUEST_PAR_GC: a capability asks every other one to stop.
struct GcRequest {
    CapNo cap = 0;
    std::uint64_t time = 0;
    bool parallel = false;
};

// GC_STATS_GHC, without its heap capset.
struct GcStats {
    std::uint16_t gen = 0;
    std::uint64_t copied = 0, slop = 0, frag = 0;
    std::uint32_t par_n_threads = 0;
    std::uint64_t par_max_copied = 0, par_tot_copied = 0;
    std::optional<std::uint64_t> par_balanced_copied;  // GHC >= 8.6

    bool parallel() const { return par_n_threads > 1; }
    // The seed's normalised balance of this collection: 0 serial (one thread copied
    // everything), 1 perfect (every thread copied total/n). None for a serial collection.
    std::optional<double> seed_work_balance() const;
    // The runtime's own measure (GHC >= 8.6): balanced copied / copied.
    std::optional<double> balanced_ratio() const;
};

// MEM_RETURN (GHC >= 9.2), in bytes (the event counts megablocks).
struct MemReturnBytes {
    std::uint64_t current = 0, needed = 0, returned = 0;
};

struct GcCollection {
    std::uint64_t number = 0;  // 1, 2, … in the order collections began
    std::optional<GcRequest> request;
    std::vector<GcParticipation> caps;  // in the order they joined
    // The capability that ran the collection: it posts GC_GLOBAL_SYNC and GC_STATS_GHC, and
    // stamps its GC_START/GC_END with the times the runtime's own statistics use.
    std::optional<CapNo> initiating_cap;
    std::optional<std::uint64_t> global_sync_time;  // GC_GLOBAL_SYNC
    std::optional<std::uint64_t> stats_time;        // GC_STATS_GHC
    std::optional<GcStats> stats;
    // Sum over capabilities of their HEAP_ALLOCATED when GC_STATS_GHC came, and the growth
    // since the previous collection's sum (the -S "Alloc bytes" column).
    std::optional<std::uint64_t> allocated_total;
    std::optional<std::uint64_t> allocated_since_previous;
    // What the runtime posted after its statistics, before the next collection synced.
    std::optional<std::uint64_t> live_bytes;   // HEAP_LIVE (major collections)
    std::optional<std::uint64_t> heap_size;    // HEAP_SIZE
    std::optional<std::uint64_t> blocks_size;  // BLOCKS_SIZE (GHC >= 9.2)
    std::optional<MemReturnBytes> mem_return;  // MEM_RETURN (GHC >= 9.2)
    // Under way where a window of the log ended (src/window) and without its statistics, which
    // come after: its capabilities' pauses end there. Not one of the window's collections.
    bool cut = false;

    const GcParticipation* participation(CapNo cap) const;
    // The initiating capability's GC_START and GC_END: the pause +RTS -s counts.
    const GcParticipation* initiator() const;
    std::optional<std::uint64_t> runtime_pause() const;
    // GC sync: from the request to the GC_START of the capability that then ran the collection.
    std::optional<std::uint64_t> sync_duration() const;
    // From the first GC_START to the last GC_END of any capability that took part (with no
    // GC_START: from the GC_GLOBAL_SYNC, the GC_STATS_GHC or the request).
    std::uint64_t first_start() const;
    std::optional<std::uint64_t> last_end() const;  // none if a capability never ended
    // The seed's pause: the average over the capabilities that took part (and ended).
    std::optional<double> average_cap_pause() const;
    std::optional<std::uint64_t> longest_cap_pause() const;
    // Major: the oldest generation was collected (needs the generation count, HEAP_INFO_GHC).
    bool is_major(std::uint16_t generations) const {
        return stats && generations > 0 && stats->gen + 1u == generations;
    }
};

// Odd things the tracker saw and how it coped; counted, never fatal.
struct GcTrackerAnomalies {
    std::uint64_t start_while_in_gc = 0;     // a second GC_START on a capability already collecting; ignored
    std::uint64_t end_without_start = 0;     // GC_END on a capability not collecting; ignored
    std::uint64_t phase_outside_gc = 0;      // GC_IDLE/WORK/DONE outside GC_START..GC_END; ignored
    std::uint64_t missing_end = 0;           // a participation closed without its GC_END
    std::uint64_t extra_request = 0;         // a second request for the same collection; ignored
    std::uint64_t sync_without_start = 0;    // GC_GLOBAL_SYNC or GC_STATS with no GC_START before
    std::uint64_t stats_without_sync = 0;    // GC_STATS_GHC that no GC_GLOBAL_SYNC announced
    std::uint64_t unsynced_collections = 0;  // collections closed without GC_GLOBAL_SYNC or GC_STATS
    std::uint64_t total() const {
        return start_while_in_gc + end_without_start + phase_outside_gc + missing_end + extra_request +
               sync_without_start + stats_without_sync + unsynced_collections;
    }
};

}  // namespace el2fx::gc
