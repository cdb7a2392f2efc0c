#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>

#include "util/id_map.hpp"

using el2fx::util::IdMap;
using el2fx::util::IdSet;

BOOST_AUTO_TEST_SUITE(id_map)

BOOST_AUTO_TEST_CASE(absent_until_added) {
    IdMap<int> m;
    BOOST_TEST(m.find(1) == nullptr);
    BOOST_TEST(!m.contains(0));
    BOOST_TEST(m.size() == 0u);
    auto [v, added] = m.try_emplace(1, 7);
    BOOST_TEST(added);
    BOOST_TEST(v == 7);
    BOOST_TEST(!m.try_emplace(1, 9).second);  // the first value stays
    BOOST_TEST(*m.find(1) == 7);
    BOOST_TEST(!m.contains(0));  // a neighbour in the direct table is still absent
    BOOST_TEST(!m.contains(2));
    BOOST_TEST(m.size() == 1u);
}

BOOST_AUTO_TEST_CASE(dense_ids_keep_their_values_across_growth) {
    IdMap<std::string> m;
    for (std::uint32_t id = 1; id <= 100'000; ++id) m[id] = std::to_string(id);
    BOOST_TEST(m.size() == 100'000u);
    for (std::uint32_t id = 1; id <= 100'000; id += 997) BOOST_TEST(*m.find(id) == std::to_string(id));
    BOOST_TEST(!m.contains(100'001));
}

BOOST_AUTO_TEST_CASE(far_ids_live_beside_dense_ones) {
    // A hostile log's ids: huge ones must not make the table huge, and ids the direct table
    // later grows over must still be found where they were put.
    IdMap<std::uint32_t> m;
    m[UINT32_MAX] = 1;
    m[4'000'000'000u] = 2;
    m[50'000] = 3;  // far beyond the others at first
    for (std::uint32_t id = 0; id < 60'000; ++id)
        if (id != 50'000) m.try_emplace(id, id + 10);
    BOOST_TEST(*m.find(UINT32_MAX) == 1u);
    BOOST_TEST(*m.find(4'000'000'000u) == 2u);
    BOOST_TEST(*m.find(50'000) == 3u);
    BOOST_TEST(*m.find(49'999) == 49'999u + 10);
    BOOST_TEST(m.size() == 60'002u);
    BOOST_TEST(!m.contains(3'999'999'999u));
}

BOOST_AUTO_TEST_CASE(id_set_inserts_once) {
    IdSet s;
    BOOST_TEST(s.insert(5));
    BOOST_TEST(!s.insert(5));
    BOOST_TEST(s.insert(UINT32_MAX));
    BOOST_TEST(s.contains(5));
    BOOST_TEST(!s.contains(4));
    BOOST_TEST(s.size() == 2u);
}

BOOST_AUTO_TEST_CASE(id_set_dense_far_and_grown_over) {
    IdSet s;
    BOOST_TEST(s.insert(0));
    BOOST_TEST(s.insert(65'535));      // within the first bitmap
    BOOST_TEST(s.insert(10'000'000));  // far: the hash set
    BOOST_TEST(s.insert(4'000'000'000u));
    // Many dense ids: the bitmap grows over 10,000,000, which stays where it was put.
    for (std::uint32_t id = 1; id < 100'000; ++id)
        if (id != 65'535) BOOST_TEST_REQUIRE(s.insert(id));
    for (std::uint32_t id = 100'000; id < 10'000'100; id += 97) s.insert(id);
    BOOST_TEST(s.contains(10'000'000));
    BOOST_TEST(!s.insert(10'000'000));
    BOOST_TEST(s.contains(4'000'000'000u));
    BOOST_TEST(!s.contains(3'999'999'999u));
    BOOST_TEST(s.contains(99'999));
    BOOST_TEST(!s.contains(100'001));
    BOOST_TEST(s.contains(100'000 + 97));
    BOOST_TEST(!s.contains(UINT32_MAX));
    BOOST_TEST(s.insert(UINT32_MAX));
    BOOST_TEST(s.contains(UINT32_MAX));
    std::size_t expected = 100'000 + 2 + 1;
    for (std::uint32_t id = 100'000; id < 10'000'100; id += 97) expected += id == 10'000'000 ? 0 : 1;
    BOOST_TEST(s.size() == expected);
}

BOOST_AUTO_TEST_SUITE_END()
