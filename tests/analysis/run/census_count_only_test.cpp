// The census of a pass that leaves the events it only counts to the reader
// (RunCensusCollector::counted_only_tags(), TimeOrderedReader::count_only()) must be the census
// of every event: on every real eventlog the index finds in order, field by field.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "analysis/run/run_census.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_files.hpp"
#include "upstream_data.hpp"

using namespace el2fx;
using namespace el2fx::run;
namespace ev = el2fx::eventlog;

namespace {

RunCensus take_census(ev::TimeOrderedReader& reader, bool count_only, std::uint64_t* counted = nullptr) {
    Diagnostics pass;
    std::optional<ev::EventPrefetcher> events;
    if (count_only)
        events.emplace(reader, pass, ev::EventPrefetcher::CountOnly{&RunCensusCollector::counted_only_tags()});
    else
        events.emplace(reader, pass);
    // Forgetting on (with a low threshold): it must happen at the same events.
    RunCensusCollector collector(false, CensusLimits{.thread_tracks = 3, .forget_above = 8});
    while (const ev::Event* e = events->next()) collector.handle(*e);
    if (counted) *counted = events->counted().events();
    BOOST_TEST(pass.total() == 0u);
    return collector.finish(events->counted());
}

void same_histogram(const LengthHistogram& a, const LengthHistogram& b) {
    BOOST_TEST(a.count() == b.count());
    BOOST_TEST(a.total_ns() == b.total_ns());
    for (std::uint64_t at = 1; at != 0; at <<= 1) BOOST_TEST(a.at_least(at) == b.at_least(at));
}

void same_census(const RunCensus& a, const RunCensus& b) {
    BOOST_TEST(a.run.rts_identifier == b.run.rts_identifier);
    BOOST_TEST(a.run.args == b.run.args);
    BOOST_TEST((a.run.pid == b.run.pid));
    BOOST_TEST((a.run.ppid == b.run.ppid));
    BOOST_TEST((a.run.wall_clock_unix_ns == b.run.wall_clock_unix_ns));
    BOOST_TEST(a.run.wall_clock_event_time == b.run.wall_clock_event_time);
    BOOST_TEST((a.run.generations == b.run.generations));
    BOOST_TEST((a.run.max_heap_size == b.run.max_heap_size));
    BOOST_TEST(a.run.capabilities == b.run.capabilities);
    BOOST_TEST(a.run.first_time == b.run.first_time);
    BOOST_TEST(a.run.last_time == b.run.last_time);
    BOOST_TEST(a.run.events == b.run.events);
    BOOST_TEST(a.run.events_by_tag == b.run.events_by_tag);

    BOOST_REQUIRE(a.threads.threads().size() == b.threads.threads().size());
    for (std::size_t n = 0; n < a.threads.threads().size(); ++n) {
        const ThreadFacts& x = a.threads.threads()[n];
        const ThreadFacts& y = b.threads.threads()[n];
        BOOST_TEST(x.id == y.id);
        BOOST_TEST(x.first_seen == y.first_seen);
        BOOST_TEST((x.created() == y.created()));
        BOOST_TEST((x.finished() == y.finished()));
        BOOST_TEST(a.threads.label(x) == b.threads.label(y));
    }
    BOOST_TEST(a.running_by_ordinal == b.running_by_ordinal);
    BOOST_TEST((a.capability_starts == b.capability_starts));
    BOOST_TEST(a.ticks == b.ticks);
    BOOST_TEST((a.spark_series == b.spark_series));

    same_histogram(a.detail.running, b.detail.running);
    same_histogram(a.detail.stopped, b.detail.stopped);
    same_histogram(a.detail.idle, b.detail.idle);
    same_histogram(a.detail.gc, b.detail.gc);
    BOOST_TEST(a.detail.moments == b.detail.moments);
    BOOST_TEST(a.detail.thread_events == b.detail.thread_events);
    BOOST_TEST(a.detail.messages == b.detail.messages);
    BOOST_TEST(a.detail.message_bytes == b.detail.message_bytes);
    BOOST_TEST(a.detail.other_events == b.detail.other_events);
    BOOST_TEST(a.detail.threads == b.detail.threads);
    BOOST_TEST(a.detail.capabilities == b.detail.capabilities);
    BOOST_TEST(a.detail.runs_by_thread == b.detail.runs_by_thread);
    BOOST_TEST(a.detail.other_runs == b.detail.other_runs);
}

// Of the logs in `dir` the index finds in order, how many counted events.
std::size_t check_logs_in(const std::filesystem::path& dir) {
    std::size_t counting = 0;
    el2fx::testing::check_indexed_eventlogs_in(dir, [&](ev::TimeOrderedReader& reader) {
        if (!reader.in_order()) return;  // the converter takes a census of every event then
        std::uint64_t counted = 0;
        const RunCensus all = take_census(reader, false);
        const RunCensus counting_only = take_census(reader, true, &counted);
        same_census(all, counting_only);
        if (counted > 0) ++counting;
    });
    return counting;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(census_count_only)

BOOST_AUTO_TEST_CASE(the_fixtures_give_the_census_of_every_event) {
    const char* fixtures = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(fixtures, "EL2FX_FIXTURES is not set (run the tests with `meson test`)");
    BOOST_TEST(check_logs_in(fixtures) >= 5u);  // the test exercises what it claims to
}

BOOST_AUTO_TEST_CASE(ghc_events_testdata_eventlogs_give_the_census_of_every_event, UPSTREAM_DATA) {
    auto dir = el2fx::testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    BOOST_TEST(check_logs_in(*dir) >= 5u);
}

BOOST_AUTO_TEST_SUITE_END()
