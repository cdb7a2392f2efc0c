#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

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

BOOST_AUTO_TEST_CASE(the_direct_table_moves_to_where_new_ids_cluster) {
    // A few old ids kept, then new ones counting up from far beyond them (a census that
    // forgot most threads), or ids that start in the millions (a program attached to late).
    for (const std::uint32_t first_new : {5'000'000u, 4'000'000'000u}) {
        BOOST_TEST_CONTEXT("new ids from " << first_new) {
            IdMap<std::uint32_t> m;
            for (std::uint32_t id = 1; id <= 10; ++id) m[id] = id;
            for (std::uint32_t k = 0; k < 100'000; ++k) m[first_new + k] = k;
            // The table spans the new ids (nearly all of them direct), not 0 .. first_new.
            BOOST_TEST(m.direct_span() >= 90'000u);
            BOOST_TEST(m.direct_span() < 200'000u);
            BOOST_TEST(m.size() == 100'010u);
            for (std::uint32_t id = 1; id <= 10; ++id) BOOST_TEST(*m.find(id) == id);
            for (std::uint32_t k = 0; k < 100'000; k += 7) BOOST_TEST_REQUIRE(*m.find(first_new + k) == k);
            BOOST_TEST(!m.contains(first_new + 100'000));
            BOOST_TEST(!m.contains(11));
            BOOST_TEST(!m.contains(first_new - 1));
        }
    }
    IdMap<std::uint32_t> late;  // the first id already in the millions
    for (std::uint32_t k = 0; k < 50'000; ++k) late[7'000'000 + k] = k;
    BOOST_TEST(late.direct_span() >= 45'000u);
    BOOST_TEST(late.direct_span() < 100'000u);
    BOOST_TEST(*late.find(7'000'000) == 0u);
    BOOST_TEST(*late.find(7'049'999) == 49'999u);
    // Scattered far ids do not move the table: dense ids stay direct.
    IdMap<std::uint32_t> scattered;
    for (std::uint32_t id = 0; id < 1000; ++id) scattered[id] = id;
    for (std::uint32_t k = 1; k <= 2000; ++k) scattered[k * 1'000'000u] = k;
    BOOST_TEST(scattered.direct_span() < 10'000u);
    BOOST_TEST(*scattered.find(999) == 999u);
    BOOST_TEST(*scattered.find(2'000'000'000u) == 2000u);
}

BOOST_AUTO_TEST_CASE(absent_ids_among_far_ones) {
    // A catalog rebuilt with a few kept threads scattered over millions of ids, then asked
    // about every other thread's id: each answer must be right whether the far ids' bits or
    // the hash map give it, and stay right once a far id too large for the bits comes.
    IdMap<std::uint32_t> m;
    for (std::uint32_t id = 1; id <= 20; ++id) m[id] = id;
    std::vector<std::uint32_t> far = {3'000'000, 3'000'017, 4'194'303, 2'500'000, 8'388'607};
    for (std::uint32_t id : far) m[id] = id + 1;
    for (int round = 0; round < 2; ++round) {
        BOOST_TEST_CONTEXT("round " << round) {
            for (std::uint32_t id : far) BOOST_TEST_REQUIRE(*m.find(id) == id + 1);
            for (std::uint32_t id = 1; id <= 20; ++id) BOOST_TEST_REQUIRE(*m.find(id) == id);
            std::size_t found = 0;
            for (std::uint32_t id = 21; id < 8'400'000; id += 1) found += m.contains(id) ? 1 : 0;
            const auto below = [](std::uint32_t id) { return id < 8'400'000; };
            BOOST_TEST(found == static_cast<std::size_t>(std::count_if(far.begin(), far.end(), below)));
            BOOST_TEST(!m.contains(UINT32_MAX));
        }
        m[4'000'000'000u] = 9;  // beyond the bits: the far ids are found by hashing from now on
        far.push_back(4'000'000'000u - 1);
        m[far.back()] = far.back() + 1;
    }
    BOOST_TEST(*m.find(4'000'000'000u) == 9u);
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
    // Many dense ids: the bitmap grows over 10,000,000, which moves into it.
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

BOOST_AUTO_TEST_CASE(id_set_erases_where_each_id_lives) {
    IdSet s;
    BOOST_TEST(!s.erase(7));  // empty
    BOOST_TEST(s.insert(7));
    BOOST_TEST(s.insert(4'000'000'000u));  // far: the hash set
    BOOST_TEST(s.erase(7));
    BOOST_TEST(!s.contains(7));
    BOOST_TEST(!s.erase(7));  // once
    BOOST_TEST(s.size() == 1u);
    BOOST_TEST(s.erase(4'000'000'000u));
    BOOST_TEST(!s.contains(4'000'000'000u));
    BOOST_TEST(s.size() == 0u);
    // A far id the bitmap grows over moves into it, and is erased from there.
    BOOST_TEST(s.insert(10'000'000));
    for (std::uint32_t id = 0; id < 10'000'100; id += 97) s.insert(id);
    BOOST_TEST(s.erase(10'000'000));
    BOOST_TEST(!s.contains(10'000'000));
    BOOST_TEST(s.insert(10'000'000));  // again, after the erase
    BOOST_TEST(s.contains(10'000'000));
}

BOOST_AUTO_TEST_CASE(id_set_of_few_ids_at_a_time_still_gets_its_bitmap) {
    // Ids come and go, a few at a time, counting up: the bitmap follows the insertions, so
    // they are answered by their bits, not by a hash set.
    IdSet s;
    for (std::uint32_t id = 0; id < 1'000'000; id += 8) {
        BOOST_TEST_REQUIRE(s.insert(id));
        if (id >= 64) BOOST_TEST_REQUIRE(s.erase(id - 64));
    }
    BOOST_TEST(s.size() == 8u);
    BOOST_TEST(s.contains(999'992));
    BOOST_TEST(!s.contains(999'928));
    BOOST_TEST(!s.contains(999'993));
}

BOOST_AUTO_TEST_CASE(id_set_of_few_ids_asked_about_many_takes_them_into_its_bitmap) {
    // A few far ids held a while each, and every id asked about as it goes by (a thread's
    // finish among millions): the lookups let the bitmap grow over them, so nearly all are
    // answered by their bits.
    IdSet s;
    for (std::uint32_t id = 1'000'000; id < 3'000'000; ++id) {
        if (id % 1'000 == 0) {
            BOOST_TEST_REQUIRE(s.insert(id));                           // a thread that got a sample
            if (id >= 1'002'000) BOOST_TEST_REQUIRE(s.erase(id - 2'000));  // its grace is over
        }
        BOOST_TEST_REQUIRE(s.contains(id - 500) == (id % 1'000 == 500));  // an older one finishes
    }
    BOOST_TEST(s.size() == 2u);
    BOOST_TEST(s.looked_up() < 2'000'000u / 4);  // the bitmap grew over most of them (every other, else)
    BOOST_TEST(s.contains(2'999'000));
    BOOST_TEST(!s.contains(2'997'000));
    // Never asked about: far ids stay in the hash set.
    IdSet few;
    for (std::uint32_t id = 1'000'000; id < 3'000'000; id += 10'000) BOOST_TEST_REQUIRE(few.insert(id));
    BOOST_TEST(few.hashed() > 100u);
}

BOOST_AUTO_TEST_SUITE_END()
