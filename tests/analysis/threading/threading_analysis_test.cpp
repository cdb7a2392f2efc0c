// The driver: dispatch of scheduler events to capability and thread analyses,
// the results it collects, and the plain-text span listing.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <map>
#include <string>
#include <vector>
#include <unistd.h>

#include "make_event.hpp"
#include "analysis/threading/spans_text.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "eventlog_builder.hpp"
#include "util/error.hpp"
#include "printing.hpp"

using el2fx::Diagnostic;
using el2fx::Diagnostics;
using namespace el2fx::analysis;
namespace ev = el2fx::eventlog;

namespace {

constexpr std::uint16_t kYield = 3;
constexpr std::uint16_t kFinished = 5;
constexpr std::uint16_t kMVar = 7;
constexpr std::uint16_t kBlackHole = 8;

template <typename Payload>
ev::Event event(std::uint64_t time, std::optional<ev::CapNo> cap, Payload payload) {
    return el2fx::testing::make_event(time, cap, payload);
}

std::string spans_text(const ThreadingResult& result) {
    std::string out;
    write_spans_text(out, result);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(threading_analysis)

BOOST_AUTO_TEST_CASE(driver_rejects_a_zero_sampling_interval) {
    Diagnostics d;
    BOOST_CHECK_THROW(ThreadingAnalysis(d, ThreadingOptions{0}), el2fx::Error);
}

// The one default and the one check of the interval (sampling_interval.hpp): the conversion's
// options and the analysis's start from the same default, and only 0 is refused.
BOOST_AUTO_TEST_CASE(the_sampling_interval_has_one_default_and_one_check) {
    BOOST_TEST(ThreadingOptions{}.sampling_interval_ns == el2fx::analysis::kDefaultSamplingIntervalNs);
    BOOST_CHECK_THROW(el2fx::analysis::check_sampling_interval(0), el2fx::Error);
    BOOST_CHECK_NO_THROW(el2fx::analysis::check_sampling_interval(1));
}

BOOST_AUTO_TEST_CASE(driver_dispatches_run_stop_and_gc_to_capability_and_thread) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(100, 0, ev::BlockMarker{0, 0, 0}));
    a.handle(event(110, 0, ev::RunThread{1}));
    a.handle(event(150, 0, ev::StopThread{1, kMVar, 0}));
    a.handle(event(160, 0, ev::StartGC{}));
    a.handle(event(170, 0, ev::EndGC{}));
    a.handle(event(180, 0, ev::RunThread{1}));
    a.handle(event(190, 0, ev::StopThread{1, kFinished, 0}));
    a.handle(event(200, std::nullopt, ev::CapsetDelete{0}));  // global events end the log too
    ThreadingResult r = a.finish();

    BOOST_TEST(r.end_time == 200u);
    BOOST_REQUIRE(r.capabilities.size() == 1u);
    const CapabilityTimeline& cap = r.capabilities[0];
    BOOST_TEST(cap.cap == 0u);
    BOOST_TEST(cap.start == 100u);
    BOOST_TEST(cap.end == 200u);
    const std::vector<CapabilitySpan> want_cap{
        {100, 110, CapabilityActivity::idle()}, {110, 150, CapabilityActivity::mutator(1)},
        {150, 160, CapabilityActivity::idle()}, {160, 170, CapabilityActivity::gc()},
        {170, 180, CapabilityActivity::idle()}, {180, 190, CapabilityActivity::mutator(1)},
        {190, 200, CapabilityActivity::idle()}};
    BOOST_TEST(cap.spans == want_cap, boost::test_tools::per_element());

    BOOST_REQUIRE(r.threads.size() == 1u);
    const ThreadTimeline& thread = r.threads[0];
    BOOST_TEST(thread.thread == 1u);
    const std::vector<ThreadStateSpan> want_thread{{110, 150, ThreadActivity::running(0)},
                                                   {150, 180, ThreadActivity::blocked(BlockReason{kMVar, 0})},
                                                   {180, 190, ThreadActivity::running(0)}};
    BOOST_TEST(thread.spans == want_thread, boost::test_tools::per_element());
    BOOST_TEST(d.count(Diagnostic::mutator_run_thread_mismatch) == 0u);
}

