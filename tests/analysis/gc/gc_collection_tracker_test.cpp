// The collection tracker, transition by transition, and the event-order pitfalls of
// seeds/rts-s-emulation-design.txt: the initiating capability's GC_END stamped before the
// GC_GLOBAL_SYNC and GC_STATS_GHC written ahead of it, late GC_END on other capabilities,
// requests after other capabilities' GC_START, GC_GLOBAL_SYNC tying capabilities together.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

#include "gc_test_util.hpp"

using namespace el2fx::gc;
using namespace el2fx::gc::testing;

BOOST_AUTO_TEST_SUITE(collection_tracker)

BOOST_AUTO_TEST_CASE(one_sequential_collection_on_one_capability) {
    Run r;
    r.feed({
        event(100, 0, ev::RequestSeqGC{}),
        event(110, 0, ev::StartGC{}),
        event(120, 0, ev::GCWork{}),
        event(200, 0, ev::GCIdle{}),
        event(210, 0, ev::GCDone{}),
        event(230, 0, ev::HeapAllocated{0, 1000}),
        event(240, 0, ev::EndGC{}),  // stamped before the sync it follows in the file
        event(250, 0, ev::GlobalSyncGC{}),
        event(260, 0, stats(1, 77)),
        event(270, 0, ev::HeapLive{0, 500}),
        event(300, 0, ev::HeapSize{0, 1 << 20}),
    });
    // Complete only once the next collection syncs or the log ends: heap events may follow.
    BOOST_TEST(r.done.empty());
    const auto& done = r.finish();
    BOOST_REQUIRE_EQUAL(done.size(), 1u);
    const GcCollection& c = done[0];
    BOOST_TEST(c.number == 1u);
    BOOST_REQUIRE(c.request);
    BOOST_TEST(c.request->cap == 0u);
    BOOST_TEST(c.request->time == 100u);
    BOOST_TEST(!c.request->parallel);
    BOOST_REQUIRE_EQUAL(c.caps.size(), 1u);
    BOOST_TEST(c.caps[0].start == 110u);
    BOOST_TEST(*c.caps[0].end == 240u);
    const std::vector<GcPhaseSpan> phases{
        {GcPhase::work, 120, 200}, {GcPhase::idle, 200, 210}, {GcPhase::done, 210, 240}};
    BOOST_TEST(c.caps[0].phases == phases, boost::test_tools::per_element());
    BOOST_TEST(*c.initiating_cap == 0u);
    BOOST_TEST(*c.global_sync_time == 250u);
    BOOST_TEST(*c.stats_time == 260u);
    BOOST_TEST(c.stats->gen == 1u);
    BOOST_TEST(c.stats->copied == 77u);
    BOOST_TEST(*c.allocated_total == 1000u);
    BOOST_TEST(*c.allocated_since_previous == 1000u);
    BOOST_TEST(*c.live_bytes == 500u);
    BOOST_TEST(*c.heap_size == (1u << 20));
    BOOST_TEST(*c.runtime_pause() == 130u);
    BOOST_TEST(*c.sync_duration() == 10u);
    BOOST_TEST(c.is_major(2));
    BOOST_TEST(!c.is_major(3));
    BOOST_TEST(r.tracker.anomalies().total() == 0u);
}

