// RecentIds: an answer per slot, ids sharing a slot replace each other, forgetting one leaves
// the other ids alone.
#include <boost/test/unit_test.hpp>

#include <optional>

#include "util/recent_ids.hpp"

using el2fx::util::RecentIds;

BOOST_AUTO_TEST_SUITE(recent_ids)

BOOST_AUTO_TEST_CASE(finds_what_was_noted_and_nothing_else) {
    RecentIds<int, 4> r;
    BOOST_TEST(!r.find(0));  // empty slots answer nothing, id 0 included
    r.note(0, 10);
    r.note(1, 11);
    BOOST_TEST(*r.find(0) == 10);
    BOOST_TEST(*r.find(1) == 11);
    BOOST_TEST(!r.find(2));
    BOOST_TEST(!r.find(4));  // 0's slot, another id
    r.note(UINT32_MAX, 7);   // the largest id has a slot too
    BOOST_TEST(*r.find(UINT32_MAX) == 7);
}

BOOST_AUTO_TEST_CASE(ids_sharing_a_slot_replace_each_other) {
    RecentIds<int, 4> r;
    r.note(1, 11);
    r.note(5, 15);
    BOOST_TEST(!r.find(1));
    BOOST_TEST(*r.find(5) == 15);
    *r.find(5) = 16;  // answers may be updated in place
    BOOST_TEST(*r.find(5) == 16);
}

BOOST_AUTO_TEST_CASE(forgetting_an_id_leaves_the_others) {
    RecentIds<std::optional<int>, 4> r;
    r.note(2, std::nullopt);  // "none" is an answer too
    r.note(3, 13);
    BOOST_TEST(r.find(2));
    BOOST_TEST(!*r.find(2));
    r.forget(6);  // not noted: 2 stays
    BOOST_TEST(r.find(2));
    r.forget(2);
    BOOST_TEST(!r.find(2));
    BOOST_TEST(**r.find(3) == 13);
    r.clear();
    BOOST_TEST(!r.find(3));
}

BOOST_AUTO_TEST_SUITE_END()
