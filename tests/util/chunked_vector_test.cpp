#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string_view>
#include <utility>

#include "util/chunked_vector.hpp"

using el2fx::util::ChunkedVector;

BOOST_AUTO_TEST_SUITE(chunked_vector)

BOOST_AUTO_TEST_CASE(empty_holds_nothing) {
    ChunkedVector<std::uint32_t> v;
    BOOST_TEST(v.empty());
    BOOST_TEST(v.size() == 0u);
    BOOST_TEST(v.capacity_bytes() == 0u);
}

BOOST_AUTO_TEST_CASE(block_size_is_a_power_of_two_within_the_bytes) {
    BOOST_TEST((ChunkedVector<std::uint32_t>::kBlockSize) == 16384u);
    BOOST_TEST((ChunkedVector<std::uint32_t, 100>::kBlockSize) == 16u);  // 25 rounded down
    struct Big {
        char bytes[300];
    };
    BOOST_TEST((ChunkedVector<Big, 256>::kBlockSize) == 1u);  // larger than a block: one each
}

BOOST_AUTO_TEST_CASE(values_survive_the_first_block_growing_and_new_blocks) {
    ChunkedVector<std::uint32_t, 64> v;  // 16 per block
    for (std::uint32_t i = 0; i < 1000; ++i) {
        v.push_back(i * 7);
        BOOST_TEST(v.back() == i * 7);
    }
    BOOST_TEST(v.size() == 1000u);
    bool all = true;
    for (std::uint32_t i = 0; i < 1000; ++i) all = all && v[i] == i * 7;
    BOOST_TEST(all);
}

BOOST_AUTO_TEST_CASE(block_boundaries_exactly) {
    ChunkedVector<std::uint32_t, 64> v;
    for (std::uint32_t i = 0; i < 16; ++i) v.push_back(i);
    BOOST_TEST(v.capacity_bytes() == 64u);  // one full block, not more
    v.push_back(16);                        // the first element of the second block
    BOOST_TEST(v.capacity_bytes() == 128u);
    BOOST_TEST(v[15] == 15u);
    BOOST_TEST(v[16] == 16u);
    v[15] = 99;
    BOOST_TEST(v[15] == 99u);
}

BOOST_AUTO_TEST_CASE(small_tables_stay_small_and_big_ones_waste_at_most_a_block) {
    ChunkedVector<std::uint64_t> v;
    for (int i = 0; i < 3; ++i) v.push_back(1);
    BOOST_TEST(v.capacity_bytes() == 16 * sizeof(std::uint64_t));
    for (int i = 0; i < 100'000; ++i) v.push_back(2);
    BOOST_TEST(v.capacity_bytes() >= v.size() * sizeof(std::uint64_t));
    BOOST_TEST(v.capacity_bytes() < v.size() * sizeof(std::uint64_t) + (std::size_t{64} << 10));
}

BOOST_AUTO_TEST_CASE(rows_of_structs_and_views) {
    struct Row {
        std::uint32_t a;
        std::uint32_t b;
    };
    ChunkedVector<Row, 32> rows;                // 4 per block
    ChunkedVector<std::string_view, 32> views;  // 2 per block
    static const char text[] = "abcdefghij";
    for (std::uint32_t i = 0; i < 10; ++i) {
        rows.push_back({i, UINT32_MAX - i});
        views.push_back(std::string_view(text + i, 10 - i));
    }
    BOOST_TEST(rows[9].a == 9u);
    BOOST_TEST(rows[9].b == UINT32_MAX - 9);
    BOOST_TEST(views[0] == "abcdefghij");
    BOOST_TEST(views[9] == "j");
}

BOOST_AUTO_TEST_CASE(clear_and_move) {
    ChunkedVector<std::uint32_t, 64> v;
    for (std::uint32_t i = 0; i < 40; ++i) v.push_back(i);
    ChunkedVector<std::uint32_t, 64> w = std::move(v);
    BOOST_TEST(w.size() == 40u);
    BOOST_TEST(w[39] == 39u);
    w.clear();
    BOOST_TEST(w.empty());
    BOOST_TEST(w.capacity_bytes() == 0u);
    w.push_back(5);  // usable again after clear
    BOOST_TEST(w[0] == 5u);
}

BOOST_AUTO_TEST_SUITE_END()