BOOST_AUTO_TEST_CASE(initiating_end_before_its_sync_and_a_late_end_on_the_other_capability) {
    // Capability 1 runs again and asks for the next collection while capability 0 is still in
    // the previous one: its GC_END (410) comes after the next request and start.
    Run ordered;
    std::vector<ev::Event> events = parallel_collection_time_order();
    events.pop_back();  // capability 0's GC_END at 410 comes after the next request
    events.push_back(event(400, 1, ev::RequestParGC{}));
    events.push_back(event(405, 1, ev::StartGC{}));
    events.push_back(event(410, 0, ev::EndGC{}));  // late: belongs to collection 1
    events.push_back(event(420, 0, ev::StartGC{}));
    events.push_back(event(500, 1, ev::EndGC{}));
    events.push_back(event(510, 1, ev::GlobalSyncGC{}));
    ordered.feed(events);
    BOOST_REQUIRE_EQUAL(ordered.done.size(), 1u);  // collection 1 completes when collection 2 syncs
    ordered.feed({event(511, 1, stats(0, 10)), event(520, 0, ev::EndGC{})});
    const auto& done = ordered.finish();
    BOOST_REQUIRE_EQUAL(done.size(), 2u);

    const GcCollection& first = done[0];
    BOOST_REQUIRE_EQUAL(first.caps.size(), 2u);
    BOOST_TEST(first.caps[0].cap == 0u);
    BOOST_TEST(first.caps[0].start == 105u);
    BOOST_TEST(*first.caps[0].end == 410u);
    BOOST_TEST(first.caps[1].cap == 1u);
    BOOST_TEST(*first.caps[1].end == 330u);
    BOOST_TEST(*first.initiating_cap == 1u);
    BOOST_TEST(*first.runtime_pause() == 220u);  // 110..330 on the initiating capability
    BOOST_TEST(*first.sync_duration() == 10u);   // request 100 .. its GC_START 110
    BOOST_TEST(*first.longest_cap_pause() == 305u);
    BOOST_TEST(*first.average_cap_pause() == (305.0 + 220.0) / 2);
    BOOST_TEST(first.first_start() == 105u);
    BOOST_TEST(*first.last_end() == 410u);
    BOOST_TEST(*first.allocated_total == 1300u);
    BOOST_TEST(*first.heap_size == (2u << 20));
    BOOST_TEST(*first.stats->seed_work_balance() == (50.0 / 30.0 - 1.0) / 1.0);
    BOOST_TEST(*first.stats->balanced_ratio() == 40.0 / 50.0);

    const GcCollection& second = done[1];
    BOOST_TEST(second.number == 2u);
    BOOST_TEST(second.request->time == 400u);
    BOOST_REQUIRE_EQUAL(second.caps.size(), 2u);
    BOOST_TEST(second.caps[0].cap == 1u);
    BOOST_TEST(second.caps[0].start == 405u);
    BOOST_TEST(second.caps[1].cap == 0u);
    BOOST_TEST(second.caps[1].start == 420u);
    BOOST_TEST(*second.caps[1].end == 520u);
    BOOST_TEST(*second.allocated_since_previous == 0u);
    BOOST_TEST(ordered.tracker.anomalies().total() == 0u);
}

BOOST_AUTO_TEST_CASE(file_order_and_time_order_give_the_same_collection) {
    // In the file the initiating capability writes GC_GLOBAL_SYNC and GC_STATS_GHC before the
    // GC_END it stamps earlier; a reader in file order sees them in that order.
    std::vector<ev::Event> time_order = parallel_collection_time_order();
    std::vector<ev::Event> file_order = time_order;
    auto end_it = file_order.begin() + 11;  // GC_END of capability 1 at 330
    BOOST_REQUIRE(end_it->tag == ev::EndGC::tag && end_it->time == 330u);
    ev::Event end = *end_it;
    file_order.erase(end_it);
    file_order.insert(file_order.begin() + 13, end);  // after GC_STATS_GHC at 341
    auto a = collections_of(time_order);
    auto b = collections_of(file_order);
    BOOST_REQUIRE_EQUAL(a.size(), 1u);
    BOOST_REQUIRE_EQUAL(b.size(), 1u);
    BOOST_TEST(describe(a[0]) == describe(b[0]));
}

BOOST_AUTO_TEST_CASE(a_request_after_other_capabilities_stopped_joins_their_collection) {
    auto done = collections_of({
        event(100, 0, ev::StartGC{}),  // stopped before the request event was written
        event(105, 1, ev::RequestParGC{}),
        event(110, 1, ev::StartGC{}),
        event(200, 1, ev::EndGC{}),
        event(201, 1, ev::GlobalSyncGC{}),
        event(202, 1, stats(0, 1, 2, 1, 1)),
        event(210, 0, ev::EndGC{}),
    });
    BOOST_REQUIRE_EQUAL(done.size(), 1u);
    BOOST_TEST(done[0].request->cap == 1u);
    BOOST_TEST(done[0].request->time == 105u);
    BOOST_TEST(done[0].caps.size() == 2u);
    BOOST_TEST(*done[0].sync_duration() == 5u);
}

