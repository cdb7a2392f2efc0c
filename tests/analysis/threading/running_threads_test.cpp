// RunningThreads: which thread each capability runs, from RUN_THREAD / STOP_THREAD / GC_START,
// as the converter keeps it once for every contributor (profile_context.hpp).
#include <boost/test/unit_test.hpp>

#include "analysis/threading/running_threads.hpp"
#include "make_event.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::analysis::RunningThreads;
using el2fx::testing::make_event;

BOOST_AUTO_TEST_SUITE(running_threads)

BOOST_AUTO_TEST_CASE(a_run_sets_the_capability_s_thread_and_its_own_stop_clears_it) {
    RunningThreads r;
    BOOST_TEST(!r.on(0).has_value());
    r.handle(make_event(10, CapNo{1}, RunThread{7}));
    BOOST_TEST(!r.on(0).has_value());
    BOOST_TEST((r.on(1) == std::optional<ThreadId>(7)));
    r.handle(make_event(20, CapNo{1}, StopThread{7}));
    BOOST_TEST(!r.on(1).has_value());
}

BOOST_AUTO_TEST_CASE(another_thread_s_stop_leaves_the_running_one) {
    RunningThreads r;
    r.handle(make_event(10, CapNo{0}, RunThread{7}));
    r.handle(make_event(20, CapNo{0}, StopThread{8}));  // a stray stop (a damaged log)
    BOOST_TEST((r.on(0) == std::optional<ThreadId>(7)));
    r.handle(make_event(30, CapNo{0}, RunThread{9}));  // a run without a stop: the new one runs
    BOOST_TEST((r.on(0) == std::optional<ThreadId>(9)));
}

BOOST_AUTO_TEST_CASE(a_collection_stops_the_mutator_on_its_capability_only) {
    RunningThreads r;
    r.handle(make_event(10, CapNo{0}, RunThread{7}));
    r.handle(make_event(11, CapNo{2}, RunThread{8}));
    r.handle(make_event(20, CapNo{0}, StartGC{}));
    BOOST_TEST(!r.on(0).has_value());
    BOOST_TEST((r.on(2) == std::optional<ThreadId>(8)));
}

BOOST_AUTO_TEST_CASE(events_without_a_capability_or_of_other_tags_change_nothing) {
    RunningThreads r;
    r.handle(make_event(10, CapNo{0}, RunThread{7}));
    r.handle(make_event(20, std::nullopt, StopThread{7}));  // the global block: no capability
    r.handle(make_event(21, std::nullopt, StartGC{}));
    r.handle(make_event(22, CapNo{0}, WakeupThread{7, 0}));
    BOOST_TEST((r.on(0) == std::optional<ThreadId>(7)));
    // A RUN_THREAD too short to decode comes as an UnknownEvent with the tag: ignored.
    Event damaged = make_event(23, CapNo{0}, RunThread{9});
    damaged.payload = UnknownEvent{};
    r.handle(damaged);
    BOOST_TEST((r.on(0) == std::optional<ThreadId>(7)));
}

BOOST_AUTO_TEST_CASE(its_interests_are_the_tags_it_acts_on_read) {
    const el2fx::pass::Interests i = RunningThreads::interests();
    for (std::uint16_t tag : {RunThread::tag, StopThread::tag, StartGC::tag}) {
        BOOST_TEST(i.handles.test(tag));
        BOOST_TEST(i.reads.test(tag));
    }
    BOOST_TEST(i.handles.count() == 3u);
    BOOST_TEST(i.counts.none());
}

BOOST_AUTO_TEST_SUITE_END()
