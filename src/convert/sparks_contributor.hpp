// Sparks (`par`, `parMap`, …).
//
// - SPARK_COUNTERS: one "Spark rates (cap N)" track per capability with sparks: a marker
//   graph of the rates (created, converted, fizzled, GC'd, overflowed, dud per ms) on one
//   scale, one marker per span between samples (runtime::SparkRateSpans; spans shorter
//   than the marker resolution are merged, the rates being averages), its tooltip giving
//   the pool size at the span's start and end. Marker-graph tracks come after the
//   capability and thread tracks (counter tracks, one per series and capability before,
//   always came first and pushed the capabilities off the first screen). With more than
//   kMaxCapabilitiesWithOwnSparkTracks capabilities, one track of all of them summed, on
//   the process track. The totals, as `+RTS -s` prints them, go into Profile Info.
// - Spark events (`+RTS -lf`: create, dud, overflow, run, steal with its victim, fizzle,
//   GC; and the pre-7.4 RUN_SPARK/STEAL_SPARK): markers on the capability's track.
//   A program makes sparks by the million, so each capability's events of one kind
//   (and victim) within ConvertOptions::spark_burst_gap_ns of each other are one
//   marker with their count (runtime::SparkBurstAggregator); a lone event stays an
//   instant marker. A gap of 0 keeps one marker per event.
// - CREATE_SPARK_THREAD: an instant marker on the capability.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "convert/profile_contributor.hpp"
#include "analysis/runtime/spark_bursts.hpp"
#include "analysis/runtime/spark_counters.hpp"
#include "analysis/runtime/spark_rates.hpp"

namespace el2fx::convert {

inline constexpr std::size_t kMaxCapabilitiesWithOwnSparkTracks = 8;

class SparksContributor : public ProfileContributor {
public:
    explicit SparksContributor(const ConvertOptions& options);

    std::string_view name() const override { return "sparks"; }
    void begin(ProfileContext& context) override;
    void handle(const eventlog::Event& event) override;
    pass::Interests interests() const override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

private:
    void add_counter_sample(eventlog::CapNo cap, std::uint64_t time, const runtime::SparkCounts& counts);
    void flush_summed();
    void add_rates(ProfileContext& context);
    void add_markers(ProfileContext& context);
    void add_summary(ProfileContext& context);

    struct SparkThread {
        std::uint64_t time;
        eventlog::CapNo cap;
        eventlog::ThreadId thread;
    };
    // Rates: per capability when there are few (and their series are not all zero), else summed.
    ProfileContext* context_ = nullptr;
    std::map<eventlog::CapNo, runtime::SparkRateSpans> per_cap_;
    std::optional<runtime::SparkRateSpans> summed_;
    std::map<eventlog::CapNo, runtime::SparkCounts> latest_;  // each capability's last counts
    runtime::SparkCounts sum_{};                              // their sum
    std::optional<runtime::SparkCounterSample> pending_sum_;  // the sum at a time, until it moves on
    runtime::SparkBurstAggregator bursts_;
    std::vector<SparkThread> spark_threads_;
    std::uint64_t old_events_ = 0;  // RUN_SPARK, STEAL_SPARK
};

}  // namespace el2fx::convert