BOOST_AUTO_TEST_CASE(driver_samples_threads_and_capabilities) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(0, 0, ev::BlockMarker{0, 0, 0}));
    a.handle(event(5, 0, ev::RunThread{1}));
    a.handle(event(25, 0, ev::StopThread{1, kMVar, 0}));
    a.handle(event(50, 0, ev::RunThread{1}));
    a.handle(event(52, 0, ev::StopThread{1, kFinished, 0}));
    a.handle(event(60, 0, ev::StartGC{}));
    ThreadingResult r = a.finish();

    const auto running = ThreadActivity::running(0);
    const auto mvar = ThreadActivity::blocked(BlockReason{kMVar, 0});
    // Blocked 25..50: two intervals, 5 left; the tick at 50 sees it running again.
    const std::vector<Sample<ThreadActivity>> want_thread{{10, 5, 1, running}, {20, 10, 1, running},
                                                          {35, 5, 1, mvar},    {45, 0, 1, mvar},
                                                          {50, 0, 1, running}, {52, 2, 0, running}};
    BOOST_TEST(r.threads.at(0).samples == want_thread, boost::test_tools::per_element());

    // Idle 0..5 (below the interval) and 25..50: 30 off, three intervals. Idle
    // again 52..60 (8, below the interval), then GC until the end of the log at 60.
    const auto idle = CapabilityActivity::idle();
    const auto mutator = CapabilityActivity::mutator(1);
    const std::vector<Sample<CapabilityActivity>> want_cap{{10, 5, 1, mutator}, {20, 10, 1, mutator},
                                                           {30, 5, 1, idle},    {50, 0, 2, idle},
                                                           {50, 0, 1, mutator}, {60, 2, 0, CapabilityActivity::gc()}};
    BOOST_TEST(r.capabilities.at(0).samples == want_cap, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(driver_thread_moves_between_capabilities) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(10, 0, ev::RunThread{4}));
    a.handle(event(20, 0, ev::StopThread{4, kYield, 0}));
    a.handle(event(21, 0, ev::MigrateThread{4, 1}));
    a.handle(event(30, 1, ev::RunThread{4}));
    a.handle(event(40, 1, ev::StopThread{4, kBlackHole, 9}));
    a.handle(event(50, std::nullopt, ev::CapsetDelete{0}));
    ThreadingResult r = a.finish();
    BOOST_REQUIRE(r.capabilities.size() == 2u);
    BOOST_TEST(r.capabilities[1].start == 30u);
    BOOST_TEST(spans_text(r) ==
               "cap 0: 10-20: mutator thread 4\n"
               "cap 0: 20-50: idle\n"
               "cap 1: 30-40: mutator thread 4\n"
               "cap 1: 40-50: idle\n"
               "thread 4: 10-20: running on cap 0\n"
               "thread 4: 20-30: thread yielding\n"
               "thread 4: 30-40: running on cap 1\n"
               "thread 4: 40-50: blocked on black hole owned by thread 9\n");
}

// Threads 1 and 65 share a place among the recently seen threads: each event still finds
// its own thread, and a finished one is gone for the events after it.
BOOST_AUTO_TEST_CASE(driver_tells_threads_apart_that_share_a_recent_place) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(10, 0, ev::RunThread{1}));
    a.handle(event(20, 0, ev::StopThread{1, kMVar, 0}));
    a.handle(event(30, 0, ev::RunThread{65}));
    a.handle(event(35, 0, ev::WakeupThread{1, 0}));
    a.handle(event(40, 0, ev::StopThread{65, kFinished, 0}));
    a.handle(event(45, 0, ev::WakeupThread{65, 0}));
    a.handle(event(50, 0, ev::RunThread{1}));
    a.handle(event(60, 0, ev::StopThread{1, kYield, 0}));
    a.handle(event(70, 0, ev::RunThread{65}));
    ThreadingResult r = a.finish();
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 2u);
    BOOST_TEST(spans_text(r) ==
               "cap 0: 10-20: mutator thread 1\n"
               "cap 0: 20-30: idle\n"
               "cap 0: 30-40: mutator thread 65\n"
               "cap 0: 40-50: idle\n"
               "cap 0: 50-60: mutator thread 1\n"
               "cap 0: 60-70: idle\n"
               "thread 1: 10-20: running on cap 0\n"
               "thread 1: 20-50: blocked on an MVar\n"
               "thread 1: 50-60: running on cap 0\n"
               "thread 1: 60-70: thread yielding\n"
               "thread 65: 30-40: running on cap 0\n");
}

