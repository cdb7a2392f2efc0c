// The census of a pass that leaves the events it only counts to the reader
// (RunCensusCollector::interests(), TimeOrderedReader::count_only()) must be the census
// of every event: on every real eventlog the index finds in order, field by field. So must the
// census of a pass that leaves it the wake-ups too, but for each thread's earliest, where it
// need not forget threads; where it must, it refuses (CensusNeedsEveryWakeup). And the spark
// counters the reader counts where the census knows their non-zero series already.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>

#include "analysis/run/run_census.hpp"
#include "pass/pass_plan.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_files.hpp"
#include "upstream_data.hpp"

using namespace el2fx;
using namespace el2fx::run;
namespace ev = el2fx::eventlog;

namespace {

enum class Counting { none, gc, gc_and_wakeups };

// Forgetting on (with a low threshold by default): it must happen at the same events.
constexpr CensusLimits kForgetting{.thread_tracks = 3, .forget_above = 8};

// What the census's declared interests let a reader count in its place.
const ev::TagSet& counted_only_tags() {
    static const pass::PassPlan plan = [] {
        const pass::Interests census = RunCensusCollector::interests();
        return pass::plan_pass({&census, 1});
    }();
    return plan.counted_only;
}

RunCensus take_census(ev::TimeOrderedReader& reader, Counting counting, ev::CountedRecords* counted = nullptr,
                      CensusLimits limits = kForgetting) {
    Diagnostics pass;
    RunCensusCollector collector(false, limits);
    if (counting == Counting::gc_and_wakeups) collector.counts_wakeups_elsewhere();
    std::optional<ev::EventPrefetcher> events;
    if (counting != Counting::none)
        events.emplace(reader, pass, ev::EventPrefetcher::CountOnly{&counted_only_tags(), collector.repeats()});
    else
        events.emplace(reader, pass);
    while (const ev::Event* e = events->next()) collector.handle(*e);
    if (counted) *counted = events->counted();
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

// Of the logs in `dir` the index finds in order, how many counted events, counted wake-ups,
// and met forgetting with wake-ups counted.
struct Exercised {
    std::size_t counting = 0, counting_wakeups = 0, counting_sparks = 0, refused = 0;
};
Exercised check_logs_in(const std::filesystem::path& dir) {
    Exercised exercised;
    el2fx::testing::check_indexed_eventlogs_in(dir, [&](ev::TimeOrderedReader& reader) {
        if (!reader.in_order()) return;  // the converter takes a census of every event then
        ev::CountedRecords counted;
        const RunCensus all = take_census(reader, Counting::none);
        same_census(all, take_census(reader, Counting::gc, &counted));
        if (counted.events() > 0) ++exercised.counting;
        if (counted.by_tag[ev::SparkCounters::tag] > 0) ++exercised.counting_sparks;
        // Wake-ups counted too, with no forgetting (the converter's rule: few threads).
        const CensusLimits never_forgetting{.thread_tracks = 3, .forget_above = 1'000'000};
        same_census(take_census(reader, Counting::none, nullptr, never_forgetting),
                    take_census(reader, Counting::gc_and_wakeups, &counted, never_forgetting));
        if (counted.by_tag[ev::WakeupThread::tag] > 0) ++exercised.counting_wakeups;
        // With forgetting due, the census refuses counted wake-ups, or never had to forget.
        try {
            same_census(all, take_census(reader, Counting::gc_and_wakeups));
        } catch (const CensusNeedsEveryWakeup&) {
            ++exercised.refused;
        }
    });
    return exercised;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(census_count_only)

BOOST_AUTO_TEST_CASE(the_fixtures_give_the_census_of_every_event) {
    const char* fixtures = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(fixtures, "EL2FX_FIXTURES is not set (run the tests with `meson test`)");
    const Exercised exercised = check_logs_in(fixtures);  // the test exercises what it claims to
    BOOST_TEST(exercised.counting >= 5u);
    BOOST_TEST(exercised.counting_wakeups >= 5u);
    BOOST_TEST(exercised.counting_sparks >= 3u);
    BOOST_TEST(exercised.refused >= 1u);
}

BOOST_AUTO_TEST_CASE(ghc_events_testdata_eventlogs_give_the_census_of_every_event, UPSTREAM_DATA) {
    auto dir = el2fx::testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    const Exercised exercised = check_logs_in(*dir);
    BOOST_TEST(exercised.counting >= 5u);
    BOOST_TEST(exercised.counting_wakeups >= 1u);
}

BOOST_AUTO_TEST_SUITE_END()
