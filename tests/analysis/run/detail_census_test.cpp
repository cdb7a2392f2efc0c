// The census of detail (detail_census.hpp): every transition of its per-capability and
// per-thread spans, its counts, and the histogram the output budget reads.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <vector>

#include "analysis/run/detail_census.hpp"
#include "eventlog/event_types.hpp"
#include "make_event.hpp"

using namespace el2fx::run;
namespace ev = el2fx::eventlog;

namespace {

template <typename Payload>
ev::Event event(std::uint64_t time, std::optional<ev::CapNo> cap, Payload payload) {
    return el2fx::testing::make_event(time, cap, payload);
}

constexpr std::uint16_t kYield = 3, kFinished = 5, kMVar = 7;

}  // namespace

BOOST_AUTO_TEST_SUITE(detail_census)

// The tags it tells apart are the ones handle() does not count as other events (a census
// that counts them elsewhere relies on it: block_census.cpp).
BOOST_AUTO_TEST_CASE(the_tags_told_apart_are_the_ones_not_counted_as_others) {
    std::uint64_t others = 0;
    for (std::uint16_t tag = 0; tag < 256; ++tag) {
        DetailCensusCollector c;
        ev::Event e;
        e.tag = tag;
        e.time = 1;
        c.handle(e);
        const bool counted_as_other = c.finish().other_events == 1;
        BOOST_TEST(counted_as_other == !DetailCensusCollector::tells_apart(tag), "tag " << tag);
        others += counted_as_other;
    }
    BOOST_TEST(others == 246u);
}

// The finished threads' runs: all kept up to the threshold; past it only the busiest, the
// rest summed, and the threshold is then double what was kept (at least the first one).
BOOST_AUTO_TEST_CASE(finished_runs_keep_the_busiest_past_a_doubling_threshold) {
    DetailCensus census;
    FinishedRuns runs(2, 4);
    for (std::uint32_t r : {5u, 1u, 7u, 2u}) runs.add(census, r);
    BOOST_TEST(census.runs_by_thread.size() == 4u);  // at the threshold: nothing pruned
    runs.add(census, 3);                             // past it: the two busiest stay
    BOOST_TEST(census.runs_by_thread.size() == 2u);
    BOOST_TEST(census.other_runs == 1u + 2u + 3u);
    for (std::uint32_t r : {9u, 4u}) runs.add(census, r);  // 4 again: the threshold is max(4, 2 * 2)
    BOOST_TEST(census.runs_by_thread.size() == 4u);
    runs.add(census, 6);
    BOOST_TEST(census.runs_by_thread.size() == 2u);
    BOOST_TEST(census.other_runs == 1u + 2u + 3u + 4u + 5u + 6u);
    std::vector<std::uint32_t> kept = census.runs_by_thread;
    std::sort(kept.begin(), kept.end());
    BOOST_TEST(kept == (std::vector<std::uint32_t>{7, 9}), boost::test_tools::per_element());

    DetailCensus all;
    FinishedRuns every(std::nullopt, 2);  // no limit on tracks: every thread's runs
    for (std::uint32_t r = 1; r <= 10; ++r) every.add(all, r);
    BOOST_TEST(all.runs_by_thread.size() == 10u);
    BOOST_TEST(all.other_runs == 0u);
}