BOOST_AUTO_TEST_CASE(global_sync_separates_collections_when_a_capability_starts_the_next_one_first) {
    // Capability 1 has finished collection 1 and starts collection 2 (no request event: it was
    // asked by another capability) while capability 0 has not yet posted collection 1's GC_END.
    auto done = collections_of({
        event(100, 0, ev::StartGC{}),
        event(101, 1, ev::StartGC{}),
        event(150, 1, ev::EndGC{}),
        event(151, 1, ev::GlobalSyncGC{}),
        event(152, 1, stats(0, 1)),
        event(160, 1, ev::StartGC{}),  // collection 2
        event(170, 0, ev::EndGC{}),    // collection 1, late
        event(180, 0, ev::StartGC{}),  // collection 2
        event(200, 0, ev::EndGC{}),
        event(201, 0, ev::GlobalSyncGC{}),
        event(202, 0, stats(1, 2)),
        event(210, 1, ev::EndGC{}),
    });
    BOOST_REQUIRE_EQUAL(done.size(), 2u);
    BOOST_TEST(describe(done[0]) ==
               "#1 cap0[100,170]{} cap1[101,150]{} init=1 sync=151 stats=152 gen0 copied1 alloc=-/- live=- size=- "
               "blocks=-");
    BOOST_TEST(describe(done[1]) ==
               "#2 cap1[160,210]{} cap0[180,200]{} init=0 sync=201 stats=202 gen1 copied2 alloc=-/- live=- size=- "
               "blocks=-");
}

BOOST_AUTO_TEST_CASE(heap_events_after_the_statistics_belong_to_that_collection_until_the_next_sync) {
    auto done = collections_of({
        event(100, 0, ev::StartGC{}),
        event(110, 0, ev::EndGC{}),
        event(111, 0, ev::GlobalSyncGC{}),
        event(112, 0, stats(1, 1)),
        event(113, 0, ev::HeapLive{0, 10}),
        event(114, 0, ev::HeapSize{0, 20}),
        event(115, 0, ev::BlocksSize{0, 30}),
        event(200, 0, ev::RequestSeqGC{}),
        event(201, 0, ev::HeapSize{0, 25}),  // before the next collection syncs: still the first's
        event(210, 0, ev::StartGC{}),
        event(220, 0, ev::EndGC{}),
        event(221, 0, ev::GlobalSyncGC{}),
        event(222, 0, stats(0, 2)),
        event(223, 0, ev::HeapSize{0, 40}),
    });
    BOOST_REQUIRE_EQUAL(done.size(), 2u);
    BOOST_TEST(*done[0].live_bytes == 10u);
    BOOST_TEST(*done[0].heap_size == 25u);
    BOOST_TEST(*done[0].blocks_size == 30u);
    BOOST_TEST(!done[1].live_bytes);  // minor: the runtime posts no HEAP_LIVE
    BOOST_TEST(*done[1].heap_size == 40u);
}

BOOST_AUTO_TEST_CASE(allocation_is_the_sum_over_capabilities_at_the_statistics) {
    auto done = collections_of({
        event(90, 0, ev::HeapAllocated{0, 100}),
        event(91, 1, ev::HeapAllocated{0, 200}),
        event(100, 0, ev::StartGC{}),
        event(110, 0, ev::EndGC{}),
        event(111, 0, ev::GlobalSyncGC{}),
        event(112, 0, stats(0, 1)),
        event(190, 0, ev::HeapAllocated{0, 150}),
        event(191, 1, ev::HeapAllocated{0, 400}),
        event(200, 0, ev::StartGC{}),
        event(210, 0, ev::EndGC{}),
        event(211, 0, ev::GlobalSyncGC{}),
        event(212, 0, stats(0, 1)),
    });
    BOOST_REQUIRE_EQUAL(done.size(), 2u);
    BOOST_TEST(*done[0].allocated_total == 300u);
    BOOST_TEST(*done[0].allocated_since_previous == 300u);
    BOOST_TEST(*done[1].allocated_total == 550u);
    BOOST_TEST(*done[1].allocated_since_previous == 250u);
}

