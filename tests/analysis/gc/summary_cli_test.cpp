// `eventlog2fxprof summary` end to end: text, --json, a truncated log, bad input.
#include <boost/test/unit_test.hpp>

#include <string>

#include "fxprof/rapidjson.hpp"
#include "run_process.hpp"

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
