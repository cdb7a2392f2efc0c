// End-to-end: `eventlog2fxprof compare` on fixture runs that differ in one known way (the same
// program with -A256k and -A1m, fixtures/compare/, tools/regen-compare-fixtures.sh) against the
// runtime's own +RTS -s reports; identical inputs; several runs per side; --fail-if's exit
// statuses; the command line's errors.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include "run_process.hpp"
#include "util/rapidjson.hpp"

using el2fx::testing::env_dir;
using el2fx::testing::run_binary;

namespace {

std::string fixture(const std::string& name) { return env_dir("EL2FX_FIXTURES") + "/compare/" + name; }

// The figures of a +RTS -s report that compare shows.
struct Report {
    double allocated = 0, copied = 0, max_residency = 0, gen0 = 0, gen1 = 0, gc_elapsed_s = 0, mut_elapsed_s = 0;
};

double number_before(const std::string& text, const std::string& words) {
    std::smatch m;
    BOOST_REQUIRE(std::regex_search(text, m, std::regex("([0-9,]+) " + words)));
    std::string digits = m.str(1);
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    return std::stod(digits);
}

Report read_report(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    Report r;
    r.allocated = number_before(text, "bytes allocated in the heap");
    r.copied = number_before(text, "bytes copied during GC");
    r.max_residency = number_before(text, "bytes maximum residency");
    std::smatch m;
    BOOST_REQUIRE(std::regex_search(text, m, std::regex(R"(Gen  0 +([0-9]+) colls)")));
    r.gen0 = std::stod(m.str(1));
    BOOST_REQUIRE(std::regex_search(text, m, std::regex(R"(Gen  1 +([0-9]+) colls)")));
    r.gen1 = std::stod(m.str(1));
    BOOST_REQUIRE(std::regex_search(text, m, std::regex(R"(GC +time +[0-9.]+s +\( *([0-9.]+)s elapsed\))")));
    r.gc_elapsed_s = std::stod(m.str(1));
    BOOST_REQUIRE(std::regex_search(text, m, std::regex(R"(MUT +time +[0-9.]+s +\( *([0-9.]+)s elapsed\))")));
    r.mut_elapsed_s = std::stod(m.str(1));
    return r;
}

rapidjson::Document parse(const std::string& json) {
    rapidjson::Document d;
    d.Parse(json.c_str());
    BOOST_REQUIRE_MESSAGE(!d.HasParseError(), json);
    return d;
}

const rapidjson::Value* figure(const rapidjson::Document& d, const std::string& key) {
    for (const auto& f : d["figures"].GetArray())
        if (key == f["key"].GetString()) return &f;
    return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(compare_command)

BOOST_AUTO_TEST_CASE(the_change_is_the_one_the_runtimes_own_reports_show) {
    const Report before = read_report(fixture("alloc-A256k-1.S.txt"));
    const Report after = read_report(fixture("alloc-A1m-1.S.txt"));
    auto r = run_binary({"compare", fixture("alloc-A256k-1.eventlog"), fixture("alloc-A1m-1.eventlog"), "--json"});
    BOOST_TEST(r.status == 0, r.err);
    const rapidjson::Document d = parse(r.out);
    BOOST_TEST(d["format"].GetString() == std::string("eventlog2fxprof-compare"));
    BOOST_TEST(d["version"].GetInt() == 1);
    BOOST_TEST(d["notes"].Size() == 1u);  // -A256k against -A1m, said
    auto exact = [&](const char* key, double b, double a) {
        const rapidjson::Value* f = figure(d, key);
        BOOST_REQUIRE_MESSAGE(f, key);
        BOOST_TEST((*f)["before"]["median"].GetDouble() == b, key);
        BOOST_TEST((*f)["after"]["median"].GetDouble() == a, key);
        BOOST_TEST((*f)["change"].GetDouble() == a - b, key);
    };
    exact("allocated", before.allocated, after.allocated);
    exact("copied", before.copied, after.copied);
    exact("max_residency", before.max_residency, after.max_residency);
    exact("gen0_collections", before.gen0, after.gen0);
    exact("gen1_collections", before.gen1, after.gen1);
    // The known difference: a quarter of the allocation area, about four times the minor collections.
    BOOST_TEST(before.gen0 > 3 * after.gen0);
    // Times: the report prints milliseconds.
    auto within_ms = [&](const char* key, double b_s, double a_s) {
        const rapidjson::Value* f = figure(d, key);
        BOOST_REQUIRE_MESSAGE(f, key);
        BOOST_TEST(std::fabs((*f)["before"]["median"].GetDouble() / 1e9 - b_s) <= 0.0015, key);
        BOOST_TEST(std::fabs((*f)["after"]["median"].GetDouble() / 1e9 - a_s) <= 0.0015, key);
        BOOST_TEST(std::fabs((*f)["change"].GetDouble() / 1e9 - (a_s - b_s)) <= 0.003, key);
    };
    within_ms("gc_elapsed", before.gc_elapsed_s, after.gc_elapsed_s);
    within_ms("mut_elapsed", before.mut_elapsed_s, after.mut_elapsed_s);
    // The other groups are there: pauses, the capability, heap-profile bands (-hT).
    for (const char* key :
         {"pause_median", "pause_p90", "pause_p99", "pause_max", "cap0_mutator", "cap0_gc", "cap0_idle"})
        BOOST_TEST(figure(d, key) != nullptr, key);
    bool bands = false;
    for (const auto& f : d["figures"].GetArray()) bands = bands || f["group"] == "heap_bands";
    BOOST_TEST(bands);
}

// The +RTS -s figures are the summary command's own, to the nanosecond and the byte.
BOOST_AUTO_TEST_CASE(the_rts_figures_are_those_of_summary) {
    const std::string a = fixture("alloc-A256k-1.eventlog"), b = fixture("alloc-A1m-1.eventlog");
    auto r = run_binary({"compare", a, b, "--json"});
    BOOST_TEST(r.status == 0, r.err);
    const rapidjson::Document d = parse(r.out);
    for (const auto& [side, input] : {std::pair{"before", a}, std::pair{"after", b}}) {
        auto s = run_binary({"summary", "--json", input});
        BOOST_TEST(s.status == 0, s.err);
        const rapidjson::Document summary = parse(s.out);
        for (const auto& [key, summary_key] :
             {std::pair{"allocated", "bytes_allocated"}, std::pair{"copied", "bytes_copied"},
              std::pair{"max_residency", "max_residency_bytes"}, std::pair{"memory_in_use", "memory_in_use_bytes"},
              std::pair{"mut_elapsed", "mut_elapsed_ns"}, std::pair{"gc_elapsed", "gc_elapsed_ns"},
              std::pair{"total_elapsed", "total_elapsed_ns"}}) {
            const rapidjson::Value* f = figure(d, key);
            BOOST_REQUIRE_MESSAGE(f, key);
            BOOST_TEST((*f)[side]["median"].GetDouble() == summary[summary_key]["value"].GetDouble(), key);
        }
        BOOST_TEST(figure(d, "productivity")->operator[](side)["median"].GetDouble() ==
                   summary["productivity_elapsed"]["value"].GetDouble());
        BOOST_TEST(figure(d, "gen0_collections")->operator[](side)["median"].GetDouble() ==
                   summary["generations_table"]["rows"][0]["collections"].GetDouble());
    }
}

BOOST_AUTO_TEST_CASE(identical_inputs_give_zero_change_and_no_mark) {
    for (std::vector<std::string> args :
         {std::vector<std::string>{"compare", fixture("alloc-A1m-1.eventlog"), fixture("alloc-A1m-1.eventlog"),
                                   "--json"},
          std::vector<std::string>{"compare", fixture("alloc-A1m-1.eventlog"), fixture("alloc-A1m-2.eventlog"), "--",
                                   fixture("alloc-A1m-1.eventlog"), fixture("alloc-A1m-2.eventlog"), "--json"}}) {
        auto r = run_binary(args);
        BOOST_TEST(r.status == 0, r.err);
        const rapidjson::Document d = parse(r.out);
        BOOST_TEST(d["notes"].Size() == 0u);
        BOOST_TEST(d["figures"].Size() > 20u);
        for (const auto& f : d["figures"].GetArray()) {
            BOOST_TEST(f["change"].GetDouble() == 0, f["key"].GetString());
            BOOST_TEST(!f["apart"].GetBool(), f["key"].GetString());
        }
    }
    auto text = run_binary({"compare", fixture("alloc-A1m-1.eventlog"), fixture("alloc-A1m-1.eventlog")});
    BOOST_TEST(text.status == 0);
    BOOST_TEST(text.out.find(" *\n") == std::string::npos, text.out);
    BOOST_TEST(text.out.find('\033') == std::string::npos);  // no colour off a terminal
}

BOOST_AUTO_TEST_CASE(several_runs_per_side_give_medians_ranges_and_the_mark) {
    auto r = run_binary({"compare", fixture("alloc-A256k-1.eventlog"), fixture("alloc-A256k-2.eventlog"), "--",
                         fixture("alloc-A1m-1.eventlog"), fixture("alloc-A1m-2.eventlog"), "--json"});
    BOOST_TEST(r.status == 0, r.err);
    const rapidjson::Document d = parse(r.out);
    BOOST_TEST(d["before"]["runs"].Size() == 2u);
    BOOST_TEST(d["after"]["runs"].Size() == 2u);
    const rapidjson::Value* gen0 = figure(d, "gen0_collections");
    BOOST_REQUIRE(gen0);
    BOOST_TEST((*gen0)["apart"].GetBool());
    BOOST_TEST((*gen0)["before"]["values"].Size() == 2u);
    const double b1 = read_report(fixture("alloc-A256k-1.S.txt")).gen0,
                 b2 = read_report(fixture("alloc-A256k-2.S.txt")).gen0;
    BOOST_TEST((*gen0)["before"]["median"].GetDouble() == (b1 + b2) / 2);
    BOOST_TEST((*gen0)["before"]["min"].GetDouble() == std::min(b1, b2));
    const rapidjson::Value* allocated = figure(d, "allocated");
    BOOST_TEST(!(*allocated)["apart"].GetBool());  // the same program allocates the same

    auto text = run_binary({"compare", fixture("alloc-A256k-1.eventlog"), fixture("alloc-A256k-2.eventlog"), "--",
                            fixture("alloc-A1m-1.eventlog"), fixture("alloc-A1m-2.eventlog")});
    BOOST_TEST(text.status == 0);
    BOOST_TEST(std::regex_search(text.out, std::regex(R"(Gen 0 collections .* \*\n)")), text.out);
    BOOST_TEST(text.out.find("–") != std::string::npos);  // the ranges
}

BOOST_AUTO_TEST_CASE(fail_if_exits_5_when_a_gate_fails_and_0_otherwise) {
    const std::string a = fixture("alloc-A256k-1.eventlog"), b = fixture("alloc-A1m-1.eventlog");
    auto failed = run_binary({"compare", a, b, "--fail-if", "gen0_collections<-50%", "--fail-if", "allocated>+1%"});
    BOOST_TEST(failed.status == 5, failed.err);
    BOOST_TEST(failed.out.find("gen0_collections<-50%: FAILED") != std::string::npos, failed.out);
    BOOST_TEST(failed.out.find("allocated>+1%: ok") != std::string::npos, failed.out);
    auto passed = run_binary({"compare", a, b, "--fail-if", "allocated>+1%", "--fail-if", "max_residency>+5MB"});
    BOOST_TEST(passed.status == 0, passed.err);
    auto json = run_binary({"compare", a, b, "--json", "--fail-if", "gen0_collections<-50%"});
    BOOST_TEST(json.status == 5);
    const rapidjson::Document d = parse(json.out);
    BOOST_TEST(d["failed"].GetBool());
    BOOST_TEST(d["gates"][0]["failed"].GetBool());
    // Identical runs pass any gate on a change.
    auto same = run_binary({"compare", a, a, "--fail-if", "gc_elapsed>0%", "--fail-if", "pause_max>+0ns"});
    BOOST_TEST(same.status == 0, same.err);
}

BOOST_AUTO_TEST_CASE(bad_gates_and_command_lines_are_usage_errors) {
    const std::string a = fixture("alloc-A1m-1.eventlog");
    for (const char* bad :
         {"gc_elapsed", "gc_elapsed>abc", "gc_elapsed>+10furlongs", ">5%", "nosuch>+1%", "gc_elapsed>5MB"}) {
        auto r = run_binary({"compare", a, a, "--fail-if", bad});
        BOOST_TEST(r.status == 2, bad);
        BOOST_TEST(r.out.empty(), bad);  // nothing printed, not even for a gate found bad after reading
        BOOST_TEST(r.err.find("--fail-if") != std::string::npos, r.err);
        BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
    }
    BOOST_TEST(run_binary({"compare", a}).status == 2);
    BOOST_TEST(run_binary({"compare", a, a, a}).status == 2);
    BOOST_TEST(run_binary({"compare", a, "--"}).status == 2);
    BOOST_TEST(run_binary({"compare", "--", a}).status == 2);
    BOOST_TEST(run_binary({"compare", a, "/nonexistent.eventlog"}).status == 1);
    auto help = run_binary({"compare", "--help"});
    BOOST_TEST(help.status == 0);
    BOOST_TEST(help.out.find("--fail-if 'gc_elapsed>+10%'") != std::string::npos, help.out);
}

BOOST_AUTO_TEST_SUITE_END()