BOOST_AUTO_TEST_CASE(mem_return_is_converted_to_bytes_with_the_megablock_size) {
    auto done = collections_of({
        event(10, std::nullopt, ev::HeapInfoGHC{0, 2, 0, 1 << 20, 2 << 20, 4096}),
        event(100, 0, ev::StartGC{}),
        event(110, 0, ev::EndGC{}),
        event(111, 0, ev::GlobalSyncGC{}),
        event(112, 0, stats(1, 1)),
        event(113, 0, ev::MemReturn{0, 10, 8, 2}),
    });
    BOOST_REQUIRE_EQUAL(done.size(), 1u);
    BOOST_TEST(done[0].mem_return->current == 10u * (2u << 20));
    BOOST_TEST(done[0].mem_return->returned == 2u * (2u << 20));
}

BOOST_AUTO_TEST_CASE(statistics_before_the_global_sync_still_make_one_collection) {
    auto done = collections_of({
        event(100, 0, ev::StartGC{}),
        event(200, 0, ev::EndGC{}),
        event(201, 0, stats(0, 5)),
        event(202, 0, ev::GlobalSyncGC{}),
    });
    BOOST_REQUIRE_EQUAL(done.size(), 1u);
    BOOST_TEST(*done[0].global_sync_time == 202u);
    BOOST_TEST(done[0].stats->copied == 5u);
}

BOOST_AUTO_TEST_CASE(logs_without_sync_or_statistics_split_collections_when_all_capabilities_ended) {
    Run r;
    r.feed({
        event(100, 0, ev::StartGC{}),
        event(101, 1, ev::StartGC{}),
        event(150, 0, ev::EndGC{}),
        event(160, 1, ev::EndGC{}),
        event(300, 1, ev::StartGC{}),
    });
    BOOST_REQUIRE_EQUAL(r.done.size(), 1u);
    BOOST_TEST(r.done[0].caps.size() == 2u);
    r.feed({event(350, 1, ev::EndGC{})});
    const auto& done = r.finish();
    BOOST_REQUIRE_EQUAL(done.size(), 2u);
    BOOST_TEST(!done[1].initiating_cap);
    BOOST_TEST(r.tracker.anomalies().unsynced_collections == 2u);
}

BOOST_AUTO_TEST_CASE(odd_events_are_counted_and_survived) {
    Run r;
    r.feed({
        event(50, 0, ev::EndGC{}),                                   // without a start
        event(60, 0, ev::GCIdle{}),                                  // outside a collection
        event(100, 0, ev::StartGC{}), event(105, 0, ev::StartGC{}),  // again: the first start stays
        event(110, 1, ev::StartGC{}), event(120, 0, ev::EndGC{}), event(121, 0, ev::GlobalSyncGC{}),
        event(122, 0, stats(0, 1)),
        // Capability 1 never posts its GC_END and starts the next collection.
        event(200, 1, ev::StartGC{}), event(210, 1, ev::EndGC{}), event(211, 1, ev::GlobalSyncGC{}),
        event(212, 1, stats(0, 1)), event(300, 0, ev::StartGC{}),  // open when the log ends
    });
    const auto& done = r.finish();
    BOOST_REQUIRE_EQUAL(done.size(), 3u);
    BOOST_TEST(done[0].caps[0].start == 100u);
    BOOST_TEST(!done[0].caps[1].end);
    BOOST_TEST(done[1].caps[0].cap == 1u);
    BOOST_TEST(*done[1].caps[0].end == 210u);
    BOOST_TEST(!done[2].caps[0].end);
    BOOST_TEST(!done[2].runtime_pause());
    const GcTrackerAnomalies& a = r.tracker.anomalies();
    BOOST_TEST(a.end_without_start == 1u);
    BOOST_TEST(a.phase_outside_gc == 1u);
    BOOST_TEST(a.start_while_in_gc == 1u);
    BOOST_TEST(a.missing_end == 2u);
    BOOST_TEST(a.unsynced_collections == 1u);
}

