// The window options on the command line, end to end: windows that cannot be found are refused
// with one line naming the option, its text and where the search stood, and exit status 1.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>

#include "run_process.hpp"

using el2fx::testing::env_dir;
using el2fx::testing::run_binary;

namespace {

std::string userevents() { return env_dir("EL2FX_FIXTURES") + "/userevents.eventlog"; }

bool one_line(const std::string& text) { return std::count(text.begin(), text.end(), '\n') == 1; }

}  // namespace

BOOST_AUTO_TEST_SUITE(window_cli)

// userevents.eventlog's markers: "program start" at 275.309 us, "before workers" at 282.573 us.
BOOST_AUTO_TEST_CASE(to_marker_with_no_match_after_the_start_is_refused) {
    for (const char* command : {"convert", "summary"}) {
        BOOST_TEST_CONTEXT(command) {
            std::vector<std::string> args = {command, userevents(), "--from-marker", "before workers",
                                             "--to-marker", "program start"};  // only before the start
            if (std::string(command) == "convert") args.insert(args.end(), {"-o", "/dev/null"});
            auto r = run_binary(args);
            BOOST_TEST(r.status == 1);
            BOOST_TEST(one_line(r.err), r.err);
            BOOST_TEST(r.err.find("--to-marker \"program start\": no traceMarker or traceEvent message starts with "
                                  "it after the window's start at 282.573 us") != std::string::npos,
                       r.err);
        }
    }
}

BOOST_AUTO_TEST_CASE(from_marker_at_or_after_to_is_refused) {
    for (const char* to : {"282573ns", "280us"}) {  // at the marker, before it
        BOOST_TEST_CONTEXT(to) {
            auto r = run_binary({"convert", userevents(), "-o", "/dev/null", "--from-marker", "before workers",
                                 "--to", to});
            BOOST_TEST(r.status == 1);
            BOOST_TEST(one_line(r.err), r.err);
            BOOST_TEST(r.err.find("--from-marker \"before workers\" is at 282.573 us, not before --to") !=
                           std::string::npos,
                       r.err);
        }
    }
    // Just after the marker: a window.
    auto r = run_binary({"convert", userevents(), "-o", "/dev/null", "--from-marker", "before workers", "--to",
                         "282574ns"});
    BOOST_TEST(r.status == 0, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
