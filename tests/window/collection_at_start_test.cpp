// The collection under way at a window's start (window/collection_at_start.hpp), transition by
// transition: what it states at the start, and what of a collection that is not the window's it
// holds back inside the window. The event orders are those of real parallel collections
// (fixtures/concurrency.eventlog): the request, a late GC_END of the previous collection, the
// GC_STARTs, the initiating capability's GC_END before its GC_GLOBAL_SYNC and GC_STATS_GHC, the
// other capabilities' late GC_ENDs.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "make_event.hpp"
#include "window/collection_at_start.hpp"

using namespace el2fx::eventlog;
using el2fx::testing::make_event;
using el2fx::window::CollectionAtStart;

namespace {

struct Stated {
    std::uint16_t tag;
    CapNo cap;
};

std::vector<Stated> stated(CollectionAtStart& c, std::uint64_t from) {
    std::vector<Event> out;
    c.state_at(from, out);
    std::vector<Stated> s;
    for (const Event& e : out) {
        BOOST_TEST(e.time == from);
        BOOST_TEST(e.synthetic);
        s.push_back({e.tag, e.cap.value_or(999)});
    }
    return s;
}

CollectionAtStart fed(const std::vector<Event>& events) {
    CollectionAtStart c;
    for (const Event& e : events) c.handle(e);
    return c;
}

Event ev(std::uint64_t t, CapNo cap, auto payload) { return make_event(t, cap, payload); }

// One parallel collection on capabilities 0 (initiating) and 1, up to (not including) `upto`.
std::vector<Event> parallel_collection_upto(std::size_t upto) {
    std::vector<Event> all = {
        ev(100, 0, RequestParGC{}), ev(110, 1, StartGC{}), ev(120, 0, StartGC{}), ev(130, 0, GCWork{}),
        ev(140, 0, EndGC{}),        ev(141, 0, GlobalSyncGC{}), ev(142, 0, GCStatsGHC{}), ev(150, 1, GCDone{}),
        ev(160, 1, EndGC{}),
    };
    all.resize(upto);
    return all;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(collection_at_start)

BOOST_AUTO_TEST_CASE(no_collection_states_nothing_and_holds_back_nothing) {
    CollectionAtStart c = fed({ev(10, 0, StartGC{}), ev(20, 0, EndGC{}), ev(21, 0, GlobalSyncGC{}),
                               ev(22, 0, GCStatsGHC{})});
    BOOST_TEST(stated(c, 100).empty());
    BOOST_TEST(c.passes(ev(110, 0, StartGC{})));
    BOOST_TEST(c.passes(ev(120, 0, EndGC{})));
    BOOST_TEST(c.passes(ev(121, 0, GlobalSyncGC{})));
    BOOST_TEST(c.passes(ev(122, 0, GCStatsGHC{})));
}

BOOST_AUTO_TEST_CASE(a_request_alone_is_stated_alone) {
    CollectionAtStart c = fed(parallel_collection_upto(1));
    auto s = stated(c, 105);
    BOOST_REQUIRE(s.size() == 1u);
    BOOST_TEST(s[0].tag == RequestParGC::tag);
    BOOST_TEST(s[0].cap == 0u);
}

BOOST_AUTO_TEST_CASE(capabilities_collecting_are_stated_after_the_request) {
    CollectionAtStart c = fed(parallel_collection_upto(3));  // both started
    auto s = stated(c, 125);
    BOOST_REQUIRE(s.size() == 3u);
    BOOST_TEST(s[0].tag == RequestParGC::tag);
    BOOST_TEST(s[1].tag == StartGC::tag);
    BOOST_TEST(s[1].cap == 0u);
    BOOST_TEST(s[2].tag == StartGC::tag);
    BOOST_TEST(s[2].cap == 1u);
    BOOST_TEST(c.in_gc(0));
    BOOST_TEST(c.in_gc(1));
    // Everything of it inside the window passes: it is the window's.
    for (const Event& e : parallel_collection_upto(9))
        if (e.time > 125) BOOST_TEST(c.passes(e));
}

BOOST_AUTO_TEST_CASE(a_synced_collection_is_stated_with_its_sync) {
    CollectionAtStart c = fed(parallel_collection_upto(6));  // synced, no statistics yet
    auto s = stated(c, 141);
    BOOST_REQUIRE(s.size() == 3u);  // request, capability 1's start, the sync
    BOOST_TEST(s[1].tag == StartGC::tag);
    BOOST_TEST(s[1].cap == 1u);
    BOOST_TEST(s[2].tag == GlobalSyncGC::tag);
    BOOST_TEST(s[2].cap == 0u);
    BOOST_TEST(c.passes(ev(142, 0, GCStatsGHC{})));
}

// The case of the phantom: the window starts after the statistics, while capability 1 has yet
// to post its late GC_END. The collection is before the window; its tail is held back.
BOOST_AUTO_TEST_CASE(a_collection_whose_statistics_came_before_the_start_is_left_out) {
    CollectionAtStart c = fed(parallel_collection_upto(7));
    BOOST_TEST(stated(c, 145).empty());
    BOOST_TEST(c.in_gc(1));   // no thread is stated running there
    BOOST_TEST(!c.in_gc(0));
    BOOST_TEST(!c.passes(ev(150, 1, GCDone{})));
    BOOST_TEST(!c.passes(ev(160, 1, EndGC{})));
    // After its late GC_END, capability 1 is itself again.
    BOOST_TEST(c.passes(ev(170, 1, GCWork{})));
    BOOST_TEST(c.passes(ev(180, 1, StartGC{})));
    BOOST_TEST(c.passes(ev(190, 1, EndGC{})));
    // Other capabilities' events pass.
    BOOST_TEST(c.passes(ev(151, 0, RunThread{3})));
}

BOOST_AUTO_TEST_CASE(the_next_request_before_a_late_end_is_stated_and_the_late_end_held_back) {
    std::vector<Event> events = parallel_collection_upto(8);
    events.push_back(ev(155, 0, RequestParGC{}));  // the next collection, before capability 1's late GC_END
    CollectionAtStart c = fed(events);
    auto s = stated(c, 156);
    BOOST_REQUIRE(s.size() == 1u);
    BOOST_TEST(s[0].tag == RequestParGC::tag);
    BOOST_TEST(!c.passes(ev(160, 1, EndGC{})));
    BOOST_TEST(c.passes(ev(170, 1, StartGC{})));
}

// Every capability ended, the sync and statistics not posted yet: the collection is before the
// window, its sync and statistics are held back.
BOOST_AUTO_TEST_CASE(a_collection_every_capability_ended_before_the_start_is_left_out) {
    CollectionAtStart c = fed({ev(100, 0, RequestSeqGC{}), ev(110, 0, StartGC{}), ev(120, 0, EndGC{})});
    BOOST_TEST(stated(c, 121).empty());
    BOOST_TEST(!c.passes(ev(122, 0, GlobalSyncGC{})));
    BOOST_TEST(!c.passes(ev(123, 0, GCStatsGHC{})));
    // The next collection's pass.
    BOOST_TEST(c.passes(ev(200, 0, RequestSeqGC{})));
    BOOST_TEST(c.passes(ev(210, 0, StartGC{})));
    BOOST_TEST(c.passes(ev(220, 0, EndGC{})));
    BOOST_TEST(c.passes(ev(221, 0, GlobalSyncGC{})));
    BOOST_TEST(c.passes(ev(222, 0, GCStatsGHC{})));
}

BOOST_AUTO_TEST_CASE(a_sync_without_statistics_ends_its_collection_at_the_next_start) {
    // Capability 1 joins the next collection after a sync that had no statistics.
    CollectionAtStart c = fed({ev(100, 0, StartGC{}), ev(101, 1, StartGC{}), ev(110, 0, EndGC{}),
                               ev(111, 0, GlobalSyncGC{}), ev(200, 0, StartGC{})});
    auto s = stated(c, 205);
    BOOST_REQUIRE(s.size() == 1u);  // capability 0's start; capability 1 is finishing the old one
    BOOST_TEST(s[0].cap == 0u);
    BOOST_TEST(!c.passes(ev(210, 1, EndGC{})));
}

BOOST_AUTO_TEST_SUITE_END()
