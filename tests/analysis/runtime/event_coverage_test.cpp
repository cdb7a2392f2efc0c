// The registry of where each event type is shown: no type the decoder knows is
// silently dropped by `convert`.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <unistd.h>

#include "check/profile_check.hpp"
#include "convert/contributors.hpp"
#include "convert/event_coverage.hpp"
#include "eventlog/event_types.hpp"
#include "fxprof/gzip.hpp"
#include "run_process.hpp"

using namespace el2fx;
using namespace el2fx::convert;

namespace {

template <typename... Ts>
std::vector<std::uint16_t> all_tags(eventlog::TypeList<Ts...>) {
    return {Ts::tag...};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(event_coverage_suite)

BOOST_AUTO_TEST_CASE(every_known_event_type_is_shown_or_has_a_reason) {
    for (bool include_env : {false, true}) {
        ConvertOptions options;
        options.include_env = include_env;
        std::vector<EventTypeCoverage> coverage = event_coverage(options);
        std::vector<std::uint16_t> tags = all_tags(eventlog::AllPayloads{});
        BOOST_REQUIRE(coverage.size() == tags.size());
        for (const EventTypeCoverage& c : coverage) {
            BOOST_TEST(std::count(tags.begin(), tags.end(), c.tag) == 1);
            if (!c.shown_by.empty()) continue;
            BOOST_TEST(!c.not_shown.empty(), c.name);
            if (c.not_shown == kNoPartShowsIt)
                BOOST_ERROR(c.tag << " " << c.name << " is neither shown nor listed as not shown with a reason");
        }
    }
}

BOOST_AUTO_TEST_CASE(no_type_is_both_shown_and_listed_as_not_shown) {
    ConvertOptions options;
    for (const NotShown& n : not_shown_event_types(options)) {
        for (const EventTypeCoverage& c : event_coverage(options))
            if (c.tag == n.tag && !c.shown_by.empty()) BOOST_ERROR(c.name << " is shown by " << c.shown_by.front());
    }
}

BOOST_AUTO_TEST_CASE(the_threading_mapper_lists_the_thread_and_gc_tags) {
    ThreadingMapper mapper;
    auto t = mapper.shown_tags();
    for (std::uint16_t tag : {0, 1, 2, 4, 8, 9, 10, 44}) BOOST_TEST(std::count(t.begin(), t.end(), tag) == 1, tag);
    BOOST_TEST(mapper.name() == "threads");
}

BOOST_AUTO_TEST_CASE(the_environment_is_shown_only_when_asked_for) {
    ConvertOptions options;
    auto find_env = [](const std::vector<EventTypeCoverage>& cs) {
        return *std::find_if(cs.begin(), cs.end(), [](const auto& c) { return c.tag == eventlog::ProgramEnv::tag; });
    };
    EventTypeCoverage off = find_env(event_coverage(options));
    BOOST_TEST(off.shown_by.empty());
    BOOST_TEST(off.not_shown.find("--include-env") != std::string_view::npos);
    options.include_env = true;
    EventTypeCoverage on = find_env(event_coverage(options));
    BOOST_REQUIRE(on.shown_by.size() == 1u);
    BOOST_TEST(on.shown_by[0] == "run info");
}

BOOST_AUTO_TEST_CASE(contributors_report_their_parts_by_name) {
    ConvertOptions options;
    std::vector<EventTypeCoverage> coverage = event_coverage(options);
    auto shown_by = [&](std::uint16_t tag) {
        for (const auto& c : coverage)
            if (c.tag == tag) return c.shown_by;
        return std::vector<std::string>{};
    };
    auto has = [](const std::vector<std::string>& v, const char* s) {
        return std::find(v.begin(), v.end(), s) != v.end();
    };
    BOOST_TEST(has(shown_by(eventlog::UserMessage::tag), "user events"));
    BOOST_TEST(has(shown_by(eventlog::UserMarker::tag), "user events"));
    BOOST_TEST(has(shown_by(eventlog::UserBinaryMessage::tag), "user events"));
    BOOST_TEST(has(shown_by(eventlog::SparkCounters::tag), "sparks"));
    BOOST_TEST(has(shown_by(eventlog::SparkSteal::tag), "sparks"));
    BOOST_TEST(has(shown_by(eventlog::RunSpark::tag), "sparks"));
    BOOST_TEST(has(shown_by(eventlog::TaskMigrate::tag), "runtime events"));
    BOOST_TEST(has(shown_by(eventlog::TickyCounterSample::tag), "runtime events"));
    BOOST_TEST(has(shown_by(eventlog::MerCallingMain::tag), "runtime events"));
    BOOST_TEST(has(shown_by(eventlog::StopThread::tag), "threads"));
}

BOOST_AUTO_TEST_CASE(the_report_lists_the_types_in_the_log) {
    std::vector<std::uint64_t> counts(300, 0);
    counts[eventlog::BlockMarker::tag] = 3;
    counts[eventlog::UserMessage::tag] = 29;
    counts[250] = 1;  // not in the table
    std::string report = coverage_report(counts, ConvertOptions{});
    BOOST_TEST(report.find("BLOCK_MARKER") != std::string::npos);
    BOOST_TEST(report.find("not shown: framing") != std::string::npos);
    BOOST_TEST(report.find("USER_MSG                               29  user events") != std::string::npos, report);
    BOOST_TEST(report.find("not shown: a type this tool does not know") != std::string::npos);
    BOOST_TEST(report.find("CREATE_THREAD") == std::string::npos);  // none in the log
}

BOOST_AUTO_TEST_CASE(convert_stats_prints_where_each_type_is_shown) {
    std::string dir = el2fx::testing::env_dir("EL2FX_FIXTURES");
    std::string out =
        (std::filesystem::temp_directory_path() / ("el2fx-stats-" + std::to_string(::getpid()) + ".json.gz")).string();
    auto r = el2fx::testing::run_binary({"convert", "--stats", "--no-user-messages", "--spark-burst-gap", "0",
                                         dir + "/userevents.eventlog", "-o", out});
    std::filesystem::remove(out);
    BOOST_TEST(r.status == 0, r.err);
    BOOST_TEST(r.out.find("USER_MARKER") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("user events") != std::string::npos);
    BOOST_TEST(r.out.find("OSPROCESS_PPID") != std::string::npos);
    BOOST_TEST(r.out.find("not shown: the parent's process id") != std::string::npos);
    // With the profile on standard output, the table goes to standard error.
    auto piped = el2fx::testing::run_binary({"convert", "--stats", dir + "/sparks.eventlog", "-o", "-"});
    BOOST_TEST(piped.status == 0, piped.err);
    BOOST_TEST(piped.err.find("SPARK_STEAL") != std::string::npos, piped.err);
    BOOST_TEST(check::validate_profile(fxprof::gunzip(piped.out)).empty());
    auto bad =
        el2fx::testing::run_binary({"convert", "--spark-burst-gap", "soon", dir + "/userevents.eventlog", "-o", out});
    BOOST_TEST(bad.status != 0);
}

BOOST_AUTO_TEST_SUITE_END()
