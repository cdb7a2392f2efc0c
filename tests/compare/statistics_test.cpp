// Percentiles of pauses and a side's median.
#include <boost/test/unit_test.hpp>

#include "compare/statistics.hpp"

using namespace el2fx::compare;

BOOST_AUTO_TEST_SUITE(statistics)

BOOST_AUTO_TEST_CASE(nearest_rank_percentiles_are_values_that_occurred) {
    std::vector<double> v = {5, 1, 4, 2, 3, 10, 9, 8, 7, 6};
    BOOST_TEST(percentile(v, 50) == 5);
    BOOST_TEST(percentile(v, 90) == 9);
    BOOST_TEST(percentile(v, 99) == 10);
    BOOST_TEST(percentile(v, 100) == 10);
    BOOST_TEST(percentile(v, 0) == 1);
    std::vector<double> none;
    BOOST_TEST(percentile(none, 50) == 0);
}

BOOST_AUTO_TEST_CASE(median_of_an_even_count_is_the_mean_of_the_middle_two) {
    BOOST_TEST(median({3, 1, 2}) == 2);
    BOOST_TEST(median({4, 1, 3, 2}) == 2.5);
    BOOST_TEST(median({}) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
