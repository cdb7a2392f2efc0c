// gc_event_class.hpp: the GC analysis passes every other event by, so none of those may move
// the heap counters, the collection tracker or the census timer. Each event type of the
// table, with a default payload, checked against each.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "analysis/gc/gc_collection_tracker.hpp"
#include "analysis/gc/gc_event_class.hpp"
#include "analysis/gc/heap_census_timer.hpp"
#include "analysis/gc/heap_counters.hpp"
#include "make_event.hpp"

using namespace el2fx::gc;
namespace ev = el2fx::eventlog;
using el2fx::testing::make_event;

namespace {

template <typename... Ts, typename F>
void for_each_payload(ev::TypeList<Ts...>, F f) {
    (f(Ts{}), ...);
}

// A collection on capability 0 with `other` inside it; the collections done and the anomalies.
template <typename P>
std::pair<std::size_t, std::uint64_t> collection_with(const std::optional<P>& other) {
    GcCollectionTracker tracker;
    std::vector<GcCollection> done;
    tracker.handle(make_event(10, 0, ev::RequestSeqGC{}), done);
    tracker.handle(make_event(11, 0, ev::StartGC{}), done);
    if (other) tracker.handle(make_event(12, 0, *other), done);
    tracker.handle(make_event(13, 0, ev::GlobalSyncGC{}), done);
    tracker.handle(make_event(14, 0, ev::EndGC{}), done);
    tracker.finish(done);
    return {done.size(), tracker.anomalies().total()};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gc_event_class)

BOOST_AUTO_TEST_CASE(other_events_move_no_heap_counter_nor_collection) {
    const auto plain = collection_with<ev::StartGC>(std::nullopt);
    for_each_payload(ev::AllPayloads{}, [&](auto payload) {
        using P = decltype(payload);
        if (is_gc_class_event(P::tag)) return;
        HeapCounters counters;
        BOOST_TEST(!counters.handle(make_event(12, 0, payload)), "tag " << P::tag);
        BOOST_TEST((collection_with<P>(payload) == plain), "tag " << P::tag);
    });
}

BOOST_AUTO_TEST_CASE(the_census_timer_concerns_the_tags_it_acts_on) {
    for_each_payload(ev::AllPayloads{}, [&](auto payload) {
        using P = decltype(payload);
        if (HeapCensusTimer::concerns(P::tag)) return;
        HeapCensusTimer timer;
        timer.handle(make_event(10, 0, ev::StartGC{}));
        timer.handle(make_event(12, 0, ev::GCDone{}));
        timer.handle(make_event(13, 0, payload));
        timer.handle(make_event(14, std::nullopt, ev::HeapProfSampleBegin{}));
        timer.handle(make_event(15, 0, payload));
        timer.handle(make_event(18, std::nullopt, ev::HeapProfSampleEnd{}));
        BOOST_TEST(timer.measured() == 1u, "tag " << P::tag);
        BOOST_TEST(timer.total_ns() == 6u, "tag " << P::tag);
    });
    for (std::uint16_t tag : {ev::StartGC::tag, ev::GCDone::tag, ev::HeapProfSampleBegin::tag, ev::HeapProfSampleEnd::tag})
        BOOST_TEST(HeapCensusTimer::concerns(tag));
}

BOOST_AUTO_TEST_SUITE_END()
