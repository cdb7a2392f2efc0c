// HeapLevelSpans: one test per transition of heap_level_chart.hpp.
#include <boost/test/unit_test.hpp>

#include "convert/heap_level_chart.hpp"

using namespace el2fx::convert;
using el2fx::gc::HeapQuantity;

BOOST_AUTO_TEST_SUITE(heap_level_chart)

BOOST_AUTO_TEST_CASE(nothing_set_gives_no_span) {
    HeapLevelSpans s(10);
    s.finish(100);
    BOOST_TEST(!s.any());
    BOOST_TEST(s.spans().empty());
}

BOOST_AUTO_TEST_CASE(a_change_a_resolution_later_closes_the_span_and_opens_the_next) {
    HeapLevelSpans s(10);
    s.set(HeapQuantity::heap_size, 100, 4000);
    s.set(HeapQuantity::heap_live, 100, 1000);  // the same instant: one span
    s.set(HeapQuantity::heap_size, 150, 5000);
    s.finish(200);
    BOOST_TEST((s.spans() == std::vector<HeapLevelSpan>{{100, 150, {4000, 1000, 0}}, {150, 200, {5000, 1000, 0}}}));
}

BOOST_AUTO_TEST_CASE(closer_changes_keep_each_levels_peak) {
    HeapLevelSpans s(100);
    s.set(HeapQuantity::heap_size, 0, 4000);
    s.set(HeapQuantity::heap_size, 10, 9000);
    s.set(HeapQuantity::heap_size, 20, 3000);
    s.set(HeapQuantity::blocks_size, 30, 700);
    s.set(HeapQuantity::heap_size, 120, 3500);  // 120 from the start: the first span closes
    s.finish(130);
    BOOST_TEST((s.spans() == std::vector<HeapLevelSpan>{{0, 120, {9000, 0, 700}}, {120, 130, {3500, 0, 700}}}));
}

BOOST_AUTO_TEST_CASE(resolution_zero_keeps_every_change) {
    HeapLevelSpans s(0);
    s.set(HeapQuantity::heap_size, 0, 1);
    s.set(HeapQuantity::heap_size, 1, 2);
    s.set(HeapQuantity::heap_size, 2, 3);
    s.finish(2);
    BOOST_TEST(s.spans().size() == 3u);
    BOOST_TEST(s.spans().back().start == 2u);
}

BOOST_AUTO_TEST_CASE(allocation_and_returns_are_not_levels) {
    HeapLevelSpans s(10);
    s.set(HeapQuantity::allocated, 5, 100);
    s.set(HeapQuantity::mem_returned, 6, 100);
    s.finish(10);
    BOOST_TEST(!s.any());
}

BOOST_AUTO_TEST_SUITE_END()
