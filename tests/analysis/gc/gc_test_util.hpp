// Helpers for the GC tests: typed events without a file, and the collections a tracker
// returns for a list of them.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "make_event.hpp"
#include "eventlog/event.hpp"
#include "analysis/gc/gc_collection_tracker.hpp"
#include "analysis/gc/rts_summary.hpp"

namespace el2fx::gc {

// Boost.Test prints these in failure messages.
inline std::ostream& boost_test_print_type(std::ostream& o, const GcPhaseSpan& s) {
    return o << static_cast<int>(s.phase) << ":" << s.start << "-" << s.end;
}
inline std::ostream& boost_test_print_type(std::ostream& o, Accuracy a) { return o << accuracy_name(a); }

}  // namespace el2fx::gc

namespace el2fx::gc::testing {

namespace ev = el2fx::eventlog;

template <typename Payload>
ev::Event event(std::uint64_t time, std::optional<ev::CapNo> cap, Payload payload) {
    return el2fx::testing::make_event(time, cap, payload);
}

inline ev::GCStatsGHC stats(std::uint16_t gen, std::uint64_t copied, std::uint32_t threads = 1,
                            std::uint64_t max_copied = 0, std::uint64_t balanced = 0, std::uint64_t slop = 100,
                            std::uint64_t frag = 4096) {
    ev::GCStatsGHC s;
    s.heap_capset = 0;
    s.gen = gen;
    s.copied = copied;
    s.slop = slop;
    s.frag = frag;
    s.par_n_threads = threads;
    s.par_max_copied = max_copied;
    s.par_tot_copied = copied;
    s.par_balanced_copied = balanced;
    return s;
}

struct Run {
    std::vector<GcCollection> done;
    GcCollectionTracker tracker;
    void feed(const std::vector<ev::Event>& events) {
        for (const ev::Event& e : events) tracker.handle(e, done);
    }
    const std::vector<GcCollection>& finish() {
        tracker.finish(done);
        return done;
    }
};

inline std::vector<GcCollection> collections_of(const std::vector<ev::Event>& events) {
    Run r;
    r.feed(events);
    return r.finish();
}

inline std::string opt(const std::optional<std::uint64_t>& v) { return v ? std::to_string(*v) : "-"; }

// Every field of a collection, for comparing two of them with a readable message.
inline std::string describe(const GcCollection& c) {
    std::ostringstream o;
    o << "#" << c.number;
    if (c.request)
        o << " request(cap " << c.request->cap << " @" << c.request->time << (c.request->parallel ? " par)" : " seq)");
    for (const GcParticipation& p : c.caps) {
        o << " cap" << p.cap << "[" << p.start << "," << opt(p.end) << "]{";
        for (const GcPhaseSpan& s : p.phases) o << static_cast<int>(s.phase) << ":" << s.start << "-" << s.end << " ";
        o << "}";
    }
    o << " init=" << (c.initiating_cap ? std::to_string(*c.initiating_cap) : "-") << " sync=" << opt(c.global_sync_time)
      << " stats=" << opt(c.stats_time);
    if (c.stats) o << " gen" << c.stats->gen << " copied" << c.stats->copied;
    o << " alloc=" << opt(c.allocated_total) << "/" << opt(c.allocated_since_previous) << " live=" << opt(c.live_bytes)
      << " size=" << opt(c.heap_size) << " blocks=" << opt(c.blocks_size);
    return o.str();
}

// Collection 1 of two capabilities as GHC 9.0 stamps it, in time order: capability 1
// requests and runs it; its GC_END (330) is stamped with the statistics' clock, before the
// GC_GLOBAL_SYNC (340) and GC_STATS_GHC (341) it writes first. Capability 0 resumes late (410).
inline std::vector<ev::Event> parallel_collection_time_order() {
    return {
        event(100, 1, ev::RequestParGC{}),
        event(105, 0, ev::StartGC{}),
        event(110, 1, ev::StartGC{}),
        event(120, 1, ev::GCWork{}),
        event(121, 0, ev::GCWork{}),
        event(300, 0, ev::GCIdle{}),
        event(301, 0, ev::GCDone{}),
        event(310, 1, ev::GCIdle{}),
        event(311, 1, ev::GCDone{}),
        event(320, 0, ev::HeapAllocated{0, 600}),
        event(321, 1, ev::HeapAllocated{0, 700}),
        event(330, 1, ev::EndGC{}),
        event(340, 1, ev::GlobalSyncGC{}),
        event(341, 1, stats(0, 50, 2, 30, 40)),
        event(350, 1, ev::HeapSize{0, 2 << 20}),
        event(410, 0, ev::EndGC{}),
    };
}

}  // namespace el2fx::gc::testing
