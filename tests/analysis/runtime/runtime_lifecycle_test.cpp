#include <boost/test/unit_test.hpp>

#include "analysis/runtime/runtime_lifecycle.hpp"

using namespace el2fx::runtime;

BOOST_AUTO_TEST_SUITE(capability_lifecycle)

BOOST_AUTO_TEST_CASE(disable_then_enable_is_a_disabled_span) {
    CapabilityLifecycle c;
    c.disabled(2, 100);
    BOOST_TEST(c.is_disabled(2));
    c.enabled(2, 300);
    BOOST_TEST(!c.is_disabled(2));
    BOOST_REQUIRE(c.disabled_spans().size() == 1u);
    BOOST_TEST(c.disabled_spans()[0].cap == 2u);
    BOOST_TEST(c.disabled_spans()[0].start == 100u);
    BOOST_TEST(c.disabled_spans()[0].end == 300u);
    BOOST_TEST(c.disabled_spans()[0].closed);
}

BOOST_AUTO_TEST_CASE(a_second_disable_keeps_the_first) {
    CapabilityLifecycle c;
    c.disabled(1, 100);
    c.disabled(1, 200);
    c.enabled(1, 300);
    BOOST_REQUIRE(c.disabled_spans().size() == 1u);
    BOOST_TEST(c.disabled_spans()[0].start == 100u);
}

BOOST_AUTO_TEST_CASE(enable_while_enabled_changes_nothing) {
    CapabilityLifecycle c;
    c.enabled(1, 100);
    c.finish(500);
    BOOST_TEST(c.disabled_spans().empty());
}

BOOST_AUTO_TEST_CASE(delete_ends_a_disabled_span) {
    CapabilityLifecycle c;
    c.disabled(3, 100);
    c.deleted(3, 150);
    BOOST_REQUIRE(c.disabled_spans().size() == 1u);
    BOOST_TEST(c.disabled_spans()[0].end == 150u);
}

BOOST_AUTO_TEST_CASE(a_span_still_open_runs_to_the_end) {
    CapabilityLifecycle c;
    c.disabled(0, 100);
    c.finish(900);
    BOOST_REQUIRE(c.disabled_spans().size() == 1u);
    BOOST_TEST(c.disabled_spans()[0].end == 900u);
    BOOST_TEST(!c.disabled_spans()[0].closed);
    BOOST_TEST(!c.is_disabled(0));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(task_tracker)

BOOST_AUTO_TEST_CASE(a_created_task_is_on_its_capability) {
    TaskTracker t;
    t.created(0xA0, 1, 4242, 10);
    BOOST_REQUIRE(t.find(0xA0));
    BOOST_TEST(t.find(0xA0)->cap == 1u);
    BOOST_TEST(t.find(0xA0)->os_tid == 4242u);
    BOOST_TEST(t.live() == 1u);
}

BOOST_AUTO_TEST_CASE(a_migrated_task_moves) {
    TaskTracker t;
    t.created(0xA0, 1, 4242, 10);
    t.migrated(0xA0, 3);
    BOOST_TEST(t.find(0xA0)->cap == 3u);
    t.migrated(0xB0, 2);  // unknown: nothing
    BOOST_TEST(!t.find(0xB0));
}

BOOST_AUTO_TEST_CASE(a_deleted_task_tells_where_it_was_and_is_forgotten) {
    TaskTracker t;
    t.created(0xA0, 1, 4242, 10);
    t.migrated(0xA0, 0);
    auto info = t.deleted(0xA0);
    BOOST_REQUIRE(info);
    BOOST_TEST(info->cap == 0u);
    BOOST_TEST(info->os_tid == 4242u);
    BOOST_TEST(!t.find(0xA0));
    BOOST_TEST(!t.deleted(0xA0));
}

BOOST_AUTO_TEST_CASE(os_threads_map_to_the_capability_of_their_latest_task) {
    TaskTracker t;
    t.created(0xA0, 1, 4242, 10);
    t.created(0xB0, 2, 4242, 20);
    t.created(0xC0, 0, 7, 30);
    BOOST_TEST(*t.cap_of_os_thread(4242) == 2u);
    BOOST_TEST(*t.cap_of_os_thread(7) == 0u);
    BOOST_TEST(!t.cap_of_os_thread(99));
}

BOOST_AUTO_TEST_SUITE_END()
