// One test or more per arrow of the thread-state automaton (seeds/threading-analyses.md).
#include <boost/test/unit_test.hpp>

#include "analysis/threading/thread_state_analysis.hpp"
#include "printing.hpp"

using el2fx::Diagnostic;
using el2fx::Diagnostics;
using namespace el2fx::analysis;

namespace {
constexpr std::uint16_t kYield = 3;
constexpr std::uint16_t kFinished = 5;
constexpr std::uint16_t kMVar = 7;
constexpr std::uint16_t kBlackHole = 8;

ThreadActivity running(std::uint16_t cap) { return ThreadActivity::running(cap); }
ThreadActivity blocked(std::uint16_t status, std::uint32_t blocker = 0) {
    return ThreadActivity::blocked(BlockReason{status, blocker});
}
// What the thread does now, as a value (activity() points into the analysis, or is null).
std::optional<ThreadActivity> activity(const ThreadStateAnalysis& t) {
    const ThreadActivity* a = t.activity();
    return a ? std::optional(*a) : std::nullopt;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(thread_state_analysis)

BOOST_AUTO_TEST_CASE(thread_initial_state_has_no_activity) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    BOOST_TEST(!activity(t).has_value());
    BOOST_TEST(!t.finished());
    BOOST_TEST(!t.finish(100).has_value());
}

BOOST_AUTO_TEST_CASE(thread_initial_run_thread_enters_running) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    BOOST_TEST(!t.run_thread(10, 1).has_value());
    BOOST_TEST((activity(t) == running(1)));
}

BOOST_AUTO_TEST_CASE(thread_running_to_running_yields_nothing_keeps_earlier_start) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    BOOST_TEST(!t.run_thread(15, 1).has_value());
    BOOST_TEST((t.stop_thread(20, kYield, 0) == ThreadStateSpan{10, 20, running(1)}));
}

BOOST_AUTO_TEST_CASE(thread_running_to_running_keeps_capability) {
    // Running threads cannot migrate, so the capability is not adjusted.
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    (void)t.run_thread(15, 2);
    BOOST_TEST((activity(t) == running(1)));
}

BOOST_AUTO_TEST_CASE(thread_running_to_blocked_yields_running_span_with_capability) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 2);
    BOOST_TEST((t.stop_thread(30, kMVar, 0) == ThreadStateSpan{10, 30, running(2)}));
    BOOST_TEST((activity(t) == blocked(kMVar)));
}

BOOST_AUTO_TEST_CASE(thread_blocked_to_running_yields_blocked_span_with_reason) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 0);
    (void)t.stop_thread(30, kMVar, 0);
    BOOST_TEST((t.run_thread(45, 1) == ThreadStateSpan{30, 45, blocked(kMVar)}));
    BOOST_TEST((activity(t) == running(1)));
}

BOOST_AUTO_TEST_CASE(thread_blocked_to_blocked_yields_second_blocked_span) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 0);
    (void)t.stop_thread(30, kYield, 0);
    BOOST_TEST((t.stop_thread(40, kMVar, 0) == ThreadStateSpan{30, 40, blocked(kYield)}));
    BOOST_TEST((t.run_thread(55, 0) == ThreadStateSpan{40, 55, blocked(kMVar)}));
}

BOOST_AUTO_TEST_CASE(thread_blocked_on_black_hole_keeps_owner) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 0);
    (void)t.stop_thread(30, kBlackHole, 42);
    BOOST_TEST((t.run_thread(40, 0) == ThreadStateSpan{30, 40, blocked(kBlackHole, 42)}));
}

BOOST_AUTO_TEST_CASE(thread_running_stop_finished_yields_running_span_enters_final) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    BOOST_TEST((t.stop_thread(25, kFinished, 0) == ThreadStateSpan{10, 25, running(1)}));
    BOOST_TEST(t.finished());
    BOOST_TEST(!activity(t).has_value());
}

