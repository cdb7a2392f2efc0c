#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "util/live_id_ring.hpp"

using el2fx::util::LiveIdRing;

namespace {

// The ring's values as a sorted map, through for_each.
std::map<std::uint32_t, int> contents(const LiveIdRing<int>& ring) {
    std::map<std::uint32_t, int> all;
    ring.for_each([&](std::uint32_t id, int v) { BOOST_TEST(all.emplace(id, v).second); });
    return all;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(live_id_ring)

BOOST_AUTO_TEST_CASE(absent_until_added_and_gone_once_erased) {
    LiveIdRing<int> r;
    BOOST_TEST(r.find(1) == nullptr);
    BOOST_TEST(r.empty());
    auto [v, added] = r.try_emplace(1);
    BOOST_TEST(added);
    BOOST_TEST(v == 0);  // value-initialised
    v = 7;
    BOOST_TEST(!r.try_emplace(1).second);
    BOOST_TEST(*r.find(1) == 7);
    // Ids that share its place are other ids, absent.
    BOOST_TEST(!r.contains(1 + static_cast<std::uint32_t>(r.slots())));
    BOOST_TEST(!r.contains(0));
    BOOST_TEST(r.size() == 1u);
    BOOST_TEST(r.erase(1));
    BOOST_TEST(!r.erase(1));
    BOOST_TEST(!r.contains(1));
    BOOST_TEST(r[1] == 0);  // made again: a new value
}

BOOST_AUTO_TEST_CASE(the_largest_id_is_an_id_like_any_other) {
    LiveIdRing<int> r;
    r[0xFFFF'FFFFu] = 5;
    r[0] = 6;
    BOOST_TEST(*r.find(0xFFFF'FFFFu) == 5);
    BOOST_TEST(*r.find(0) == 6);
    BOOST_TEST(r.size() == 2u);
}

BOOST_AUTO_TEST_CASE(ids_sharing_a_place_keep_their_values_the_older_beside_the_ring) {
    LiveIdRing<int> r;
    const auto n = static_cast<std::uint32_t>(r.slots());
    r[5] = 1;          // a long-lived thread
    r[5 + n] = 2;      // a new one where it sits: the old one moves beside the ring
    r[5 + 3 * n] = 4;  // newer still
    r[5 + 2 * n] = 3;  // older than the one in the ring: beside it
    BOOST_TEST(r.beside() == 3u);
    BOOST_TEST(*r.find(5) == 1);
    BOOST_TEST(*r.find(5 + n) == 2);
    BOOST_TEST(*r.find(5 + 2 * n) == 3);
    BOOST_TEST(*r.find(5 + 3 * n) == 4);
    BOOST_TEST(r.erase(5 + 3 * n));  // from the ring: its place is free, the others stay beside
    BOOST_TEST(!r.contains(5 + 3 * n));
    BOOST_TEST(*r.find(5) == 1);
    BOOST_TEST(r.erase(5));  // from beside it
    BOOST_TEST(!r.contains(5));
    BOOST_TEST(*r.find(5 + n) == 2);
    BOOST_TEST(r.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_sliding_window_of_threads_stays_in_the_ring) {
    // Short-lived threads made one after another, some thousands alive at once, and a few
    // that live throughout: the ring grows to the window, not to the ids ever made.
    LiveIdRing<int> r;
    for (std::uint32_t id = 1; id <= 4; ++id) r[id] = static_cast<int>(id);
    constexpr std::uint32_t kAlive = 5'000;
    for (std::uint32_t id = 100; id < 1'000'000; ++id) {
        r[id] = static_cast<int>(id);
        if (id >= 100 + kAlive) BOOST_REQUIRE(r.erase(id - kAlive));
    }
    BOOST_TEST(r.size() == kAlive + 4);
    BOOST_TEST(r.slots() <= 4 * (kAlive + 4));
    BOOST_TEST(r.beside() <= 4u);  // the long-lived ones at most
    for (std::uint32_t id = 1; id <= 4; ++id) BOOST_TEST(*r.find(id) == static_cast<int>(id));
    BOOST_TEST(*r.find(999'999) == 999'999);
    BOOST_TEST(!r.contains(999'999 - kAlive));
}

BOOST_AUTO_TEST_CASE(ids_that_all_share_a_place_are_found_and_memory_follows_their_number) {
    // A hostile log's ids, all alike modulo any ring size up to 2^20.
    LiveIdRing<int> r;
    for (std::uint32_t k = 1; k <= 3'000; ++k) r[k << 20] = static_cast<int>(k);
    BOOST_TEST(r.size() == 3'000u);
    BOOST_TEST(r.slots() <= 4 * 3'000u + LiveIdRing<int>::kMinSlots);
    for (std::uint32_t k = 1; k <= 3'000; k += 7) BOOST_TEST(*r.find(k << 20) == static_cast<int>(k));
    for (std::uint32_t k = 1; k <= 3'000; ++k) BOOST_REQUIRE(r.erase(k << 20));
    BOOST_TEST(r.empty());
    BOOST_TEST(r.beside() == 0u);
}

BOOST_AUTO_TEST_CASE(it_is_the_map_it_stands_for_whatever_the_order) {
    // Against std::map, under random adds, erases and lookups over ids near each other, far
    // apart and alike modulo the ring, as it fills and empties.
    std::mt19937 random(20261203);
    for (int round = 0; round < 4; ++round) {
        LiveIdRing<int> r;
        std::map<std::uint32_t, int> model;
        std::uint32_t next = 1;
        std::size_t most = 0;  // values alive at once
        for (int step = 0; step < 200'000; ++step) {
            std::uint32_t id = 0;
            switch (random() % 4) {
                case 0: id = next++; break;                                       // a new thread
                case 1: id = next - random() % std::min<std::uint32_t>(next, 3'000); break;  // a recent one
                case 2: id = static_cast<std::uint32_t>(random() % 64) << (10 + round * 3); break;  // alike modulo the ring
                default: id = static_cast<std::uint32_t>(random()); break;                    // anywhere
            }
            // Adds outweigh erases for a while, then erases do: it fills and empties.
            const bool growing = (step / 50'000) % 2 == 0;
            const unsigned op = random() % 10;
            if (op < (growing ? 6u : 3u)) {
                auto [v, added] = r.try_emplace(id);
                BOOST_REQUIRE_EQUAL(added, model.count(id) == 0);
                if (added) v = static_cast<int>(id % 1000) + 1, model[id] = v;
                BOOST_REQUIRE_EQUAL(v, model[id]);
            } else if (op < 9) {
                BOOST_REQUIRE_EQUAL(r.erase(id), model.erase(id) == 1);
            } else {
                const int* v = r.find(id);
                const auto it = model.find(id);
                BOOST_REQUIRE_EQUAL(v != nullptr, it != model.end());
                if (v) BOOST_REQUIRE_EQUAL(*v, it->second);
            }
            BOOST_REQUIRE_EQUAL(r.size(), model.size());
            most = std::max(most, model.size());
            // Doubled only while under twice their number.
            BOOST_REQUIRE(r.slots() <= std::max(4 * most, LiveIdRing<int>::kMinSlots));
        }
        BOOST_TEST((contents(r) == model));
    }
}

BOOST_AUTO_TEST_SUITE_END()
