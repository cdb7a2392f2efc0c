#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <string>

#include "util/slab_id_map.hpp"

using el2fx::util::SlabIdMap;

BOOST_AUTO_TEST_SUITE(slab_id_map)

BOOST_AUTO_TEST_CASE(absent_until_added_and_gone_once_erased) {
    SlabIdMap<int> m;
    BOOST_TEST(m.find(1) == nullptr);
    BOOST_TEST(!m.erase(1));
    BOOST_TEST(m.empty());
    auto [v, added] = m.try_emplace(1);
    BOOST_TEST(added);
    BOOST_TEST(v == 0);  // value-initialised
    v = 7;
    BOOST_TEST(!m.try_emplace(1).second);
    BOOST_TEST(*m.find(1) == 7);
    BOOST_TEST(!m.contains(0));
    BOOST_TEST(!m.contains(2));
    BOOST_TEST(m.size() == 1u);
    BOOST_TEST(m.erase(1));
    BOOST_TEST(!m.erase(1));
    BOOST_TEST(m.find(1) == nullptr);
    BOOST_TEST(m.empty());
    // Made again, it starts from a value-initialised one, not the erased value.
    BOOST_TEST(m[1] == 0);
}

BOOST_AUTO_TEST_CASE(an_erased_value_is_released_at_once) {
    SlabIdMap<std::string> m;
    m[5] = std::string(100, 'x');
    BOOST_TEST(m.erase(5));
    BOOST_TEST(m[6].empty());  // takes the freed entry: no text of the other id's
    BOOST_TEST(m.size() == 1u);
}

BOOST_AUTO_TEST_CASE(extreme_ids_are_ids_like_any) {
    SlabIdMap<int> m;
    m[0] = 1;
    m[0xffffffffu] = 2;
    m[0xfffffffeu] = 3;
    BOOST_TEST(*m.find(0) == 1);
    BOOST_TEST(*m.find(0xffffffffu) == 2);
    BOOST_TEST(*m.find(0xfffffffeu) == 3);
    BOOST_TEST(m.erase(0xffffffffu));
    BOOST_TEST(*m.find(0xfffffffeu) == 3);
    BOOST_TEST(*m.find(0) == 1);
}

// Runs of ids that share a home, erased from the middle of their run and around the table's
// end, must stay findable: every operation checked against a std::map.
BOOST_AUTO_TEST_CASE(random_additions_and_erasures_match_a_map) {
    for (std::uint32_t span : {16u, 1000u, 1u << 20}) {
        SlabIdMap<std::uint64_t> m;
        std::map<std::uint32_t, std::uint64_t> ref;
        std::mt19937 rng(span);
        std::uniform_int_distribution<std::uint32_t> any_id(0, span - 1);
        for (int step = 0; step < 200'000; ++step) {
            const std::uint32_t id = any_id(rng);
            switch (rng() % 3) {
                case 0:
                case 1: {
                    auto [v, added] = m.try_emplace(id);
                    BOOST_REQUIRE(added == !ref.contains(id));
                    v = step;
                    ref[id] = step;
                    break;
                }
                default: BOOST_REQUIRE(m.erase(id) == (ref.erase(id) == 1)); break;
            }
            BOOST_REQUIRE(m.size() == ref.size());
            if (step % 997 == 0)
                for (std::uint32_t probe = 0; probe < std::min(span, 2000u); ++probe) {
                    const auto it = ref.find(probe);
                    const std::uint64_t* v = m.find(probe);
                    BOOST_REQUIRE((v != nullptr) == (it != ref.end()));
                    if (v) BOOST_REQUIRE(*v == it->second);
                }
        }
        for (const auto& [id, v] : ref) BOOST_REQUIRE(*m.find(id) == v);
        // At most one value per bucket on average.
        BOOST_TEST(m.buckets() >= m.size());
    }
}

// Ids that share their low bits would all share a bucket: past the longest chain allowed they
// are mixed, and every one is still found (and the map stays usable).
BOOST_AUTO_TEST_CASE(ids_in_a_pattern_are_mixed_once_a_chain_is_long) {
    SlabIdMap<std::uint32_t> m;
    for (std::uint32_t i = 0; i < 64; ++i) m[i << 20] = i;
    BOOST_TEST(m.mixed());
    BOOST_TEST(m.size() == 64u);
    for (std::uint32_t i = 0; i < 64; ++i) BOOST_REQUIRE(*m.find(i << 20) == i);
    for (std::uint32_t i = 0; i < 64; i += 2) BOOST_REQUIRE(m.erase(i << 20));
    for (std::uint32_t i = 0; i < 64; ++i) BOOST_REQUIRE(m.contains(i << 20) == (i % 2 == 1));
    m[7] = 70;
    BOOST_TEST(*m.find(7) == 70u);
}

BOOST_AUTO_TEST_CASE(a_wave_that_comes_and_goes_reuses_its_room) {
    // Threads labelled one after another and let go a while later, a window of them held.
    SlabIdMap<std::string> m;
    constexpr std::uint32_t kHeld = 5'000;
    for (std::uint32_t id = 0; id < 200'000; id += 10) {
        m[id] = "worker";
        if (id >= 10 * kHeld) BOOST_REQUIRE(m.erase(id - 10 * kHeld));
    }
    BOOST_TEST(m.size() == kHeld);
    BOOST_TEST(m.buckets() <= 4 * kHeld);
    BOOST_TEST(!m.mixed());  // ids one after another chain no longer than a few
    for (std::uint32_t id = 200'000 - 10 * kHeld; id < 200'000; id += 10) BOOST_REQUIRE(*m.find(id) == "worker");
}

BOOST_AUTO_TEST_SUITE_END()
