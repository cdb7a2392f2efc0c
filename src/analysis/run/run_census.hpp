// The first of a conversion's two passes over the eventlog: the facts the profile's layout
// needs before any track can be filled — the run (program, pid, capabilities), every Haskell
// thread (labels, creation order) with the time it ran, where the capabilities' lives start,
// and where time-profile ticks stand in for virtual samples. Small: it grows with the live
// threads and capabilities, not with the events (finished threads that cannot get a track of
// their own are forgotten in huge logs: CensusLimits). The second pass then streams everything
// else straight into those tracks (converter.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "analysis/run/detail_census.hpp"
#include "analysis/run/run_info.hpp"
#include "analysis/run/thread_catalog.hpp"
#include "eventlog/event.hpp"
#include "analysis/runtime/spark_counters.hpp"
#include "analysis/ghc_profiling/time_profile.hpp"

namespace el2fx::run {

// How a thread ranks for a track of its own (thread_track_layout.cpp): labelled first, then the
// busiest, then the first created. The census keeps the threads that may still win one.
struct ThreadRank {
    bool labelled = false;
    std::uint64_t running_ns = 0;
    std::uint32_t ordinal = 0;  // in the catalog
    friend bool ranks_before(const ThreadRank& a, const ThreadRank& b) {
        if (a.labelled != b.labelled) return a.labelled;
        if (a.running_ns != b.running_ns) return a.running_ns > b.running_ns;
        return a.ordinal < b.ordinal;
    }
};

// What the census may forget, so that its memory stays bounded by the live threads.
struct CensusLimits {
    // How many threads may get a track of their own (--max-threads, before the output budget
    // lowers it); none (--all-threads): every thread is kept.
    std::optional<std::size_t> thread_tracks;
    // Finished threads that cannot win a track are forgotten (counted only) once the catalog
    // holds more threads than this, so logs with fewer keep every thread as before.
    std::size_t forget_above = 100'000;
};

struct RunCensus {
    // The time a thread ran (0 for one that never did).
    std::uint64_t running_ns(eventlog::ThreadId thread) const;

    RunInfo run;
    ThreadCatalog threads;
    std::vector<std::uint64_t> running_by_ordinal;               // time each thread ran, by threads.ordinal()
    std::map<eventlog::CapNo, std::uint64_t> capability_starts;  // a capability's first event
    profiling::TickCoverage tick_coverage;
    std::uint64_t ticks = 0;  // time-profile ticks (PROF_SAMPLE_COST_CENTRE)
    // Capabilities with SPARK_COUNTERS, and which of their series is ever non-zero.
    std::map<eventlog::CapNo, std::array<bool, runtime::kSparkCounterCount>> spark_series;
    // How much the profile will hold at a given detail (the output budget's estimate).
    DetailCensus detail;
};

class RunCensusCollector {
public:
    explicit RunCensusCollector(bool include_env, CensusLimits limits = {});

    // Every event, in time order (as the second pass will see them).
    void handle(const eventlog::Event& event);
    RunCensus finish();

private:
    struct Running {
        eventlog::ThreadId thread = 0;
        std::uint64_t since = 0;
    };

    void handle_in_parts(const eventlog::Event& event);
    void start_capability(eventlog::CapNo cap);
    void add_running(std::uint32_t ordinal, std::uint64_t ns);  // to the thread at `ordinal` in the catalog
    void forget_finished_threads();

    RunInfoCollector run_;
    DetailCensusCollector detail_;
    RunCensus census_;
    std::vector<std::optional<Running>> running_;  // by capability
    std::vector<std::uint8_t> cap_started_;         // by capability: in census_.capability_starts
    std::optional<std::uint64_t> tick_interval_;
    std::uint64_t now_ = 0;
    CensusLimits limits_;
    std::size_t next_forgetting_;  // the catalog's size that triggers it
};

}  // namespace el2fx::run
