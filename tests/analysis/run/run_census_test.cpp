// The first pass (run_census.hpp): how long each thread ran, where capabilities start, which
// threads it knows (without moments), and where time-profile ticks cover a capability.
#include <boost/test/unit_test.hpp>

#include <utility>
#include <vector>

#include "make_event.hpp"
#include "analysis/run/run_census.hpp"
#include "analysis/run/thread_catalog.hpp"
#include "eventlog/event_types.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::run;
namespace ev = el2fx::eventlog;

namespace {

template <typename Payload>
ev::Event event(std::uint64_t time, std::optional<ev::CapNo> cap, Payload payload) {
    return el2fx::testing::make_event(time, cap, payload);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_census)

BOOST_AUTO_TEST_CASE(running_time_per_thread_from_run_and_stop_on_each_capability) {
    RunCensusCollector c(false);
    c.handle(event(100, 0, ev::CreateThread{1}));
    c.handle(event(110, 0, ev::RunThread{1}));
    c.handle(event(115, 1, ev::CreateThread{2}));
    c.handle(event(120, 1, ev::RunThread{2}));
    c.handle(event(150, 0, ev::StopThread{1, 3, 0}));  // 1 ran 40
    c.handle(event(160, 1, ev::StopThread{2, 5, 0}));  // 2 ran 40
    c.handle(event(170, 1, ev::RunThread{1}));         // 1 migrated to cap 1
    c.handle(event(200, 1, ev::StopThread{1, 3, 0}));  // +30
    c.handle(event(210, 0, ev::RunThread{3}));         // still running at the end
    c.handle(event(250, 0, ev::StartGC{}));
    RunCensus census = c.finish();
    BOOST_TEST(census.running_ns(1) == 70u);
    BOOST_TEST(census.running_ns(2) == 40u);
    BOOST_TEST(census.running_ns(3) == 40u);  // to the last event
    BOOST_TEST(census.capability_starts.at(0) == 100u);
    BOOST_TEST(census.capability_starts.at(1) == 115u);
    BOOST_TEST(census.threads.threads().size() == 3u);
    BOOST_TEST(census.run.events == 10u);
    BOOST_TEST(census.ticks == 0u);
}

BOOST_AUTO_TEST_CASE(catalog_keeps_each_threads_labels_in_order) {
    ThreadCatalog c;
    c.handle(event(10, 0, ev::CreateThread{1}));
    c.handle(event(11, 1, ev::CreateThread{2}));
    c.handle(event(20, 0, ev::ThreadLabel{1, ev::Text{"first"}}));
    c.handle(event(25, 1, ev::ThreadLabel{2, ev::Text{"other"}}));  // interleaved with thread 1's
    c.handle(event(30, 0, ev::ThreadLabel{1, ev::Text{"second"}}));
    c.handle(event(40, 0, ev::StopThread{1, 5, 0}));              // finished
    BOOST_CHECK_THROW(c.label_at(*c.find(1), 20), el2fx::Error);  // labels are sorted by finish()
    c.finish();
    const ThreadFacts& one = *c.find(1);
    const ThreadFacts& two = *c.find(2);
    BOOST_TEST(one.labelled());
    BOOST_TEST(c.label(one) == "second");
    BOOST_TEST(c.label_at(one, 19).empty());
    BOOST_TEST(c.label_at(one, 20) == "first");
    BOOST_TEST(c.label_at(one, 29) == "first");
    BOOST_TEST(c.label_at(one, 30) == "second");
    BOOST_TEST(c.nth_label(one, 0) == "first");
    BOOST_TEST(c.nth_label(one, 1) == "second");
    BOOST_TEST(c.nth_label(one, 2).empty());
    BOOST_TEST(c.label(two) == "other");
    BOOST_TEST(*one.created() == 10u);
    BOOST_TEST(*one.finished() == 40u);
    BOOST_TEST(!two.finished().has_value());
    BOOST_TEST(*c.ordinal(2) == 1u);
    BOOST_TEST(!c.ordinal(3).has_value());
    BOOST_TEST(c.find(3) == nullptr);
}

// A thread keeps only its last label's index; its first follows the previous labelled
// thread's last. Threads without labels in between, and one label alone, must not shift it.
BOOST_AUTO_TEST_CASE(catalog_label_ranges_between_threads) {
    ThreadCatalog c;
    for (std::uint32_t id = 1; id <= 5; ++id) c.handle(event(id, 0, ev::CreateThread{id}));
    c.handle(event(10, 0, ev::ThreadLabel{4, ev::Text{"d1"}}));
    c.handle(event(11, 0, ev::ThreadLabel{2, ev::Text{"b1"}}));
    c.handle(event(12, 0, ev::ThreadLabel{4, ev::Text{"d2"}}));
    c.handle(event(13, 0, ev::ThreadLabel{1, ev::Text{"a1"}}));
    c.handle(event(14, 0, ev::ThreadLabel{4, ev::Text{"d3"}}));
    c.handle(event(15, 0, ev::ThreadLabel{2, ev::Text{"b2"}}));
    BOOST_TEST(c.label(*c.find(4)) == "d3");  // before finish() too
    c.finish();
    const ThreadFacts &a = *c.find(1), &b = *c.find(2), &none = *c.find(3), &d = *c.find(4), &e = *c.find(5);
    BOOST_TEST(!none.labelled());
    BOOST_TEST(!e.labelled());
    BOOST_TEST(c.nth_label(none, 0).empty());
    BOOST_TEST(c.label_at(e, 100).empty());
    BOOST_TEST(c.nth_label(a, 0) == "a1");
    BOOST_TEST(c.nth_label(a, 1).empty());
    BOOST_TEST(c.label_at(a, 12).empty());
    BOOST_TEST(c.label_at(a, 13) == "a1");
    BOOST_TEST(c.nth_label(b, 0) == "b1");
    BOOST_TEST(c.nth_label(b, 1) == "b2");
    BOOST_TEST(c.nth_label(b, 2).empty());
    BOOST_TEST(c.label_at(b, 14) == "b1");
    BOOST_TEST(c.label(b) == "b2");
    BOOST_TEST(c.nth_label(d, 0) == "d1");
    BOOST_TEST(c.nth_label(d, 2) == "d3");
    BOOST_TEST(c.nth_label(d, 3).empty());
    BOOST_TEST(c.label_at(d, 9).empty());
    BOOST_TEST(c.label_at(d, 13) == "d2");
    BOOST_TEST(c.label_at(d, 1000) == "d3");
    BOOST_TEST(c.label(d) == "d3");
}

BOOST_AUTO_TEST_CASE(a_stop_of_another_thread_does_not_end_the_running_one) {
    RunCensusCollector c(false);
    c.handle(event(10, 0, ev::RunThread{1}));
    c.handle(event(20, 0, ev::StopThread{2, 3, 0}));  // odd: not the running thread
    c.handle(event(30, 0, ev::StopThread{1, 3, 0}));
    RunCensus census = c.finish();
    BOOST_TEST(census.running_ns(1) == 20u);
    BOOST_TEST(census.running_ns(2) == 0u);
}

BOOST_AUTO_TEST_CASE(ticks_cover_their_capability_from_one_interval_before_the_first) {
    RunCensusCollector c(false);
    c.handle(event(0, std::nullopt, ev::ProfBegin{1000}));
    ev::ProfSampleCostCentre tick{};
    tick.cap = 1;
    c.handle(event(5000, std::nullopt, tick));
    c.handle(event(6000, std::nullopt, tick));
    RunCensus census = c.finish();
    BOOST_TEST(census.ticks == 2u);
    BOOST_TEST(census.tick_coverage.covers(1, 4500));
    BOOST_TEST(census.tick_coverage.covers(1, 6000));
    BOOST_TEST(!census.tick_coverage.covers(1, 3000));
    BOOST_TEST(!census.tick_coverage.covers(0, 5000));
}

// The convert pass hands ThreadMoments only the tags it concerns: every other event type (a
// default payload each) makes no moment, and each it concerns may.
BOOST_AUTO_TEST_CASE(thread_moments_concern_the_tags_that_make_moments) {
    ThreadMoments moments;
    auto each = [&]<typename... Ts>(ev::TypeList<Ts...>) {
        ([&] {
            const bool made = moments.moment(event(10, 0, Ts{})).has_value();
            if (!ThreadMoments::concerns(Ts::tag)) BOOST_TEST(!made, "tag " << Ts::tag);
        }(), ...);
    };
    each(ev::AllPayloads{});
    for (std::uint16_t tag : {ev::CreateThread::tag, ev::StopThread::tag, ev::MigrateThread::tag, ev::WakeupThread::tag,
                              ev::ThreadLabel::tag})
        BOOST_TEST(ThreadMoments::concerns(tag));
}

// The second pass's moments: one per event of a kind, a thread's labels counted, its finish once.
BOOST_AUTO_TEST_CASE(thread_moments_come_as_the_events_do) {
    std::vector<ThreadMoment> got;
    ThreadMoments moments;
    auto handle = [&](const ev::Event& e) {
        if (std::optional<ThreadMoment> m = moments.moment(e)) got.push_back(*m);
    };
    handle(event(10, 0, ev::CreateThread{1}));
    handle(event(11, 0, ev::ThreadLabel{1, ev::Text{"a"}}));
    handle(event(12, 0, ev::MigrateThread{1, 2}));
    handle(event(13, 2, ev::WakeupThread{1, 0}));
    handle(event(14, 2, ev::ThreadLabel{1, ev::Text{"b"}}));
    handle(event(15, 2, ev::StopThread{1, 5, 0}));
    handle(event(16, 2, ev::StopThread{1, 5, 0}));  // finished again: no second moment
    handle(event(17, 2, ev::StopThread{1, 3, 0}));  // not a finish
    using Kind = ThreadMoment::Kind;
    std::vector<std::pair<Kind, std::uint32_t>> kinds;
    for (const ThreadMoment& m : got) kinds.push_back({m.kind, m.label_index});
    BOOST_TEST((kinds == std::vector<std::pair<Kind, std::uint32_t>>{{Kind::created, 0},
                                                                     {Kind::labelled, 0},
                                                                     {Kind::migrated, 0},
                                                                     {Kind::woken, 0},
                                                                     {Kind::labelled, 1},
                                                                     {Kind::finished, 0}}));
    BOOST_TEST(got[2].other_cap == 2u);
    BOOST_TEST(got[3].cap == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