BOOST_AUTO_TEST_CASE(driver_ignores_false_run_and_wakeup_after_thread_finished) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(10, 0, ev::RunThread{2}));
    a.handle(event(20, 0, ev::StopThread{2, kFinished, 0}));
    a.handle(event(21, 0, ev::RunThread{2}));
    a.handle(event(21, 0, ev::WakeupThread{2, 0}));
    a.handle(event(30, 0, ev::RunThread{3}));
    a.handle(event(40, 0, ev::StopThread{3, kYield, 0}));
    ThreadingResult r = a.finish();
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 2u);
    BOOST_TEST(d.count(Diagnostic::mutator_run_thread_mismatch) == 0u);
    // A thread blocked at the very end keeps its (empty) span: it is blocked there.
    BOOST_TEST(spans_text(r) ==
               "cap 0: 10-20: mutator thread 2\n"
               "cap 0: 20-30: idle\n"
               "cap 0: 30-40: mutator thread 3\n"
               "thread 2: 10-20: running on cap 0\n"
               "thread 3: 30-40: running on cap 0\n"
               "thread 3: 40-40: thread yielding\n");
}

BOOST_AUTO_TEST_CASE(driver_wakeup_of_an_unknown_thread_creates_nothing) {
    Diagnostics d;
    ThreadingAnalysis a(d);
    a.handle(event(10, 0, ev::WakeupThread{5, 1}));
    ThreadingResult r = a.finish();
    BOOST_TEST(r.threads.empty());
    BOOST_TEST(r.capabilities.size() == 1u);
}

BOOST_AUTO_TEST_CASE(driver_counts_scheduler_events_outside_capability_blocks) {
    Diagnostics d;
    ThreadingAnalysis a(d);
    a.handle(event(10, std::nullopt, ev::RunThread{1}));
    a.handle(event(11, std::nullopt, ev::StartGC{}));
    a.handle(event(12, std::nullopt, ev::CapCreate{0}));
    ThreadingResult r = a.finish();
    BOOST_TEST(d.count(Diagnostic::scheduler_event_without_capability) == 2u);
    BOOST_TEST(r.capabilities.empty());
    BOOST_TEST(r.threads.empty());
    BOOST_TEST(r.end_time == 12u);
}

BOOST_AUTO_TEST_CASE(driver_never_lets_time_go_back) {
    // Only an event beyond the reader's reorder window can come out of order.
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(10, 0, ev::RunThread{1}));
    a.handle(event(30, 0, ev::StartGC{}));
    a.handle(event(25, 0, ev::EndGC{}));
    ThreadingResult r = a.finish();
    // The GC ends "at 25", that is at 30: a GC of no duration, so no span.
    BOOST_TEST(spans_text(r) ==
               "cap 0: 10-30: mutator thread 1\n"
               "thread 1: 10-30: running on cap 0\n");
    BOOST_TEST(d.count(Diagnostic::gc_during_mutator_span) == 1u);
}

BOOST_AUTO_TEST_CASE(driver_reads_an_eventlog_through_the_time_ordered_reader) {
    el2fx::testing::EventlogBuilder b;
    b.declare_block_marker()
        .declare<ev::RunThread>()
        .declare<ev::StopThread>()
        .declare<ev::StartGC>()
        .declare<ev::EndGC>()
        .declare<ev::CapsetCreate>();
    b.begin_block(100, 0).event(110, ev::RunThread{1}).event(300, ev::StopThread{1, kYield, 0}).end_block();
    b.begin_block(105, 1)
        .event(120, ev::RunThread{2})
        .event(200, ev::StopThread{2, kFinished, 0})
        .event(250, ev::StartGC{})
        .event(280, ev::EndGC{})
        .end_block();
    b.begin_block(50, ev::kGlobalCap).event(60, ev::CapsetCreate{0, 2}).event(350, ev::CapsetCreate{1, 3}).end_block();
    const std::string bytes = b.finish();

    char name[] = "/tmp/el2fx-analysis-test-XXXXXX";
    const int fd = ::mkstemp(name);
    BOOST_REQUIRE(fd >= 0);
    BOOST_REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    ::close(fd);
    Diagnostics d;
    std::string text;
    {
        ev::InputFile input(name);
        ev::TimeOrderedReader reader(input, d);
        write_spans_text(text, analyse_threading(reader, d));
    }
    ::unlink(name);
    BOOST_TEST(text ==
               "cap 0: 100-110: idle\n"
               "cap 0: 110-300: mutator thread 1\n"
               "cap 0: 300-350: idle\n"
               "cap 1: 105-120: idle\n"
               "cap 1: 120-200: mutator thread 2\n"
               "cap 1: 200-250: idle\n"
               "cap 1: 250-280: gc\n"
               "cap 1: 280-350: idle\n"
               "thread 1: 110-300: running on cap 0\n"
               "thread 1: 300-350: thread yielding\n"
               "thread 2: 120-200: running on cap 1\n");
}

