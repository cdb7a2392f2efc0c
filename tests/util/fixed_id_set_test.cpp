// FixedIdSet: ids below its bit row and far beyond it, each counted once.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

#include "util/fixed_id_set.hpp"

using el2fx::util::FixedIdSet;

BOOST_AUTO_TEST_SUITE(fixed_id_set)

BOOST_AUTO_TEST_CASE(holds_near_and_far_ids_and_counts_each_once) {
    const std::uint32_t far = FixedIdSet::kBitIds + 7;
    const std::vector<std::uint32_t> ids{3, 1, 3, far, 0, far};
    const FixedIdSet set(ids);
    BOOST_TEST(set.size() == 4u);  // 0, 1, 3 and the far one
    for (std::uint32_t id : {0u, 1u, 3u, far}) BOOST_TEST(set.contains(id));
    for (std::uint32_t id : {2u, 4u, far - 1, far + 1}) BOOST_TEST(!set.contains(id));
}

BOOST_AUTO_TEST_CASE(an_empty_set_holds_nothing) {
    const FixedIdSet set;
    BOOST_TEST(set.size() == 0u);
    BOOST_TEST(!set.contains(0));
    BOOST_TEST(!set.contains(FixedIdSet::kBitIds));
}

BOOST_AUTO_TEST_SUITE_END()
