// Spark counters and spark-event bursts, one transition per test.
#include <boost/test/unit_test.hpp>

#include "analysis/runtime/spark_bursts.hpp"
#include "analysis/runtime/spark_counters.hpp"

using namespace el2fx::runtime;
using el2fx::eventlog::SparkCounters;

namespace {

SparkCounters counters(std::uint64_t created, std::uint64_t converted, std::uint64_t pool) {
    SparkCounters c;
    c.created = created;
    c.converted = converted;
    c.remaining = pool;
    return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(spark_counters)

BOOST_AUTO_TEST_CASE(counts_are_taken_by_field_name_not_wire_position) {
    SparkCounters e;  // wire order: created, dud, overflowed, converted, gcd, fizzled, remaining
    e.created = 1;
    e.dud = 2;
    e.overflowed = 3;
    e.converted = 4;
    e.gcd = 5;
    e.fizzled = 6;
    e.remaining = 7;
    SparkCounts c = spark_counts(e);
    BOOST_TEST(value_of(c, SparkCounter::created) == 1u);
    BOOST_TEST(value_of(c, SparkCounter::converted) == 4u);
    BOOST_TEST(value_of(c, SparkCounter::overflowed) == 3u);
    BOOST_TEST(value_of(c, SparkCounter::dud) == 2u);
    BOOST_TEST(value_of(c, SparkCounter::gcd) == 5u);
    BOOST_TEST(value_of(c, SparkCounter::fizzled) == 6u);
    BOOST_TEST(value_of(c, SparkCounter::pool) == 7u);
}

BOOST_AUTO_TEST_CASE(labels_follow_the_rts_summary) {
    BOOST_TEST(spark_counter_label(SparkCounter::gcd) == "GC'd");
    BOOST_TEST(spark_counter_label(SparkCounter::pool) == "pool size");
    BOOST_TEST(spark_counter_is_cumulative(SparkCounter::created));
    BOOST_TEST(!spark_counter_is_cumulative(SparkCounter::pool));
}

BOOST_AUTO_TEST_CASE(samples_are_kept_per_capability_in_order) {
    SparkCounterCollector c;
    BOOST_TEST(c.empty());
    c.add(1, 100, counters(5, 1, 4));
    c.add(0, 110, counters(2, 0, 2));
    c.add(1, 200, counters(9, 6, 3));
    BOOST_TEST(!c.empty());
    BOOST_REQUIRE(c.by_capability().size() == 2u);
    const auto& cap1 = c.by_capability().at(1);
    BOOST_REQUIRE(cap1.size() == 2u);
    BOOST_TEST(cap1[1].time == 200u);
    BOOST_TEST(value_of(cap1[1].counts, SparkCounter::converted) == 6u);
}

BOOST_AUTO_TEST_CASE(totals_add_up_each_capabilitys_last_sample) {
    SparkCounterCollector c;
    c.add(0, 100, counters(2, 0, 2));
    c.add(1, 100, counters(5, 1, 4));
    c.add(0, 200, counters(7, 7, 0));
    SparkCounts t = c.totals();
    BOOST_TEST(value_of(t, SparkCounter::created) == 12u);
    BOOST_TEST(value_of(t, SparkCounter::converted) == 8u);
    BOOST_TEST(value_of(t, SparkCounter::pool) == 4u);
}

BOOST_AUTO_TEST_CASE(a_series_zero_in_every_sample_is_all_zero) {
    SparkCounterCollector c;
    c.add(0, 100, counters(2, 0, 0));
    c.add(0, 200, counters(3, 0, 1));
    BOOST_TEST(c.all_zero(0, SparkCounter::converted));
    BOOST_TEST(!c.all_zero(0, SparkCounter::pool));
    BOOST_TEST(c.all_zero(5, SparkCounter::created));  // no such capability
}

BOOST_AUTO_TEST_CASE(summed_samples_carry_every_capabilitys_latest_counts) {
    SparkCounterCollector c;
    c.add(0, 100, counters(2, 0, 2));
    c.add(1, 150, counters(5, 1, 4));
    c.add(0, 200, counters(7, 7, 0));
    c.add(1, 200, counters(6, 2, 1));
    auto s = c.summed();
    BOOST_REQUIRE(s.size() == 3u);  // the two samples at 200 are one
    BOOST_TEST(value_of(s[0].counts, SparkCounter::created) == 2u);
    BOOST_TEST(value_of(s[1].counts, SparkCounter::created) == 7u);
    BOOST_TEST(s[2].time == 200u);
    BOOST_TEST(value_of(s[2].counts, SparkCounter::created) == 13u);
    BOOST_TEST(value_of(s[2].counts, SparkCounter::pool) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(spark_bursts)

BOOST_AUTO_TEST_CASE(spark_event_tags_have_kinds_and_names) {
    BOOST_TEST((spark_event_kind(35) == SparkEventKind::created));
    BOOST_TEST((spark_event_kind(39) == SparkEventKind::stolen));
    BOOST_TEST((spark_event_kind(41) == SparkEventKind::gcd));
    BOOST_TEST(!spark_event_kind(34));
    BOOST_TEST(!spark_event_kind(42));
    BOOST_TEST(spark_event_name(SparkEventKind::fizzled) == "Spark fizzled");
}

BOOST_AUTO_TEST_CASE(a_lone_event_is_a_burst_of_one) {
    SparkBurstAggregator a(1000);
    a.add(0, 50, SparkEventKind::run);
    BOOST_TEST(a.bursts().empty());  // still open
    a.finish();
    BOOST_REQUIRE(a.bursts().size() == 1u);
    BOOST_TEST(a.bursts()[0].count == 1u);
    BOOST_TEST(a.bursts()[0].start == 50u);
    BOOST_TEST(a.bursts()[0].end == 50u);
    BOOST_TEST(a.events(SparkEventKind::run) == 1u);
}

BOOST_AUTO_TEST_CASE(events_within_the_gap_extend_the_burst) {
    SparkBurstAggregator a(1000);
    a.add(0, 100, SparkEventKind::created);
    a.add(0, 600, SparkEventKind::created);
    a.add(0, 1600, SparkEventKind::created);  // 1000 after the previous: still within
    a.finish();
    BOOST_REQUIRE(a.bursts().size() == 1u);
    BOOST_TEST(a.bursts()[0].count == 3u);
    BOOST_TEST(a.bursts()[0].start == 100u);
    BOOST_TEST(a.bursts()[0].end == 1600u);
}

BOOST_AUTO_TEST_CASE(an_event_past_the_gap_starts_a_new_burst) {
    SparkBurstAggregator a(1000);
    a.add(0, 100, SparkEventKind::created);
    a.add(0, 1101, SparkEventKind::created);
    BOOST_REQUIRE(a.bursts().size() == 1u);  // the first ended when the second came
    BOOST_TEST(a.bursts()[0].count == 1u);
    a.finish();
    BOOST_REQUIRE(a.bursts().size() == 2u);
    BOOST_TEST(a.bursts()[1].start == 1101u);
}

BOOST_AUTO_TEST_CASE(kinds_and_capabilities_burst_separately) {
    SparkBurstAggregator a(1000);
    a.add(0, 100, SparkEventKind::created);
    a.add(0, 110, SparkEventKind::run);
    a.add(1, 120, SparkEventKind::created);
    a.add(0, 130, SparkEventKind::created);
    a.finish();
    BOOST_REQUIRE(a.bursts().size() == 3u);
    std::uint64_t cap0_created = 0;
    for (const auto& b : a.bursts())
        if (b.cap == 0 && b.kind == SparkEventKind::created) cap0_created = b.count;
    BOOST_TEST(cap0_created == 2u);
}

BOOST_AUTO_TEST_CASE(steals_from_different_victims_burst_separately) {
    SparkBurstAggregator a(1000);
    a.add(0, 100, SparkEventKind::stolen, std::uint16_t{1});
    a.add(0, 110, SparkEventKind::stolen, std::uint16_t{2});
    a.add(0, 120, SparkEventKind::stolen, std::uint16_t{1});
    a.finish();
    BOOST_REQUIRE(a.bursts().size() == 2u);
    for (const auto& b : a.bursts()) {
        BOOST_REQUIRE(b.victim);
        BOOST_TEST(b.count == (*b.victim == 1 ? 2u : 1u));
    }
    BOOST_TEST(a.events(SparkEventKind::stolen) == 3u);
}

BOOST_AUTO_TEST_CASE(a_gap_of_zero_keeps_every_event_apart) {
    SparkBurstAggregator a(0);
    a.add(0, 100, SparkEventKind::overflowed);
    a.add(0, 100, SparkEventKind::overflowed);
    a.add(0, 101, SparkEventKind::overflowed);
    a.finish();
    BOOST_TEST(a.bursts().size() == 3u);
    for (const auto& b : a.bursts()) BOOST_TEST(b.count == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

#include "analysis/runtime/spark_rates.hpp"

BOOST_AUTO_TEST_SUITE(spark_rates)

namespace {
// created, converted, overflowed, dud, gcd, fizzled, pool (SparkCounter order).
SparkCounts counts(std::uint64_t created, std::uint64_t converted, std::uint64_t fizzled, std::uint64_t pool) {
    return SparkCounts{created, converted, 0, 0, 0, fizzled, pool};
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_span_between_two_samples_has_the_growth_per_ms) {
    SparkRateSpans r;
    r.add(1'000'000, counts(0, 0, 0, 0));
    r.add(3'000'000, counts(100, 40, 2, 58));  // 2 ms later
    r.finish();
    BOOST_REQUIRE(r.spans().size() == 1u);
    const SparkRateSpan& s = r.spans()[0];
    BOOST_TEST(s.start == 1'000'000u);
    BOOST_TEST(s.end == 3'000'000u);
    BOOST_TEST(s.per_ms(SparkCounter::created) == 50.0);
    BOOST_TEST(s.per_ms(SparkCounter::converted) == 20.0);
    BOOST_TEST(s.per_ms(SparkCounter::fizzled) == 1.0);
    BOOST_TEST(s.per_ms(SparkCounter::dud) == 0.0);
    BOOST_TEST(s.pool_start == 0u);
    BOOST_TEST(s.pool_end == 58u);
    BOOST_TEST(value_of(s.grown, SparkCounter::pool) == 0u);  // a level, not a growth
}

BOOST_AUTO_TEST_CASE(samples_closer_than_the_minimum_span_join_one_span_with_the_average_rate) {
    SparkRateSpans r(1'000'000);
    r.add(0, counts(0, 0, 0, 0));
    r.add(200'000, counts(10, 0, 0, 10));     // 0.2 ms: goes on
    r.add(600'000, counts(30, 10, 0, 20));    // 0.6 ms: goes on
    r.add(1'000'000, counts(40, 20, 0, 20));  // 1 ms: ends here
    r.add(1'500'000, counts(50, 30, 0, 20));  // the next one, left open
    r.finish();                               // ends at the last sample
    BOOST_REQUIRE(r.spans().size() == 2u);
    BOOST_TEST(r.spans()[0].end == 1'000'000u);
    BOOST_TEST(r.spans()[0].per_ms(SparkCounter::created) == 40.0);
    BOOST_TEST(r.spans()[0].pool_end == 20u);
    BOOST_TEST(r.spans()[1].start == 1'000'000u);
    BOOST_TEST(r.spans()[1].end == 1'500'000u);
    BOOST_TEST(r.spans()[1].per_ms(SparkCounter::converted) == 20.0);
}

BOOST_AUTO_TEST_CASE(samples_at_one_time_make_no_empty_span_and_a_lone_sample_none) {
    SparkRateSpans r;
    r.add(100, counts(1, 0, 0, 1));
    r.finish();
    BOOST_TEST(r.spans().empty());
    SparkRateSpans same;
    same.add(100, counts(1, 0, 0, 1));
    same.add(100, counts(2, 0, 0, 2));  // same time: no span of length 0
    same.add(50, counts(3, 0, 0, 3));   // earlier: taken as at 100
    same.add(1'000'100, counts(4, 1, 0, 3));
    same.finish();
    BOOST_REQUIRE(same.spans().size() == 1u);
    BOOST_TEST(same.spans()[0].start == 100u);
    BOOST_TEST(same.spans()[0].per_ms(SparkCounter::created) == 3.0);
}

BOOST_AUTO_TEST_CASE(a_count_going_down_is_no_growth_and_is_counted) {
    SparkRateSpans r;
    r.add(0, counts(10, 5, 0, 0));
    r.add(1'000'000, counts(4, 6, 0, 0));
    r.finish();
    BOOST_REQUIRE(r.spans().size() == 1u);
    BOOST_TEST(r.spans()[0].per_ms(SparkCounter::created) == 0.0);
    BOOST_TEST(r.spans()[0].per_ms(SparkCounter::converted) == 1.0);
    BOOST_TEST(r.decreases() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
