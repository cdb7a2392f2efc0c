// `eventlog2fxprof summary` end to end: text, --json, a truncated log, bad input.
#include <boost/test/unit_test.hpp>

#include <string>

#include "run_process.hpp"
#include "util/rapidjson.hpp"

using el2fx::testing::env_dir;
using el2fx::testing::run_binary;

BOOST_AUTO_TEST_SUITE(summary_cli)

BOOST_AUTO_TEST_CASE(prints_the_runtime_layout) {
    auto r = run_binary({"summary", env_dir("EL2FX_FIXTURES") + "/sparks.eventlog"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.empty());
    BOOST_TEST(r.out.find("      37,202,328 bytes allocated in the heap\n") != std::string::npos);
    BOOST_TEST(r.out.find("  SPARKS: 3430 (137 converted, 2936 overflowed, 200 dud, 98 GC'd, 59 fizzled)") !=
               std::string::npos);
    BOOST_TEST(r.out.find("  Parallel GC work balance: 25.19% (serial 0%, perfect 100%)") != std::string::npos);
    BOOST_TEST(r.out.find("Per-capability view") != std::string::npos);
}

// A window's summary says so on its first line, with the times it was cut at.
BOOST_AUTO_TEST_CASE(a_window_says_where_it_was_cut_in_the_banner) {
    const std::string path = env_dir("EL2FX_FIXTURES") + "/concurrency.eventlog";
    auto both = run_binary({"summary", path, "--from", "10ms", "--to", "20ms"});
    BOOST_TEST(both.status == 0);
    const std::string first = both.out.substr(0, both.out.find('\n'));
    BOOST_TEST(first.find(", computed from its events, in the window 10.000 ms to 20.000 ms") != std::string::npos,
               first);
    auto open_end = run_binary({"summary", path, "--from", "10ms"});
    BOOST_TEST(open_end.out.substr(0, open_end.out.find('\n')).find("in the window 10.000 ms to the log's end") !=
               std::string::npos);
    auto markers = run_binary({"summary", env_dir("EL2FX_FIXTURES") + "/userevents.eventlog", "--from-marker",
                               "program start", "--to-marker", "before workers"});
    BOOST_TEST(markers.status == 0);
    BOOST_TEST(markers.out.substr(0, markers.out.find('\n')).find("in the window 275.309 us to 282.573 us") !=
               std::string::npos);
    auto whole = run_binary({"summary", path});
    BOOST_TEST(whole.out.substr(0, whole.out.find('\n')).find(", in the window") == std::string::npos);
    BOOST_TEST(whole.out.find(", computed from its events\n\n") != std::string::npos);
}

// Total is the window's length and MUT is Total less GC; INIT and EXIT are not in a window.
BOOST_AUTO_TEST_CASE(a_windows_total_and_mut_are_its_own) {
    const std::string path = env_dir("EL2FX_FIXTURES") + "/concurrency.eventlog";
    auto r = run_binary({"summary", "--json", path, "--from", "10ms", "--to", "20ms"});
    BOOST_TEST(r.status == 0);
    rapidjson::Document d;
    d.Parse(r.out.data(), r.out.size());
    BOOST_REQUIRE(!d.HasParseError());
    BOOST_TEST(d["total_elapsed_ns"]["value"].GetUint64() == 10'000'000u);
    BOOST_TEST(d["mut_elapsed_ns"]["value"].GetUint64() ==
               10'000'000u - d["gc_elapsed_ns"]["value"].GetUint64());
    BOOST_TEST(d["gc_elapsed_ns"]["value"].GetUint64() > 0u);
    BOOST_TEST(d["init_elapsed_ns"]["value"].IsNull());
    BOOST_TEST(d["exit_elapsed_ns"]["value"].IsNull());
    auto text = run_binary({"summary", path, "--from", "10ms", "--to", "20ms"});
    BOOST_TEST(text.out.find("  Total   time         -  (  0.010s elapsed)") != std::string::npos, text.out);
}

BOOST_AUTO_TEST_CASE(json_for_machines) {
    auto r = run_binary({"summary", "--json", env_dir("EL2FX_FIXTURES") + "/alloc.eventlog"});
    BOOST_TEST(r.status == 0);
    rapidjson::Document d;
    d.Parse(r.out.data(), r.out.size());
    BOOST_REQUIRE(!d.HasParseError());
    BOOST_TEST(d["bytes_allocated"]["value"].GetUint64() == 532401568u);
    BOOST_TEST(d["bytes_copied"]["value"].GetUint64() == 648553056u);
    BOOST_TEST(d["generations_table"]["rows"].Size() == 3u);
}

BOOST_AUTO_TEST_CASE(a_truncated_log_says_why_figures_are_partial) {
    auto r = run_binary({"summary", env_dir("EL2FX_FIXTURES") + "/killed.eventlog"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.out.find("at least: the eventlog is truncated") != std::string::npos);
    BOOST_TEST(r.err.find("truncated") != std::string::npos);
    auto strict = run_binary({"summary", "--strict", env_dir("EL2FX_FIXTURES") + "/killed.eventlog"});
    BOOST_TEST(strict.status == 3);
    auto empty = run_binary({"summary", env_dir("EL2FX_FIXTURES") + "/killed-early.eventlog"});
    BOOST_TEST(empty.status == 0);
    BOOST_TEST(empty.out.find("the eventlog holds no events") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_input_and_usage) {
    auto missing = run_binary({"summary", "/nonexistent/x.eventlog"});
    BOOST_TEST(missing.status == 1);
    auto usage = run_binary({"summary"});
    BOOST_TEST(usage.status == 2);
}

BOOST_AUTO_TEST_SUITE_END()