BOOST_AUTO_TEST_CASE(histogram_counts_lengths_at_least_a_resolution) {
    LengthHistogram h;
    h.add(0);
    h.add(1'000);  // [512, 1024) is bucket 10: 1000 is in [512,1024)
    h.add(1'000'000);
    h.add(5'000'000);
    BOOST_TEST(h.count() == 4u);
    BOOST_TEST(h.total_ns() == 6'001'000u);
    BOOST_TEST(h.at_least(0) == 4.0);
    BOOST_TEST(h.at_least(2'000'000) == 1.0);  // only 5 ms: 1 ms is in a lower bucket
    BOOST_TEST(h.at_least(10'000'000) == 0.0);
    BOOST_TEST(h.at_least(1) == 3.0);  // everything but the 0
    // A straddled bucket counts in proportion: 5 ms is in [4.19 ms, 8.39 ms).
    const double part = h.at_least(6'291'456);  // the bucket's middle
    BOOST_TEST(part == 0.5, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(run_then_stop_is_a_running_span_then_an_idle_capability) {
    DetailCensusCollector c;
    c.handle(event(100, 0, ev::RunThread{1}));
    c.handle(event(150, 0, ev::StopThread{1, kYield, 0}));  // ran 50
    c.handle(event(190, 0, ev::RunThread{2}));              // cap idle 40
    DetailCensus d = c.finish();                            // 2 still running: 0 long at the end
    BOOST_TEST(d.running.count() == 2u);
    BOOST_TEST(d.running.total_ns() == 50u);
    BOOST_TEST(d.idle.count() == 1u);
    BOOST_TEST(d.idle.total_ns() == 40u);
    BOOST_TEST(d.threads == 2u);
    BOOST_TEST(d.capabilities == 1u);
}

BOOST_AUTO_TEST_CASE(stop_then_run_again_is_a_stopped_span_on_any_capability) {
    DetailCensusCollector c;
    c.handle(event(100, 0, ev::RunThread{1}));
    c.handle(event(110, 0, ev::StopThread{1, kMVar, 0}));
    c.handle(event(300, 1, ev::RunThread{1}));  // stopped 190, woken on another capability
    c.handle(event(310, 1, ev::StopThread{1, kFinished, 0}));
    DetailCensus d = c.finish();
    BOOST_TEST(d.stopped.count() == 1u);
    BOOST_TEST(d.stopped.total_ns() == 190u);
    BOOST_TEST(d.running.total_ns() == 20u);
    BOOST_REQUIRE(d.runs_by_thread.size() == 1u);
    BOOST_TEST(d.runs_by_thread[0] == 2u);
}

BOOST_AUTO_TEST_CASE(a_finished_thread_is_forgotten_and_a_live_one_is_stopped_to_the_end) {
    DetailCensusCollector c;
    c.handle(event(0, 0, ev::RunThread{1}));
    c.handle(event(10, 0, ev::StopThread{1, kFinished, 0}));
    c.handle(event(20, 0, ev::RunThread{2}));
    c.handle(event(30, 0, ev::StopThread{2, kMVar, 0}));
    c.handle(event(100, 0, ev::CreateThread{3}));
    DetailCensus d = c.finish();
    BOOST_TEST(d.stopped.count() == 1u);  // 2's, from 30 to the last event; 1 finished
    BOOST_TEST(d.stopped.total_ns() == 70u);
    BOOST_TEST(d.runs_by_thread.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_stop_without_its_run_counts_the_thread_but_no_running_span) {
    DetailCensusCollector c;
    c.handle(event(50, 0, ev::StopThread{7, kYield, 0}));  // a log cut before its run
    c.handle(event(80, 0, ev::RunThread{7}));
    DetailCensus d = c.finish();
    BOOST_TEST(d.running.count() == 1u);  // the run from 80 to the end (0 long)
    BOOST_TEST(d.stopped.total_ns() == 30u);
    BOOST_TEST(d.threads == 1u);
}

BOOST_AUTO_TEST_CASE(collections_per_capability_and_open_spans_close_at_the_end) {
    DetailCensusCollector c;
    c.handle(event(0, 0, ev::StartGC{}));
    c.handle(event(5, 1, ev::StartGC{}));
    c.handle(event(20, 0, ev::EndGC{}));
    c.handle(event(25, 1, ev::EndGC{}));
    c.handle(event(40, 1, ev::EndGC{}));  // no start: nothing
    c.handle(event(50, 0, ev::StartGC{}));
    c.handle(event(90, 1, ev::UserMessage{ev::Text{"hello"}}));
    DetailCensus d = c.finish();
    BOOST_TEST(d.gc.count() == 3u);
    BOOST_TEST(d.gc.total_ns() == 20u + 20u + 40u);
    BOOST_TEST(d.capabilities == 2u);
}

BOOST_AUTO_TEST_CASE(messages_moments_and_other_events_are_counted) {
    DetailCensusCollector c;
    c.handle(event(1, 0, ev::UserMessage{ev::Text{"hello"}}));
    c.handle(event(2, 0, ev::UserMarker{ev::Text{"minute 1"}}));
    c.handle(event(3, 0, ev::CreateThread{1}));
    c.handle(event(4, 0, ev::MigrateThread{1, 1}));
    c.handle(event(5, 0, ev::WakeupThread{1, 0}));
    c.handle(event(6, 0, ev::ThreadLabel{1, ev::Text{"main"}}));
    c.handle(event(7, 0, ev::GCIdle{}));
    DetailCensus d = c.finish();
    BOOST_TEST(d.messages == 2u);
    BOOST_TEST(d.message_bytes == 13u);
    BOOST_TEST(d.moments == 2u);
    BOOST_TEST(d.thread_events == 2u);
    BOOST_TEST(d.other_events == 1u);
}

BOOST_AUTO_TEST_CASE(run_share_of_the_busiest_threads) {
    DetailCensus d;
    d.runs_by_thread = {6, 3, 1};
    BOOST_TEST(d.run_share_of_busiest(0) == 0.0);
    BOOST_TEST(d.run_share_of_busiest(1) == 0.6);
    BOOST_TEST(d.run_share_of_busiest(5) == 1.0);
    BOOST_TEST(DetailCensus{}.run_share_of_busiest(0) == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
