// Two censuses field by field (the census tests: a census taken another way must be the
// census of every event).
#pragma once

#include <boost/test/unit_test.hpp>

#include "analysis/run/run_census.hpp"

namespace el2fx::testing {

inline void same_histogram(const run::LengthHistogram& a, const run::LengthHistogram& b) {
    BOOST_TEST(a.count() == b.count());
    BOOST_TEST(a.total_ns() == b.total_ns());
    for (std::uint64_t at = 1; at != 0; at <<= 1) BOOST_TEST(a.at_least(at) == b.at_least(at));
}

inline void same_census(const run::RunCensus& a, const run::RunCensus& b) {
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
        const run::ThreadFacts& x = a.threads.threads()[n];
        const run::ThreadFacts& y = b.threads.threads()[n];
        BOOST_TEST(x.id == y.id);
        BOOST_TEST(x.first_seen == y.first_seen);
        BOOST_TEST((x.created() == y.created()));
        BOOST_TEST((x.finished() == y.finished()));
        BOOST_TEST(a.threads.label(x) == b.threads.label(y));
    }
    BOOST_TEST(a.threads.forgotten() == b.threads.forgotten());
    BOOST_TEST((a.threads.first_forgotten_place() == b.threads.first_forgotten_place()));
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

}  // namespace el2fx::testing
