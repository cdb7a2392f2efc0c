// The census's own paths for the scheduler events (run_census.cpp: one switch and one thread
// lookup for all the parts) must give what each part's handle() gives for the same events,
// including their odd cases: no capability, no payload, another thread's stop, time going back.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <optional>
#include <vector>

#include "make_event.hpp"
#include "analysis/run/detail_census.hpp"
#include "analysis/run/run_census.hpp"
#include "analysis/run/run_info.hpp"
#include "analysis/run/thread_catalog.hpp"
#include "eventlog/event_types.hpp"

using namespace el2fx;
using namespace el2fx::run;
namespace ev = el2fx::eventlog;

namespace {

constexpr std::uint16_t kFinished = static_cast<std::uint16_t>(ev::StopStatus::ThreadFinished);
constexpr std::uint16_t kYield = static_cast<std::uint16_t>(ev::StopStatus::ThreadYielding);

template <typename Payload>
ev::Event event(std::uint64_t time, std::optional<ev::CapNo> cap, Payload payload) {
    return el2fx::testing::make_event(time, cap, payload);
}

// A scheduler tag whose payload did not decode (a short record).
ev::Event undecoded(std::uint64_t time, std::optional<ev::CapNo> cap, std::uint16_t tag) {
    ev::Event e;
    e.time = time;
    e.cap = cap;
    e.tag = tag;
    return e;
}

std::vector<ev::Event> scheduler_log() {
    return {
        event(5, std::nullopt, ev::CapCreate{3}),
        event(6, std::nullopt, ev::OsProcessPid{0, 42}),
        event(10, 0, ev::CreateThread{1}),
        event(11, 0, ev::RunThread{1}),
        event(12, 0, ev::WakeupThread{2, 1}),  // 2's first event
        event(13, 0, ev::MigrateThread{1, 1}),
        event(14, 0, ev::StopThread{1, kYield, 0}),
        event(15, 1, ev::RunThread{1}),
        event(16, 2, ev::RunThread{2}),
        event(17, 1, ev::StartGC{}),
        event(16, 2, ev::StopThread{1, kYield, 0}),  // another thread's stop, and time going back
        event(18, 1, ev::EndGC{}),
        event(20, std::nullopt, ev::RunThread{4}),  // no capability
        event(21, std::nullopt, ev::StopThread{5, kYield, 0}),
        undecoded(22, 0, ev::RunThread::tag),
        undecoded(23, 0, ev::StopThread::tag),
        undecoded(24, 0, ev::MigrateThread::tag),
        undecoded(25, 0, ev::WakeupThread::tag),
        event(26, 1, ev::ThreadLabel{1, ev::Text{"worker"}}),
        event(30, 1, ev::StopThread{1, kFinished, 0}),
        event(31, 1, ev::StopThread{1, kFinished, 0}),  // finished twice
        event(32, 1, ev::RunThread{1}),                 // and back: a new thread for the detail
        event(40, 2, ev::StopThread{2, kYield, 0}),
        event(41, 4, ev::WakeupThread{6, 0}),  // a capability's first event
        event(50, 2, ev::UserMessage{ev::Text{"hello"}}),
    };
}

void same_histogram(const LengthHistogram& a, const LengthHistogram& b) {
    BOOST_TEST(a.count() == b.count());
    BOOST_TEST(a.total_ns() == b.total_ns());
    for (std::uint64_t at = 1; at != 0; at <<= 1) BOOST_TEST(a.at_least(at) == b.at_least(at));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(census_paths)

BOOST_AUTO_TEST_CASE(the_census_gives_what_its_parts_handle_gives) {
    RunCensusCollector census(false);
    RunInfoCollector info(false);
    DetailCensusCollector detail(std::nullopt, 100'000);
    ThreadCatalog catalog;
    for (const ev::Event& e : scheduler_log()) {
        census.handle(e);
        info.handle(e);
        detail.handle(e);
        catalog.handle(e);
    }
    RunCensus c = census.finish();
    DetailCensus d = detail.finish();
    catalog.finish();

    const RunInfo& i = info.info();
    BOOST_TEST(c.run.events == i.events);
    BOOST_TEST(c.run.events_by_tag == i.events_by_tag);
    BOOST_TEST(c.run.first_time == i.first_time);
    BOOST_TEST(c.run.last_time == i.last_time);
    BOOST_TEST(c.run.capabilities == i.capabilities);
    BOOST_TEST(c.run.capabilities == 5u);  // 0 to 4
    BOOST_TEST((c.run.pid == i.pid));

    same_histogram(c.detail.running, d.running);
    same_histogram(c.detail.stopped, d.stopped);
    same_histogram(c.detail.idle, d.idle);
    same_histogram(c.detail.gc, d.gc);
    BOOST_TEST(c.detail.moments == d.moments);
    BOOST_TEST(c.detail.moments == 5u);  // undecoded ones too
    BOOST_TEST(c.detail.thread_events == d.thread_events);
    BOOST_TEST(c.detail.messages == d.messages);
    BOOST_TEST(c.detail.other_events == d.other_events);
    BOOST_TEST(c.detail.threads == d.threads);
    BOOST_TEST(c.detail.capabilities == d.capabilities);
    BOOST_TEST(c.detail.runs_by_thread == d.runs_by_thread);

    BOOST_REQUIRE(c.threads.threads().size() == catalog.threads().size());
    for (std::size_t n = 0; n < catalog.threads().size(); ++n) {
        const ThreadFacts& a = c.threads.threads()[n];
        const ThreadFacts& b = catalog.threads()[n];
        BOOST_TEST(a.id == b.id);
        BOOST_TEST(a.first_seen == b.first_seen);
        BOOST_TEST((a.created() == b.created()));
        BOOST_TEST((a.finished() == b.finished()));
        BOOST_TEST(c.threads.label(a) == catalog.label(b));
    }
    BOOST_TEST((c.threads.find(1)->finished() == std::optional<std::uint64_t>(30)));

    BOOST_TEST(c.running_ns(1) == (14u - 11u) + (30u - 15u) + (50u - 32u));
    BOOST_TEST(c.running_ns(2) == 40u - 16u);
    BOOST_TEST(c.capability_starts.at(4) == 41u);
    BOOST_TEST(c.capability_starts.at(2) == 16u);
}

// The census's own paths check for forgetting by the thread's ordinal (a new thread is the
// last): threads first seen in a wakeup or a run are forgotten as those first seen in a
// creation are (thread_forgetting_test.cpp).
BOOST_AUTO_TEST_CASE(threads_first_seen_in_scheduler_events_are_forgotten_in_time) {
    for (const bool woken_first : {true, false}) {
        RunCensusCollector c(false, CensusLimits{.thread_tracks = 1, .forget_above = 2});
        std::uint64_t t = 0;
        for (ev::ThreadId id = 1; id <= 6; ++id) {  // thread i runs 10 i ns
            if (woken_first) c.handle(event(t++, 0, ev::WakeupThread{id, 0}));
            c.handle(event(t, 0, ev::RunThread{id}));
            t += 10 * id;
            if (id < 6) c.handle(event(t++, 0, ev::StopThread{id, kFinished, 0}));
        }
        c.handle(event(t, 0, ev::StartGC{}));
        RunCensus census = c.finish();
        // Thread 3's arrival forgets 1 (2 ran longer); 6's forgets 2, 3 and 4.
        BOOST_REQUIRE(census.threads.threads().size() == 2u);
        BOOST_TEST(census.threads.threads()[0].id == 5u);
        BOOST_TEST(census.threads.threads()[1].id == 6u);
        BOOST_TEST(census.threads.forgotten() == 4u);
        BOOST_TEST(census.running_ns(5) == 50u);
        BOOST_TEST(census.running_ns(6) == 60u);  // to the last event
    }
}

// The detail's state of each thread is kept beside the catalog, by its ordinal. A thread that
// finished, ran again and is then forgotten by the catalog (it finished once, and ranks below
// the kept) is still live to the detail: its state must follow it when it comes back, as the
// detail's own (by id) keeps it. Without that, it came back as a new thread with no stopped span.
BOOST_AUTO_TEST_CASE(a_thread_forgotten_while_live_to_the_detail_keeps_its_state) {
    const CensusLimits limits{.thread_tracks = 1, .forget_above = 3};
    RunCensusCollector census(false, limits);
    DetailCensusCollector detail(limits.thread_tracks, limits.forget_above);
    std::vector<ev::Event> log = {
        event(1, 0, ev::CreateThread{1}),
        event(2, 0, ev::RunThread{1}),
        event(3, 0, ev::StopThread{1, kFinished, 0}),
        event(4, 0, ev::RunThread{1}),  // finished, and back: live to the detail again
        event(5, 0, ev::StopThread{1, kYield, 0}),
    };
    std::uint64_t t = 10;
    for (ev::ThreadId id = 2; id <= 6; ++id) {  // longer runs: thread 1 ranks last and is forgotten
        log.push_back(event(t, 1, ev::CreateThread{id}));
        log.push_back(event(t + 1, 1, ev::RunThread{id}));
        log.push_back(event(t + 101, 1, ev::StopThread{id, kFinished, 0}));
        t += 200;
    }
    log.push_back(event(t, 0, ev::RunThread{1}));  // stopped since 5
    log.push_back(event(t + 7, 0, ev::StopThread{1, kFinished, 0}));
    for (const ev::Event& e : log) {
        census.handle(e);
        detail.handle(e);
    }
    const RunCensus c = census.finish();
    const DetailCensus d = detail.finish();
    BOOST_REQUIRE(c.threads.find(1) != nullptr);
    BOOST_TEST(c.threads.find(1)->first_seen == t);  // forgotten, then new to the catalog
    same_histogram(c.detail.stopped, d.stopped);
    same_histogram(c.detail.running, d.running);
    BOOST_TEST(c.detail.stopped.count() == 1u);  // from 5 to its return
    BOOST_TEST(c.detail.stopped.total_ns() == t - 5);
    BOOST_TEST(c.detail.threads == d.threads);
    BOOST_TEST(c.detail.threads == 7u);  // thread 1 twice: before and after its first finish
    BOOST_TEST(c.detail.runs_by_thread == d.runs_by_thread);
}

// Counted in a fixed table below tag 256: the list still ends with the highest tag seen.
BOOST_AUTO_TEST_CASE(events_by_tag_ends_with_the_highest_tag_seen) {
    RunInfoCollector few(false);
    few.handle(event(1, 0, ev::RunThread{1}));
    few.handle(event(2, 0, ev::ProfBegin{}));
    few.handle(event(3, 0, ev::RunThread{1}));
    const RunInfo a = few.info();
    BOOST_REQUIRE(a.events_by_tag.size() == std::size_t{ev::ProfBegin::tag} + 1);
    BOOST_TEST(a.events_by_tag[ev::RunThread::tag] == 2u);
    BOOST_TEST(a.events_by_tag[ev::ProfBegin::tag] == 1u);
    BOOST_TEST(a.events_by_tag[0] == 0u);
    BOOST_TEST(a.events == 3u);

    RunInfoCollector rare(false);
    rare.handle(undecoded(1, 0, 300));  // an unknown event
    rare.handle(event(2, 0, ev::RunThread{1}));
    const RunInfo b = rare.info();
    BOOST_REQUIRE(b.events_by_tag.size() == 301u);
    BOOST_TEST(b.events_by_tag[300] == 1u);
    BOOST_TEST(b.events_by_tag[ev::RunThread::tag] == 1u);
    BOOST_TEST(b.events_by_tag[299] == 0u);

    BOOST_TEST(RunInfoCollector(false).info().events_by_tag.empty());
}

BOOST_AUTO_TEST_SUITE_END()
