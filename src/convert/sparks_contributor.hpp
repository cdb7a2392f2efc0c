// Sparks (`par`, `parMap`, …).
//
// - SPARK_COUNTERS: counter tracks per capability for each series that is not zero
//   throughout: sparks created, converted, overflowed, dud, GC'd, fizzled (cumulative,
//   as the RTS counts them) and the pool size; with more than
//   kMaxCapabilitiesWithOwnSparkTracks capabilities, one set of tracks summed over all
//   of them instead (hundreds of tracks help nobody). The totals, as `+RTS -s` prints
//   them, go into the profile's info panel.
// - Spark events (`+RTS -lf`: create, dud, overflow, run, steal with its victim, fizzle,
//   GC; and the pre-7.4 RUN_SPARK/STEAL_SPARK): markers on the capability's track.
//   A program makes sparks by the million, so each capability's events of one kind
//   (and victim) within ConvertOptions::spark_burst_gap_ns of each other are one
//   marker with their count (events::SparkBurstAggregator); a lone event stays an
//   instant marker. A gap of 0 keeps one marker per event.
// - CREATE_SPARK_THREAD: an instant marker on the capability.
#pragma once

#include <cstdint>
#include <vector>

#include "convert/profile_contributor.hpp"
#include "events/spark_bursts.hpp"
#include "events/spark_counters.hpp"

namespace el2fx::convert {

inline constexpr std::size_t kMaxCapabilitiesWithOwnSparkTracks = 4;

class SparksContributor : public ProfileContributor {
public:
    explicit SparksContributor(const ConvertOptions& options);

    std::string_view name() const override { return "sparks"; }
    void handle(const eventlog::Event& event) override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

private:
    void add_counters(ProfileContext& context);
    void add_markers(ProfileContext& context);
    void add_summary(ProfileContext& context);

    struct SparkThread {
        std::uint64_t time;
        eventlog::CapNo cap;
        eventlog::ThreadId thread;
    };
    events::SparkCounterCollector counters_;
    events::SparkBurstAggregator bursts_;
    std::vector<SparkThread> spark_threads_;
    std::uint64_t old_events_ = 0;  // RUN_SPARK, STEAL_SPARK
};

}  // namespace el2fx::convert
