// The comparison of a profile of several runs: the heap chart on one scale (one marker type
// whose graphs are every run's lines) and the comparison in Profile Info.
#include <boost/test/unit_test.hpp>

#include <set>

#include "check/profile_check.hpp"
#include "convert/converter.hpp"
#include "convert/heap_comparison_chart.hpp"
#include "fxprof/profile_writer.hpp"
#include "json_golden.hpp"
#include "run_process.hpp"

using namespace el2fx;
using el2fx::testing::env_dir;

namespace {

compare::RunSeries series(std::uint64_t end, std::vector<compare::TimedBytes> size,
                          std::vector<compare::TimedBytes> live = {}) {
    compare::RunSeries s;
    s.end = end;
    s.heap_size = std::move(size);
    s.heap_live = std::move(live);
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_comparison)

BOOST_AUTO_TEST_CASE(each_span_has_every_runs_largest_level_within_it) {
    // Run 1: 100 from 0, 300 from 15; run 2: 50 from 5, ends at 20.
    auto chart = convert::make_heap_comparison_chart({series(40, {{0, 100}, {15, 300}}), series(20, {{5, 50}})},
                                                     {"a", "b"}, 3, 4);
    BOOST_REQUIRE(chart.series.size() == 2u);
    BOOST_TEST(chart.series[0].key == "r1_size");
    BOOST_TEST(chart.series[0].label == "a: heap size");
    BOOST_TEST(chart.series[1].key == "r2_size");
    BOOST_TEST((chart.series[0].color != chart.series[1].color));
    // Bins of 10 ns over the longest run (40 ns): [0,10) [10,20) [20,30) [30,40); the last two
    // have the same levels and are one span.
    BOOST_REQUIRE(chart.rows.size() == 3u);
    BOOST_TEST((chart.rows[0].levels == std::vector<std::uint64_t>{100, 50}));
    BOOST_TEST((chart.rows[1].levels == std::vector<std::uint64_t>{300, 50}));
    BOOST_TEST((chart.rows[2].levels == std::vector<std::uint64_t>{300, 0}));  // run 2 ended at 20
    BOOST_TEST(chart.rows[2].start == 20u);
    BOOST_TEST(chart.rows[2].end == 40u);
}

BOOST_AUTO_TEST_CASE(the_bands_are_the_largest_peaks_over_all_runs_by_name) {
    compare::RunSeries a = series(10, {{0, 1}}), b = series(10, {{0, 1}});
    a.bands = {{"small", 5, {{0, 5}}}, {"big", 90, {{0, 90}}}};
    b.bands = {{"big", 40, {{0, 40}}}, {"middle", 60, {{0, 60}}}};
    auto chart = convert::make_heap_comparison_chart({a, b}, {"a", "b"}, 2, 1);
    std::vector<std::string> keys;
    for (const auto& s : chart.series) keys.push_back(s.label);
    BOOST_TEST((keys == std::vector<std::string>{"a: heap size", "a: big", "b: heap size", "b: big", "b: middle"}));
}

BOOST_AUTO_TEST_CASE(a_profile_of_two_runs_draws_both_heaps_on_one_scale_and_compares_them_in_profile_info) {
    const std::string a = env_dir("EL2FX_FIXTURES") + "/compare/alloc-A256k-1.eventlog";
    const std::string b = env_dir("EL2FX_FIXTURES") + "/compare/alloc-A1m-1.eventlog";
    std::vector<convert::ConversionReport> reports;
    fxprof::Profile profile = convert::build_profile({{a, "small"}, {b, "large"}}, {}, reports);
    const std::string json = fxprof::profile_to_json(profile);
    const auto problems = check::validate_profile(json);
    BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
    const rapidjson::Document d = el2fx::testing::parse_golden_json(json);

    // One schema whose graphs are both runs' lines (and a line at zero): one track, one scale.
    const rapidjson::Value* schema = nullptr;
    for (const auto& s : d["meta"]["markerSchema"].GetArray())
        if (std::string(s["name"].GetString()) == "HeapComparison") schema = &s;
    BOOST_REQUIRE(schema);
    std::set<std::string> graphs;
    for (const auto& g : (*schema)["graphs"].GetArray()) graphs.insert(g["key"].GetString());
    for (const char* key : {"r1_size", "r1_live", "r2_size", "r2_live", "r1_b1", "r2_b1", "zero"})
        BOOST_TEST(graphs.count(key) == 1u, key);

    // On the one thread of the "Runs compared" process, every marker of the type, from 0.
    const rapidjson::Value* track = nullptr;
    for (const auto& t : d["threads"].GetArray())
        if (std::string(t["processName"].GetString()) == "Runs compared") track = &t;
    BOOST_REQUIRE(track);
    const auto& markers = (*track)["markers"];
    BOOST_REQUIRE(markers["length"].GetUint() > 10u);
    BOOST_TEST(markers["startTime"][0].GetDouble() == 0.0);
    std::uint64_t peak_size[2] = {0, 0};
    for (const auto& m : markers["data"].GetArray()) {
        BOOST_TEST(m["type"].GetString() == std::string("HeapComparison"));
        peak_size[0] = std::max<std::uint64_t>(peak_size[0], m["r1_size"].GetUint64());
        peak_size[1] = std::max<std::uint64_t>(peak_size[1], m["r2_size"].GetUint64());
    }
    // The peaks are the runs' own: the largest HEAP_SIZE is what +RTS -s calls memory in use.
    BOOST_TEST(peak_size[0] > 0u);
    BOOST_TEST(peak_size[1] > 0u);
    BOOST_TEST(peak_size[0] != peak_size[1]);

    // Profile Info: the comparison, run 2 against run 1.
    const rapidjson::Value* section = nullptr;
    for (const auto& e : d["meta"]["extra"].GetArray())
        if (std::string(e["label"].GetString()) == "Compared: small → large") section = &e;
    BOOST_REQUIRE(section);
    bool collections = false;
    for (const auto& entry : (*section)["entries"].GetArray())
        if (std::string(entry["label"].GetString()) == "Gen 0 collections") {
            collections = true;
            BOOST_TEST(std::string(entry["value"].GetString()).find("(-") != std::string::npos);
        }
    BOOST_TEST(collections);
}

BOOST_AUTO_TEST_CASE(redacted_arguments_keep_the_rts_options_out_of_the_comparison) {
    const std::string a = env_dir("EL2FX_FIXTURES") + "/compare/alloc-A256k-1.eventlog";
    const std::string b = env_dir("EL2FX_FIXTURES") + "/compare/alloc-A1m-1.eventlog";
    convert::ConvertOptions options;
    options.redact_args = true;
    std::vector<convert::ConversionReport> reports;
    const std::string json =
        fxprof::profile_to_json(convert::build_profile({{a, "small"}, {b, "large"}}, options, reports));
    BOOST_TEST(json.find("Compared: small") != std::string::npos);
    BOOST_TEST(json.find("-A256k") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_run_gets_no_comparison) {
    convert::ConversionReport report;
    fxprof::Profile profile =
        convert::build_profile(env_dir("EL2FX_FIXTURES") + "/compare/alloc-A1m-1.eventlog", {}, report);
    for (const auto& s : profile.marker_schemas()) BOOST_TEST(s.name != "HeapComparison");
}

BOOST_AUTO_TEST_SUITE_END()
