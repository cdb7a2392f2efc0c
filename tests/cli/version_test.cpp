// End-to-end: `--version` and `-V` print the release, the commit when built from a checkout,
// and the profile format version the profile writer declares.
#include <boost/test/unit_test.hpp>

#include <regex>
#include <string>

#include "fxprof/format_v70.hpp"
#include "run_process.hpp"

using el2fx::testing::run_binary;

namespace {

// EL2FX_TEST_PROJECT_VERSION is meson's project version (tests/cli/meson.build).
const std::string kFirstLine = std::string("eventlog2fxprof ") + EL2FX_TEST_PROJECT_VERSION;

}  // namespace

BOOST_AUTO_TEST_SUITE(version)

BOOST_AUTO_TEST_CASE(version_names_the_release_and_the_profile_format_and_exits_0) {
    auto r = run_binary({"--version"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.empty());
    // First line: the release, then `git describe` in parentheses when built from a checkout
    // (a tarball has none).
    const std::string first = r.out.substr(0, r.out.find('\n'));
    BOOST_TEST(std::regex_match(first, std::regex(std::regex_replace(kFirstLine, std::regex(R"([.])"), R"(\.)") +
                                                  R"(( \(git [0-9A-Za-z._+-]+\))?)")),
               first);
    const std::string format =
        "processed profile format, version " + std::to_string(el2fx::fxprof::v70::kPreprocessedProfileVersion) + "\n";
    BOOST_TEST(r.out.find(format) != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(short_V_is_the_same_as_version) {
    auto long_form = run_binary({"--version"});
    auto short_form = run_binary({"-V"});
    BOOST_TEST(short_form.status == 0);
    BOOST_TEST(short_form.out == long_form.out);
}

BOOST_AUTO_TEST_CASE(help_mentions_version) {
    auto r = run_binary({"--help"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.out.find("--version") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
