// Golden test: the small representative profile, compared as parsed JSON with
// golden/small_profile.json. EL2FX_UPDATE_GOLDEN=1 rewrites the golden file (pretty-printed).
#include <boost/test/unit_test.hpp>

#include "check/profile_check.hpp"
#include "fxprof_test_util.hpp"
#include "json_golden.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::check::validate_profile;

namespace {

const std::string kGoldenPath = std::string(EL2FX_FXPROF_GOLDEN_DIR) + "/small_profile.json";

}  // namespace

BOOST_AUTO_TEST_SUITE(golden)

BOOST_AUTO_TEST_CASE(small_profile_matches_the_golden_file) {
    const std::string json = profile_to_json(make_small_profile());
    BOOST_TEST(validate_profile(json).empty());
    const auto actual = parse_json(json);
    const std::string difference = el2fx::testing::compare_with_golden(actual, kGoldenPath);
    BOOST_TEST(difference.empty(), difference);
    BOOST_TEST(validate_profile(el2fx::testing::pretty_json(actual)).empty());
}

BOOST_AUTO_TEST_SUITE_END()
