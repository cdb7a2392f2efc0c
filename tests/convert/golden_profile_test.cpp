// Golden profiles of real fixtures, compared as parsed JSON (tests/support/json_golden.hpp):
// any change in what a conversion writes shows up here as the first differing JSON path.
// EL2FX_UPDATE_GOLDEN=1 meson test -C BUILD convert rewrites them; review the diff.
#include <boost/test/unit_test.hpp>

#include "check/profile_check.hpp"
#include "convert/converter.hpp"
#include "fxprof/profile_writer.hpp"
#include "json_golden.hpp"
#include "run_process.hpp"

using namespace el2fx;

namespace {

void check_fixture(const std::string& name) {
    const std::string log = el2fx::testing::env_dir("EL2FX_FIXTURES") + "/" + name + ".eventlog";
    convert::ConversionReport report;
    convert::ConvertOptions options;
    options.input_name = name + ".eventlog";  // as the CLI names it from a relative path
    const std::string json = fxprof::profile_to_json(convert::build_profile(log, options, report));
    BOOST_TEST(check::validate_profile(json).empty());
    const auto actual = el2fx::testing::parse_golden_json(json);
    const std::string difference =
        el2fx::testing::compare_with_golden(actual, std::string(EL2FX_CONVERT_GOLDEN_DIR) + "/" + name + ".json");
    BOOST_TEST(difference.empty(), difference);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(golden_profiles)

// Threads with labels, MVars, black holes, throwTo; merged and kept markers.
BOOST_AUTO_TEST_CASE(concurrency_fixture) { check_fixture("concurrency"); }
// traceEvent/traceMarker messages and START/STOP spans.
BOOST_AUTO_TEST_CASE(userevents_fixture) { check_fixture("userevents"); }
// A header and almost nothing else: a program killed at once.
BOOST_AUTO_TEST_CASE(killed_early_fixture) { check_fixture("killed-early"); }

BOOST_AUTO_TEST_SUITE_END()
