// BitRow: bits set, cleared and kept across growth, the bits a shrink drops clear when the row
// grows again, word boundaries included; checked against std::vector<bool> on random steps.
#include <boost/test/unit_test.hpp>

#include <random>
#include <vector>

#include "util/bit_row.hpp"

using el2fx::util::BitRow;

BOOST_AUTO_TEST_SUITE(bit_row)

BOOST_AUTO_TEST_CASE(bits_across_word_boundaries) {
    BitRow r;
    BOOST_TEST(r.empty());
    r.resize(130);
    BOOST_TEST(r.size() == 130u);
    for (std::size_t i : {0u, 63u, 64u, 127u, 128u, 129u}) {
        BOOST_TEST(!r.test(i));
        r.set(i);
        BOOST_TEST(r.test(i));
    }
    BOOST_TEST(!r.test(1));
    BOOST_TEST(!r.test(65));
    r.reset(64);
    BOOST_TEST(!r.test(64));
    BOOST_TEST(r.test(63));
    BOOST_TEST(r.test(127));
}

BOOST_AUTO_TEST_CASE(growth_keeps_bits_and_a_shrink_forgets_the_dropped_ones) {
    BitRow r;
    r.resize(100);
    r.set(3);
    r.set(70);
    r.set(99);
    r.resize(1000);
    BOOST_TEST(r.test(3));
    BOOST_TEST(r.test(70));
    BOOST_TEST(r.test(99));
    BOOST_TEST(!r.test(100));
    BOOST_TEST(!r.test(999));
    r.resize(71);  // 70 kept; 99 dropped, in the same word as 70
    BOOST_TEST(r.test(70));
    r.resize(100);
    BOOST_TEST(!r.test(99));
    BOOST_TEST(r.test(3));
}

BOOST_AUTO_TEST_CASE(agrees_with_vector_of_bool_on_random_steps) {
    std::mt19937 rng(7);
    BitRow r;
    std::vector<bool> v;
    for (int step = 0; step < 20000; ++step) {
        const unsigned op = rng() % 10;
        if (op == 0) {
            const std::size_t n = rng() % 300;
            r.resize(n);
            v.resize(n, false);
        } else if (!v.empty()) {
            const std::size_t i = rng() % v.size();
            if (op < 5) {
                r.set(i);
                v[i] = true;
            } else if (op < 7) {
                r.reset(i);
                v[i] = false;
            }
            BOOST_TEST_REQUIRE(r.test(i) == static_cast<bool>(v[i]));
        }
        BOOST_TEST_REQUIRE(r.size() == v.size());
    }
    for (std::size_t i = 0; i < v.size(); ++i) BOOST_TEST_REQUIRE(r.test(i) == static_cast<bool>(v[i]));
}

BOOST_AUTO_TEST_SUITE_END()
