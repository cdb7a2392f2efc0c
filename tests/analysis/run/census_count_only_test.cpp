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
#include "census_fields.hpp"
#include "eventlog_files.hpp"
#include "upstream_data.hpp"

using namespace el2fx;
using namespace el2fx::run;
using el2fx::testing::same_census;
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
