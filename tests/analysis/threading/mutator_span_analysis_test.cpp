// One test or more per arrow of the mutator span automaton (seeds/threading-analyses.md).
#include <boost/test/unit_test.hpp>

#include "analysis/threading/mutator_span_analysis.hpp"

using el2fx::Diagnostic;
using el2fx::Diagnostics;
using el2fx::analysis::MutatorSpan;
using el2fx::analysis::MutatorSpanAnalysis;

namespace {
constexpr std::uint16_t kYield = 3;
constexpr std::uint16_t kFinished = 5;
constexpr std::uint16_t kMVar = 7;
}  // namespace

BOOST_AUTO_TEST_SUITE(mutator_span_analysis)

BOOST_AUTO_TEST_CASE(mutator_initial_state_is_idle) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    BOOST_TEST(!m.running_thread().has_value());
    BOOST_TEST(!m.finish(100).has_value());
}

BOOST_AUTO_TEST_CASE(mutator_idle_stop_thread_stays_idle) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    BOOST_TEST(!m.stop_thread(10, 1, kYield).has_value());
    BOOST_TEST(!m.running_thread().has_value());
    BOOST_TEST(d.count(Diagnostic::mutator_stop_thread_mismatch) == 0u);
}

BOOST_AUTO_TEST_CASE(mutator_idle_stop_thread_finished_stays_idle_and_finishes_nothing) {
    // As drawn: only StopThread[X] in Mutator[X] adds X to the finished set.
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    BOOST_TEST(!m.stop_thread(10, 1, kFinished).has_value());
    m.run_thread(20, 1);
    BOOST_TEST((m.running_thread() == 1u));
}

BOOST_AUTO_TEST_CASE(mutator_idle_run_thread_enters_mutator) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    BOOST_TEST((m.running_thread() == 7u));
}

BOOST_AUTO_TEST_CASE(mutator_run_same_thread_stays_mutator) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    m.run_thread(15, 7);
    BOOST_TEST((m.running_thread() == 7u));
    BOOST_TEST((m.stop_thread(20, 7, kYield) == MutatorSpan{10, 20, 7}));  // the first start stays
    BOOST_TEST(d.count(Diagnostic::mutator_run_thread_mismatch) == 0u);
}

BOOST_AUTO_TEST_CASE(mutator_run_other_thread_is_error_stays_mutator) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    m.run_thread(15, 8);
    BOOST_TEST(d.count(Diagnostic::mutator_run_thread_mismatch) == 1u);
    BOOST_TEST((m.running_thread() == 7u));
    BOOST_TEST((m.stop_thread(20, 7, kYield) == MutatorSpan{10, 20, 7}));
}

BOOST_AUTO_TEST_CASE(mutator_stop_same_thread_yields_span_enters_idle) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    BOOST_TEST((m.stop_thread(30, 7, kMVar) == MutatorSpan{10, 30, 7}));
    BOOST_TEST(!m.running_thread().has_value());
    // Not finished: it may run again.
    m.run_thread(40, 7);
    BOOST_TEST((m.running_thread() == 7u));
}

BOOST_AUTO_TEST_CASE(mutator_stop_other_thread_is_error_stays_mutator) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    BOOST_TEST(!m.stop_thread(15, 8, kYield).has_value());
    BOOST_TEST(d.count(Diagnostic::mutator_stop_thread_mismatch) == 1u);
    BOOST_TEST((m.running_thread() == 7u));
    BOOST_TEST((m.stop_thread(20, 7, kYield) == MutatorSpan{10, 20, 7}));
}

BOOST_AUTO_TEST_CASE(mutator_stop_same_thread_finished_yields_span_and_ignores_later_run_thread) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    BOOST_TEST((m.stop_thread(20, 7, kFinished) == MutatorSpan{10, 20, 7}));
    m.run_thread(21, 7);  // the RTS's false RunThread after ThreadFinished
    BOOST_TEST(!m.running_thread().has_value());
    BOOST_TEST(!m.finish(100).has_value());
    BOOST_TEST(d.count(Diagnostic::mutator_run_thread_mismatch) == 0u);
}

BOOST_AUTO_TEST_CASE(mutator_finished_set_blocks_only_finished_threads) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    (void)m.stop_thread(20, 7, kFinished);
    m.run_thread(30, 8);
    BOOST_TEST((m.running_thread() == 8u));
}

BOOST_AUTO_TEST_CASE(mutator_run_finished_thread_in_mutator_is_ignored_not_error) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    (void)m.stop_thread(20, 7, kFinished);
    m.run_thread(30, 8);
    m.run_thread(31, 7);
    BOOST_TEST((m.running_thread() == 8u));
    BOOST_TEST(d.count(Diagnostic::mutator_run_thread_mismatch) == 0u);
}

BOOST_AUTO_TEST_CASE(mutator_finish_closes_open_span) {
    Diagnostics d;
    MutatorSpanAnalysis m(d);
    m.run_thread(10, 7);
    BOOST_TEST((m.finish(50) == MutatorSpan{10, 50, 7}));
    BOOST_TEST(!m.running_thread().has_value());
}

BOOST_AUTO_TEST_SUITE_END()
