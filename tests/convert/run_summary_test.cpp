// The first screen: the +RTS -s headline figures as a marker spanning the run, and a profile
// named by the eventlog's file name, never its path.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <optional>
#include <unistd.h>

#include "convert/converter.hpp"
#include "convert/run_summary_marker.hpp"
#include "fxprof/profile_writer.hpp"
#include "run_process.hpp"
#include "util/rapidjson.hpp"

using namespace el2fx;
using el2fx::testing::env_dir;

namespace {

rapidjson::Document convert_json(const std::string& path, convert::ConvertOptions options = {}) {
    convert::ConversionReport report;
    const std::string json = fxprof::profile_to_json(convert::build_profile(path, options, report));
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(run_summary)

BOOST_AUTO_TEST_CASE(text_names_what_is_known_and_marks_estimates_and_bounds) {
    gc::RtsSummary s;
    BOOST_TEST(convert::run_summary_text(s).empty());
    s.gc_elapsed = gc::Figure<std::uint64_t>::exact(250'000'000);
    s.total_elapsed = gc::Figure<std::uint64_t>::lower_bound(1'000'000'000, "truncated");
    s.productivity = gc::Figure<double>::estimate(0.376, "MUT / Total");
    s.max_residency = gc::Figure<std::uint64_t>::exact(52'844'784);
    s.alloc_rate = gc::Figure<double>::estimate(2.1e9, "per MUT second");
    BOOST_TEST(convert::run_summary_text(s) ==
               "GC ≥25.0% · productivity ~37.6% · max residency 52.8 MB · alloc ~2.10 GB/s of MUT");
}

BOOST_AUTO_TEST_CASE(the_process_track_has_one_summary_marker_spanning_the_run) {
    auto d = convert_json(env_dir("EL2FX_FIXTURES") + "/alloc.eventlog");
    const auto& strings = d["shared"]["stringArray"];
    const auto& m = d["threads"][0]["markers"];
    int found = 0;
    for (rapidjson::SizeType i = 0; i < m["length"].GetUint(); ++i) {
        if (!m["data"][i].IsObject() || std::string(m["data"][i]["type"].GetString()) != "RunSummary") continue;
        ++found;
        BOOST_TEST(std::string(strings[m["name"][i].GetUint()].GetString()) == "+RTS -s");
        BOOST_TEST(std::string(m["data"][i]["summary"].GetString()).rfind("GC ", 0) == 0u);
        BOOST_TEST(m["endTime"][i].GetDouble() > m["startTime"][i].GetDouble());
    }
    BOOST_TEST(found == 1);
}

BOOST_AUTO_TEST_CASE(a_log_without_arguments_is_named_by_its_file_name_not_its_path) {
    convert::ConvertOptions options;
    options.input_name = std::filesystem::absolute(env_dir("EL2FX_FIXTURES") + "/killed.eventlog").string();
    auto d = convert_json(options.input_name, options);
    BOOST_TEST(std::string(d["meta"]["product"].GetString()) == "killed.eventlog");
    BOOST_TEST(std::string(d["threads"][0]["processName"].GetString()) == "killed.eventlog");
    BOOST_TEST(d["meta"]["startTime"].GetDouble() == 0.0);  // no wall clock: no made-up date
}

BOOST_AUTO_TEST_CASE(an_eventlog_without_events_says_so_on_the_command_line_and_in_the_profile) {
    const std::string out =
        (std::filesystem::temp_directory_path() / ("el2fx-empty-" + std::to_string(::getpid()) + ".json.gz")).string();
    auto r = el2fx::testing::run_binary({env_dir("EL2FX_FIXTURES") + "/killed-early.eventlog", "-o", out, "-q"});
    std::filesystem::remove(out);
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.find("the eventlog holds no events") != std::string::npos, r.err);

    auto d = convert_json(env_dir("EL2FX_FIXTURES") + "/killed-early.eventlog");
    const auto& strings = d["shared"]["stringArray"];
    const auto& m = d["threads"][0]["markers"];
    bool marker = false;
    for (rapidjson::SizeType i = 0; i < m["length"].GetUint(); ++i)
        marker = marker || std::string(strings[m["name"][i].GetUint()].GetString()) == "The eventlog holds no events";
    BOOST_TEST(marker);
}

BOOST_AUTO_TEST_CASE(a_truncated_eventlog_is_marked_where_its_data_stops) {
    auto d = convert_json(env_dir("EL2FX_FIXTURES") + "/killed.eventlog");
    const auto& strings = d["shared"]["stringArray"];
    const auto& m = d["threads"][0]["markers"];
    std::optional<double> at;
    for (rapidjson::SizeType i = 0; i < m["length"].GetUint(); ++i)
        if (std::string(strings[m["name"][i].GetUint()].GetString()) == "Eventlog truncated: no data after this point")
            at = m["startTime"][i].GetDouble();
    BOOST_REQUIRE(at);
    BOOST_TEST(*at == d["meta"]["profilingEndTime"].GetDouble(), boost::test_tools::tolerance(1e-6));
    // A complete log has none.
    auto whole = convert_json(env_dir("EL2FX_FIXTURES") + "/alloc.eventlog");
    BOOST_TEST(whole.GetObject()["threads"][0]["markers"]["length"].GetUint() > 0u);
    for (const auto& n : whole["threads"][0]["markers"]["name"].GetArray())
        BOOST_TEST(std::string(whole["shared"]["stringArray"][n.GetUint()].GetString()).find("truncated") ==
                   std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
