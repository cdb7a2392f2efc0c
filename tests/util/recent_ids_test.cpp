// RecentIds: an answer per slot, ids sharing a slot replace each other, forgetting one leaves
// the other ids alone.
#include <boost/test/unit_test.hpp>

#include <optional>

#include "util/recent_ids.hpp"

using el2fx::util::RecentIds;

BOOST_AUTO_TEST_SUITE(recent_ids)

BOOST_AUTO_TEST_CASE(finds_what_was_noted_and_nothing_else) {
    RecentIds<int> r(4);
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
    RecentIds<int> r(4);
    r.note(1, 11);
    r.note(5, 15);
    BOOST_TEST(!r.find(1));
    BOOST_TEST(*r.find(5) == 15);
    *r.find(5) = 16;  // answers may be updated in place
    BOOST_TEST(*r.find(5) == 16);
}

BOOST_AUTO_TEST_CASE(forgetting_an_id_leaves_the_others) {
    RecentIds<std::optional<int>> r(4);
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

BOOST_AUTO_TEST_CASE(slots_come_in_powers_of_two_within_bounds) {
    BOOST_TEST(RecentIds<int>(5).slots() == 8u);
    BOOST_TEST(RecentIds<int>(0).slots() == 1u);
    BOOST_TEST(RecentIds<int>(1u << 20).slots() == el2fx::util::kMostRecentSlots);
    // Room for a known few: four slots each, a few at least, never more than the most.
    BOOST_TEST(el2fx::util::recent_slots_for(0) == el2fx::util::kFewRecentSlots);
    BOOST_TEST(el2fx::util::recent_slots_for(68) == 512u);
    BOOST_TEST(el2fx::util::recent_slots_for(100000) == el2fx::util::kMostRecentSlots);
}

BOOST_AUTO_TEST_CASE(more_slots_keep_ids_apart_that_fewer_would_share) {
    RecentIds<int> few(4), more(8);
    for (RecentIds<int>* r : {&few, &more}) {
        r->note(1, 11);
        r->note(5, 15);
    }
    BOOST_TEST(!few.find(1));
    BOOST_TEST(*more.find(1) == 11);
    BOOST_TEST(*more.find(5) == 15);
}

BOOST_AUTO_TEST_CASE(reset_forgets_every_answer_and_takes_the_new_count) {
    RecentIds<int> r(4);
    r.note(1, 11);
    r.note(3, 13);
    r.reset(8);
    BOOST_TEST(r.slots() == 8u);
    BOOST_TEST(!r.find(1));
    BOOST_TEST(!r.find(3));
    r.note(1, 21);
    r.note(5, 25);  // 1's slot with four; its own with eight
    BOOST_TEST(*r.find(1) == 21);
    BOOST_TEST(*r.find(5) == 25);
    r.reset(2);  // fewer again: what the larger count noted is gone too
    BOOST_TEST(!r.find(5));
    BOOST_TEST(!r.find(1));
}

BOOST_AUTO_TEST_SUITE_END()