BOOST_AUTO_TEST_CASE(spans_text_names_block_reasons) {
    ThreadingResult r;
    r.threads.push_back(ThreadTimeline{7,
                                       {{0, 1, ThreadActivity::blocked(BlockReason{kBlackHole, 3})},
                                        {1, 2, ThreadActivity::blocked(BlockReason{kBlackHole, 0})},
                                        {2, 3, ThreadActivity::blocked(BlockReason{18, 0})},
                                        {3, 4, ThreadActivity::blocked(BlockReason{20, 0})},
                                        {4, 5, ThreadActivity::blocked(BlockReason{99, 0})}},
                                       {}});
    BOOST_TEST(spans_text(r) ==
               "thread 7: 0-1: blocked on black hole owned by thread 3\n"
               "thread 7: 1-2: blocked on black hole\n"
               "thread 7: 2-3: blocked in throwTo\n"
               "thread 7: 3-4: blocked reading an MVar\n"
               "thread 7: 4-5: unknown status 99\n");
}

// A streaming sink sees exactly what the collector keeps, in time order per capability and
// per thread, and finish() then gives only the capabilities' lives.
BOOST_AUTO_TEST_CASE(a_sink_receives_every_span_and_sample_as_they_become_final) {
    struct Recording final : ThreadingSink {
        ThreadingResultCollector all;
        std::vector<std::string> calls;
        std::map<ev::CapNo, std::uint64_t> cap_time;
        std::map<ev::ThreadId, std::uint64_t> thread_time;
        void capability_started(ev::CapNo cap, std::uint64_t time) override {
            all.capability_started(cap, time);
            calls.push_back("start " + std::to_string(cap));
        }
        void capability_span(ev::CapNo cap, const CapabilitySpan& s) override {
            BOOST_TEST(s.start >= cap_time[cap]);
            cap_time[cap] = s.start;
            all.capability_span(cap, s);
        }
        void capability_sample(ev::CapNo cap, const Sample<CapabilityActivity>& s) override {
            all.capability_sample(cap, s);
        }
        void thread_span(ev::ThreadId t, const ThreadStateSpan& s) override {
            BOOST_TEST(s.start >= thread_time[t]);
            thread_time[t] = s.start;
            all.thread_span(t, s);
        }
        void thread_sample(ev::ThreadId t, const Sample<ThreadActivity>& s) override { all.thread_sample(t, s); }
    };
    std::vector<ev::Event> events = {
        event(100, 0, ev::RunThread{1}),
        event(105, 1, ev::RunThread{2}),
        event(140, 1, ev::StopThread{2, kMVar, 0}),
        event(150, 0, ev::StopThread{1, kYield, 0}),
        event(160, 0, ev::StartGC{}),
        event(170, 1, ev::StartGC{}),
        event(190, 0, ev::EndGC{}),
        event(195, 1, ev::EndGC{}),
        event(200, 1, ev::RunThread{1}),
        event(230, 1, ev::StopThread{1, kFinished, 0}),
    };
    Diagnostics d1, d2;
    ThreadingAnalysis kept(d1, ThreadingOptions{10});
    Recording sink;
    ThreadingAnalysis streamed(d2, ThreadingOptions{10}, &sink);
    for (const ev::Event& e : events) {
        kept.handle(e);
        streamed.handle(e);
    }
    ThreadingResult expected = kept.finish();
    ThreadingResult lives = streamed.finish();
    BOOST_TEST((sink.calls == std::vector<std::string>{"start 0", "start 1"}));
    ThreadingResult got = sink.all.take(lives.end_time);
    BOOST_TEST(spans_text(got) == spans_text(expected));
    BOOST_REQUIRE(got.capabilities.size() == expected.capabilities.size());
    for (std::size_t i = 0; i < got.capabilities.size(); ++i) {
        BOOST_TEST((got.capabilities[i].samples == expected.capabilities[i].samples));
        BOOST_TEST(lives.capabilities[i].start == expected.capabilities[i].start);
        BOOST_TEST(lives.capabilities[i].spans.empty());
    }
    BOOST_REQUIRE(got.threads.size() == expected.threads.size());
    for (std::size_t i = 0; i < got.threads.size(); ++i)
        BOOST_TEST((got.threads[i].samples == expected.threads[i].samples));
    BOOST_TEST(lives.threads.empty());
    BOOST_TEST(!expected.capabilities.front().samples.empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(gc_phases)

// The tick key of each sample of capability `cap`, as "phase@time".
std::vector<std::string> gc_ticks(const ThreadingResult& r, std::size_t cap) {
    static const char* const kNames[] = {"collecting", "working", "idle", "done", "census"};
    std::vector<std::string> out;
    for (const auto& s : r.capabilities.at(cap).samples) {
        if (s.weight == 0) continue;
        if (s.key.state != CapabilityState::gc) {
            out.push_back((s.key.state == CapabilityState::idle ? "off@" : "mutator@") + std::to_string(s.time));
            continue;
        }
        out.push_back(std::string(kNames[static_cast<int>(s.key.phase)]) + "@" + std::to_string(s.time));
    }
    return out;
}

BOOST_AUTO_TEST_CASE(work_idle_and_done_change_samples_but_not_the_gc_span) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(0, 0, ev::BlockMarker{0, 0, 0}));
    a.handle(event(1, 0, ev::StartGC{}));
    a.handle(event(15, 0, ev::GCWork{}));
    a.handle(event(35, 0, ev::GCIdle{}));
    a.handle(event(45, 0, ev::GCDone{}));
    a.handle(event(58, 0, ev::EndGC{}));  // the pending GC_DONE takes effect as "done"
    ThreadingResult r = a.finish();
    BOOST_TEST((gc_ticks(r, 0) ==
                std::vector<std::string>{"collecting@10", "working@20", "working@30", "idle@40", "done@50"}));
    // One GC span 1..58, as the seed draws it.
    const auto& spans = r.capabilities.at(0).spans;
    BOOST_REQUIRE(spans.size() >= 2u);
    BOOST_TEST((spans[1] == CapabilitySpan{1, 58, CapabilityActivity::gc()}));
}