BOOST_AUTO_TEST_CASE(a_second_request_for_the_same_collection_is_ignored) {
    Run r;
    r.feed({
        event(100, 0, ev::RequestParGC{}),
        event(101, 1, ev::RequestParGC{}),
        event(110, 0, ev::StartGC{}),
    });
    const auto& done = r.finish();
    BOOST_REQUIRE_EQUAL(done.size(), 1u);
    BOOST_TEST(done[0].request->cap == 0u);
    BOOST_TEST(r.tracker.anomalies().extra_request == 1u);
}

// A window's end (or a truncated log) after a request and before any capability stopped: the
// request is no collection, so no "GC" marker with no capability and no start.
BOOST_AUTO_TEST_CASE(a_request_no_capability_acted_on_before_the_end_is_no_collection) {
    Run r;
    r.feed({
        event(100, 0, ev::StartGC{}), event(120, 0, ev::EndGC{}), event(121, 0, ev::GlobalSyncGC{}),
        event(122, 0, stats(0, 1)),
        event(200, 0, ev::RequestParGC{}),  // the log ends here
    });
    const auto& done = r.finish();
    BOOST_REQUIRE_EQUAL(done.size(), 1u);
    BOOST_TEST(done[0].caps.size() == 1u);
    BOOST_TEST(r.tracker.anomalies().total() == 0u);
}

// A window of the log cut at 200 (src/window): collection 2 is under way there, collection 1
// has its statistics but capability 1's late GC_END comes after the cut.
BOOST_AUTO_TEST_CASE(a_window_cut_ends_what_is_under_way_there_without_anomalies) {
    Run r;
    r.feed({
        event(100, 0, ev::StartGC{}), event(101, 1, ev::StartGC{}), event(120, 0, ev::EndGC{}),
        event(121, 0, ev::GlobalSyncGC{}), event(122, 0, stats(0, 1)),
        event(150, 1, ev::GCDone{}),  // capability 1 still in collection 1
        event(180, 0, ev::RequestParGC{}), event(190, 0, ev::StartGC{}), event(195, 0, ev::GCWork{}),
    });
    r.tracker.finish(r.done, 200);
    const auto& done = r.done;
    BOOST_REQUIRE_EQUAL(done.size(), 2u);
    BOOST_TEST(!done[0].cut);  // its statistics are in: it is the window's
    BOOST_TEST(*done[0].caps[1].end == 200u);
    BOOST_TEST(done[0].caps[1].phases.back().end == 200u);
    BOOST_TEST(done[1].cut);  // its statistics come after the cut
    BOOST_REQUIRE_EQUAL(done[1].caps.size(), 1u);
    BOOST_TEST(*done[1].caps[0].end == 200u);
    BOOST_REQUIRE_EQUAL(done[1].caps[0].phases.size(), 1u);
    BOOST_TEST(done[1].caps[0].phases[0].start == 195u);
    BOOST_TEST(done[1].caps[0].phases[0].end == 200u);
    BOOST_TEST(r.tracker.anomalies().total() == 0u);
    // Without the cut, the same events are a log that ended short: the ends are missing.
    Run whole;
    whole.feed({
        event(100, 0, ev::StartGC{}), event(101, 1, ev::StartGC{}), event(120, 0, ev::EndGC{}),
        event(121, 0, ev::GlobalSyncGC{}), event(122, 0, stats(0, 1)), event(190, 0, ev::StartGC{}),
    });
    const auto& short_log = whole.finish();
    BOOST_TEST(!short_log.back().cut);
    BOOST_TEST(whole.tracker.anomalies().missing_end == 2u);
}

