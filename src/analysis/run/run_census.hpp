// The first of a conversion's two passes over the eventlog: the facts the profile's layout
// needs before any track can be filled — the run (program, pid, capabilities), every Haskell
// thread (labels, creation order) with the time it ran, where the capabilities' lives start,
// and where time-profile ticks stand in for virtual samples. Small: it grows with the
// threads and capabilities, not with the events. The second pass then streams everything
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
    explicit RunCensusCollector(bool include_env);

    // Every event, in time order (as the second pass will see them).
    void handle(const eventlog::Event& event);
    RunCensus finish();

private:
    struct Running {
        eventlog::ThreadId thread = 0;
        std::uint64_t since = 0;
    };

    void add_running(eventlog::ThreadId thread, std::uint64_t ns);

    RunInfoCollector run_;
    DetailCensusCollector detail_;
    RunCensus census_;
    std::vector<std::optional<Running>> running_;  // by capability
    std::optional<std::uint64_t> tick_interval_;
    std::uint64_t now_ = 0;
};

}  // namespace el2fx::run
