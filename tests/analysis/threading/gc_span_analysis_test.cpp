// One test per arrow of the GC span automaton (seeds/threading-analyses.md).
#include <boost/test/unit_test.hpp>

#include "analysis/threading/gc_span_analysis.hpp"

using el2fx::analysis::GcSpan;
using el2fx::analysis::GcSpanAnalysis;

BOOST_AUTO_TEST_SUITE(gc_span_analysis)

BOOST_AUTO_TEST_CASE(gc_state_initial_is_idle) {
    GcSpanAnalysis gc;
    BOOST_TEST(!gc.in_gc());
    BOOST_TEST(!gc.finish(100).has_value());
}

BOOST_AUTO_TEST_CASE(gc_state_idle_start_gc_enters_gc) {
    GcSpanAnalysis gc;
    gc.start_gc(10);
    BOOST_TEST(gc.in_gc());
}

BOOST_AUTO_TEST_CASE(gc_state_idle_end_gc_stays_idle) {
    GcSpanAnalysis gc;
    BOOST_TEST(!gc.end_gc(10).has_value());
    BOOST_TEST(!gc.in_gc());
    // Still a normal Idle: the next GC starts where it says.
    gc.start_gc(20);
    BOOST_TEST((gc.end_gc(30) == GcSpan{20, 30}));
}

BOOST_AUTO_TEST_CASE(gc_state_gc_end_gc_yields_span_and_enters_idle) {
    GcSpanAnalysis gc;
    gc.start_gc(10);
    BOOST_TEST((gc.end_gc(25) == GcSpan{10, 25}));
    BOOST_TEST(!gc.in_gc());
    BOOST_TEST(!gc.end_gc(30).has_value());
}

BOOST_AUTO_TEST_CASE(gc_state_start_gc_stays_gc) {
    GcSpanAnalysis gc;
    gc.start_gc(10);
    gc.start_gc(15);
    BOOST_TEST(gc.in_gc());
    BOOST_TEST((gc.end_gc(25) == GcSpan{10, 25}));  // the span keeps its first start
}

BOOST_AUTO_TEST_CASE(gc_state_finish_closes_open_span) {
    GcSpanAnalysis gc;
    gc.start_gc(10);
    BOOST_TEST((gc.finish(40) == GcSpan{10, 40}));
    BOOST_TEST(!gc.in_gc());
}

BOOST_AUTO_TEST_SUITE_END()