BOOST_AUTO_TEST_CASE(a_collection_without_a_start_starts_at_its_sync_statistics_or_request) {
    GcCollection c;
    BOOST_TEST(c.first_start() == 0u);
    c.request = GcRequest{0, 50, true};
    BOOST_TEST(c.first_start() == 50u);
    c.stats_time = 70;
    BOOST_TEST(c.first_start() == 70u);
    c.global_sync_time = 60;
    BOOST_TEST(c.first_start() == 60u);
    GcParticipation p;
    p.cap = 1;
    p.start = 55;
    c.caps.push_back(p);
    BOOST_TEST(c.first_start() == 55u);
}

// Collections given back (recycle) lend their storage to the next ones, which must come out
// exactly as from fresh storage: nothing of the old ones (phases, ends) may remain.
BOOST_AUTO_TEST_CASE(recycled_storage_gives_the_same_collections) {
    const auto events = [] {
        std::vector<ev::Event> e;
        for (std::uint64_t round = 0; round < 30; ++round) {
            const std::uint64_t t = 10'000 * round;
            const ev::CapNo caps = static_cast<ev::CapNo>(1 + round % 3);  // 1, 2 or 3 take part
            e.push_back(event(t, 0, ev::RequestParGC{}));
            for (ev::CapNo cap = 0; cap < caps; ++cap) {
                e.push_back(event(t + 10 + cap, cap, ev::StartGC{}));
                for (std::uint64_t k = 0; k < (round + cap) % 4; ++k) {  // 0 to 3 phases
                    const std::uint64_t at = t + 100 + 10 * k + cap;
                    e.push_back(k % 2 ? event(at, cap, ev::GCIdle{}) : event(at, cap, ev::GCWork{}));
                }
            }
            e.push_back(event(t + 500, 0, ev::GlobalSyncGC{}));
            e.push_back(event(t + 510, 0, stats(0, round)));
            for (ev::CapNo cap = 0; cap < caps; ++cap)
                if (round % 5 != 4 || cap == 0) e.push_back(event(t + 600 + cap, cap, ev::EndGC{}));  // some never end
        }
        return e;
    }();
    Run fresh;
    fresh.feed(events);
    const std::vector<GcCollection>& expected = fresh.finish();
    BOOST_REQUIRE_EQUAL(expected.size(), 30u);

    GcCollectionTracker tracker;
    std::vector<GcCollection> done, got;
    std::vector<const GcPhaseSpan*> given_back;  // the phases' storage of collections recycled
    std::size_t reused = 0;
    const auto take = [&] {
        for (GcCollection& c : done) {
            for (const GcParticipation& p : c.caps)
                if (std::find(given_back.begin(), given_back.end(), p.phases.data()) != given_back.end()) ++reused;
            got.push_back(c);  // a copy: the original goes back
            for (const GcParticipation& p : c.caps) given_back.push_back(p.phases.data());
            tracker.recycle(std::move(c));
            tracker.recycle(std::move(c));  // a moved-from shell: nothing to lend
        }
        done.clear();
    };
    for (const ev::Event& e : events) {
        tracker.handle(e, done);
        take();
    }
    tracker.finish(done);
    take();
    BOOST_TEST(reused > 20u);  // the storage did serve again
    BOOST_REQUIRE_EQUAL(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        BOOST_TEST_CONTEXT("collection " << i) {
            BOOST_TEST(got[i].number == expected[i].number);
            BOOST_REQUIRE_EQUAL(got[i].caps.size(), expected[i].caps.size());
            for (std::size_t j = 0; j < got[i].caps.size(); ++j) {
                BOOST_TEST(got[i].caps[j].cap == expected[i].caps[j].cap);
                BOOST_TEST(got[i].caps[j].start == expected[i].caps[j].start);
                BOOST_TEST(got[i].caps[j].end.value_or(~0ull) == expected[i].caps[j].end.value_or(~0ull));
                BOOST_TEST(got[i].caps[j].phases == expected[i].caps[j].phases, boost::test_tools::per_element());
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