BOOST_AUTO_TEST_CASE(thread_blocked_stop_finished_yields_blocked_span_enters_final) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    (void)t.stop_thread(20, kYield, 0);
    BOOST_TEST((t.stop_thread(25, kFinished, 0) == ThreadStateSpan{20, 25, blocked(kYield)}));
    BOOST_TEST(t.finished());
}

BOOST_AUTO_TEST_CASE(thread_final_ignores_run_thread_and_counts_it) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    (void)t.stop_thread(25, kFinished, 0);
    BOOST_TEST(!t.run_thread(26, 1).has_value());
    BOOST_TEST(t.finished());
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 1u);
    BOOST_TEST(!t.finish(100).has_value());
}

BOOST_AUTO_TEST_CASE(thread_final_ignores_stop_thread_and_counts_it) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    (void)t.stop_thread(25, kFinished, 0);
    BOOST_TEST(!t.stop_thread(27, kYield, 0).has_value());
    BOOST_TEST(t.finished());
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 1u);
}

BOOST_AUTO_TEST_CASE(thread_final_ignores_wakeup_thread_and_counts_it) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    (void)t.stop_thread(25, kFinished, 0);
    t.wakeup_thread();
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 1u);
}

BOOST_AUTO_TEST_CASE(thread_wakeup_thread_is_not_a_transition) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    (void)t.stop_thread(20, kMVar, 0);
    t.wakeup_thread();
    BOOST_TEST((activity(t) == blocked(kMVar)));
    BOOST_TEST((t.run_thread(30, 1) == ThreadStateSpan{20, 30, blocked(kMVar)}));
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 0u);
}

BOOST_AUTO_TEST_CASE(thread_initial_stop_thread_enters_blocked_without_span) {
    // Not drawn in the seed: the thread ran from an unknown time, so no Running span.
    Diagnostics d;
    ThreadStateAnalysis t(d);
    BOOST_TEST(!t.stop_thread(20, kYield, 0).has_value());
    BOOST_TEST((activity(t) == blocked(kYield)));
    BOOST_TEST(d.count(Diagnostic::thread_stopped_before_running) == 1u);
    BOOST_TEST((t.run_thread(30, 0) == ThreadStateSpan{20, 30, blocked(kYield)}));
}

BOOST_AUTO_TEST_CASE(thread_finish_closes_running_span) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    BOOST_TEST((t.finish(90) == ThreadStateSpan{10, 90, running(1)}));
    BOOST_TEST(!t.finish(90).has_value());
}

BOOST_AUTO_TEST_CASE(thread_finish_closes_blocked_span) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 1);
    (void)t.stop_thread(20, kMVar, 0);
    BOOST_TEST((t.finish(90) == ThreadStateSpan{20, 90, blocked(kMVar)}));
}

// A window of the log starts with the thread already stopped (src/window): no diagnostic,
// no span yet, the stop's reason from the start on.
BOOST_AUTO_TEST_CASE(thread_initial_stopped_at_start_enters_blocked_without_diagnostic) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    BOOST_TEST(!t.stopped_at_start(100, kMVar, 0).has_value());
    BOOST_TEST(d.total() == 0u);
    BOOST_TEST((activity(t) == blocked(kMVar)));
    BOOST_TEST((t.run_thread(150, 1) == ThreadStateSpan{100, 150, blocked(kMVar)}));
}

BOOST_AUTO_TEST_CASE(thread_started_stopped_at_start_is_a_stop) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.run_thread(10, 0);
    BOOST_TEST((t.stopped_at_start(30, kBlackHole, 4) == ThreadStateSpan{10, 30, running(0)}));
    BOOST_TEST((activity(t) == blocked(kBlackHole, 4)));
    BOOST_TEST(d.total() == 0u);
}

BOOST_AUTO_TEST_CASE(thread_initial_stopped_at_start_finished_is_final) {
    Diagnostics d;
    ThreadStateAnalysis t(d);
    (void)t.stopped_at_start(10, kFinished, 0);
    BOOST_TEST(t.finished());
}

BOOST_AUTO_TEST_SUITE_END()
