// Groups the per-capability GC events of a time-ordered eventlog into collections
// (GcCollection), following seeds/rts-s-emulation-design.txt and its event-order pitfalls:
//
// - A collection begins with its request (REQUEST_SEQ_GC / REQUEST_PAR_GC) or its first
//   GC_START, whichever comes first: the request may follow other capabilities' GC_START.
// - Capabilities join it with GC_START until GC_GLOBAL_SYNC says all of them are stopped; the
//   capability posting GC_GLOBAL_SYNC and GC_STATS_GHC is the one that ran the collection.
//   A REQUEST or GC_START after that sync belongs to the next collection, even while other
//   capabilities have not yet posted their GC_END of this one (a late GC_END on another cap).
// - The initiating capability's GC_END is stamped with the time the runtime's statistics use,
//   which is earlier than the GC_GLOBAL_SYNC and GC_STATS_GHC written before it: in time order
//   that GC_END comes first. A collection is therefore complete only once it has synced, every
//   capability has ended, and the next collection has synced (or the log ended); HEAP_LIVE,
//   HEAP_SIZE, BLOCKS_SIZE and MEM_RETURN posted after the statistics belong to it.
// - Logs without GC_GLOBAL_SYNC and GC_STATS_GHC (before GHC 7.6): a collection ends when all
//   its capabilities have ended and another begins.
//
// Memory: per capability, plus the collections still open (usually one or two).
#pragma once

#include <cstdint>
#include <vector>

#include "eventlog/event.hpp"
#include "analysis/gc/gc_collection.hpp"

namespace el2fx::gc {

class GcCollectionTracker {
public:
    // Feeds one event (every type may be given; the others are ignored). Collections this
    // event completes are appended to `done`, in the order they began.
    void handle(const eventlog::Event& event, std::vector<GcCollection>& done);
    // Closes everything still open at the end of the log; a collection only requested (no
    // capability started it) is left out. `cut_at`: a window of the log ended there while
    // events went on: what is under way is cut there, not lost (no anomaly), and a collection
    // without its statistics is GcCollection::cut.
    void finish(std::vector<GcCollection>& done, std::optional<std::uint64_t> cut_at = std::nullopt);

    // The transitions, one per event type (handle() dispatches to these).
    void request(CapNo cap, std::uint64_t time, bool parallel, std::vector<GcCollection>& done);
    void start(CapNo cap, std::uint64_t time, std::vector<GcCollection>& done);
    void phase(CapNo cap, std::uint64_t time, GcPhase phase);
    void end(CapNo cap, std::uint64_t time, std::vector<GcCollection>& done);
    void global_sync(CapNo cap, std::uint64_t time, std::vector<GcCollection>& done);
    void stats(CapNo cap, std::uint64_t time, const GcStats& stats, std::vector<GcCollection>& done);
    void heap_allocated(CapNo cap, std::uint64_t total_bytes);
    void heap_live(std::uint64_t bytes);
    void heap_size(std::uint64_t bytes);
    void blocks_size(std::uint64_t bytes);
    void mem_return(const MemReturnBytes& bytes);
    void heap_info(std::uint64_t mblock_size) { mblock_size_ = mblock_size ? mblock_size : mblock_size_; }

    // A collection its consumer is done with: its storage is taken again by the next ones, so
    // that a log with millions of collections allocates for a few only. Optional.
    void recycle(GcCollection&& spent);

    const GcTrackerAnomalies& anomalies() const { return anomalies_; }
    // Sum over capabilities of their latest HEAP_ALLOCATED; none before the first.
    std::optional<std::uint64_t> allocated_total() const {
        return allocated_seen_ ? std::optional(allocated_sum_) : std::nullopt;
    }

private:
    struct CapState {
        bool in_gc = false;
        std::uint64_t collection = 0;  // number of the collection it takes part in
        std::size_t slot = 0;          // its participation's index in that collection
        bool in_phase = false;
        GcPhase phase = GcPhase::work;
        std::uint64_t phase_start = 0;
    };
    struct Open {
        GcCollection c;
        bool synced = false;     // GC_GLOBAL_SYNC (or GC_STATS_GHC) seen
        std::size_t active = 0;  // participations without their GC_END yet
    };

    CapState& cap_state(CapNo cap);
    Open* find(std::uint64_t number);
    // The newest collection if it has not synced yet.
    Open* building();
    // The building collection if capabilities may still join it.
    Open* accepting();
    Open& begin_collection();
    Open* latest_synced();
    void leave(CapState& s, Open& o, std::optional<std::uint64_t> end_time);
    void emit_ready(std::vector<GcCollection>& done);
    void emit_front(std::vector<GcCollection>& done);

    GcParticipation take_participation();  // empty, from recycled storage when there is some

    std::vector<Open> open_;  // oldest first
    // Recycled storage (recycle()): capability lists and participations, emptied, capacity
    // kept; a few dozen at most.
    std::vector<std::vector<GcParticipation>> spare_lists_;
    std::vector<GcParticipation> spare_participations_;
    std::vector<CapState> caps_;
    std::vector<std::uint64_t> allocated_;  // latest HEAP_ALLOCATED per capability
    std::uint64_t allocated_sum_ = 0;
    bool allocated_seen_ = false;
    std::optional<std::uint64_t> previous_allocated_total_;
    std::uint64_t next_number_ = 1;
    std::uint64_t mblock_size_ = 1 << 20;
    GcTrackerAnomalies anomalies_;
};

}  // namespace el2fx::gc