BOOST_AUTO_TEST_CASE(a_census_sample_turns_the_last_gc_done_into_census_time) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(0, 0, ev::BlockMarker{0, 0, 0}));
    a.handle(event(0, 1, ev::BlockMarker{0, 0, 1}));
    a.handle(event(1, 0, ev::StartGC{}));
    a.handle(event(2, 1, ev::StartGC{}));
    a.handle(event(3, 0, ev::GCWork{}));
    a.handle(event(4, 1, ev::GCWork{}));
    a.handle(event(12, 1, ev::GCDone{}));  // a helper: waits to be released
    a.handle(event(14, 0, ev::GCDone{}));  // the initiating capability: its census follows
    a.handle(event(47, std::nullopt, ev::HeapProfSampleBegin{1}));
    a.handle(event(48, std::nullopt, ev::HeapProfSampleEnd{1}));
    a.handle(event(52, 0, ev::EndGC{}));
    a.handle(event(53, 1, ev::EndGC{}));
    ThreadingResult r = a.finish();
    BOOST_TEST(
        (gc_ticks(r, 0) == std::vector<std::string>{"working@10", "census@20", "census@30", "census@40", "census@50"}));
    BOOST_TEST((gc_ticks(r, 1) == std::vector<std::string>{"working@10", "done@20", "done@30", "done@40", "done@50"}));
}

BOOST_AUTO_TEST_CASE(without_a_census_a_held_back_gc_done_is_done_from_its_own_time) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(0, 0, ev::BlockMarker{0, 0, 0}));
    a.handle(event(1, 0, ev::StartGC{}));
    a.handle(event(3, 0, ev::GCWork{}));
    a.handle(event(14, 0, ev::GCDone{}));
    ThreadingResult r = a.finish();  // the log ends in the collection
    BOOST_TEST((gc_ticks(r, 0) == std::vector<std::string>{"working@10"}));
    // The time from 14 is done: the final sample (weight 0) carries it.
    BOOST_TEST((r.capabilities.at(0).samples.back().key == CapabilityActivity::gc(GcPhase::done)));
}

BOOST_AUTO_TEST_CASE(phase_events_outside_a_collection_change_nothing) {
    Diagnostics d;
    ThreadingAnalysis a(d, ThreadingOptions{10});
    a.handle(event(0, 0, ev::BlockMarker{0, 0, 0}));
    a.handle(event(1, 0, ev::RunThread{1}));
    a.handle(event(5, 0, ev::GCWork{}));
    a.handle(event(6, 0, ev::GCDone{}));
    a.handle(event(25, 0, ev::StopThread{1, kYield, 0}));
    ThreadingResult r = a.finish();
    BOOST_TEST((gc_ticks(r, 0) == std::vector<std::string>{"mutator@10", "mutator@20"}));
}

BOOST_AUTO_TEST_SUITE_END()
