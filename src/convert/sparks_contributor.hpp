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
#include <map>
#include <optional>
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
    void begin(ProfileContext& context) override;
    void handle(const eventlog::Event& event) override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

private:
    // One counter track: a series of one capability, or of all together.
    struct Series {
        events::SparkCounter counter;
        fxprof::CounterHandle handle;
        std::uint64_t previous = 0;
    };
    void add_counter_sample(eventlog::CapNo cap, std::uint64_t time, const events::SparkCounts& counts);
    void add_sample(Series& series, std::uint64_t time, const events::SparkCounts& counts);
    void flush_summed();
    void add_markers(ProfileContext& context);
    void add_summary(ProfileContext& context);

    struct SparkThread {
        std::uint64_t time;
        eventlog::CapNo cap;
        eventlog::ThreadId thread;
    };
    // Counters stream (from begin() on): per capability when there are few, else summed.
    ProfileContext* context_ = nullptr;
    std::map<eventlog::CapNo, std::vector<Series>> per_cap_;
    std::vector<Series> summed_;
    bool summing_ = false;
    std::map<eventlog::CapNo, events::SparkCounts> latest_;  // each capability's last counts
    events::SparkCounts sum_{};                               // their sum
    std::optional<events::SparkCounterSample> pending_sum_;   // the sum at a time, until it moves on
    events::SparkBurstAggregator bursts_;
    std::vector<SparkThread> spark_threads_;
    std::uint64_t old_events_ = 0;  // RUN_SPARK, STEAL_SPARK
};

}  // namespace el2fx::convert
