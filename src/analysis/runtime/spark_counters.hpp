// SPARK_COUNTERS (34), which each capability writes at start-up, at every GC and at
// shutdown: cumulative counts since the start (created, converted, …) and the spark
// pool's size at that moment. Kept per capability, in time order, with the names the
// RTS's `+RTS -s` SPARKS line uses. Values are read by field name, never by position:
// on the wire gcd comes before fizzled (eventlog-facts.md).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "eventlog/event_types.hpp"

namespace el2fx::runtime {

// The series shown, in display order.
enum class SparkCounter : std::uint8_t { created, converted, overflowed, dud, gcd, fizzled, pool };
inline constexpr std::size_t kSparkCounterCount = 7;
inline constexpr std::array<SparkCounter, kSparkCounterCount> kSparkCounters = {
    SparkCounter::created, SparkCounter::converted, SparkCounter::overflowed, SparkCounter::dud,
    SparkCounter::gcd,     SparkCounter::fizzled,   SparkCounter::pool};

// "created", "converted", "overflowed", "dud", "GC'd", "fizzled", "pool size".
std::string_view spark_counter_label(SparkCounter counter);
// Cumulative since the start (all but the pool size, which is a level).
bool spark_counter_is_cumulative(SparkCounter counter);

using SparkCounts = std::array<std::uint64_t, kSparkCounterCount>;  // indexed by SparkCounter

inline std::uint64_t value_of(const SparkCounts& counts, SparkCounter c) { return counts[static_cast<std::size_t>(c)]; }
SparkCounts spark_counts(const eventlog::SparkCounters& event);

struct SparkCounterSample {
    std::uint64_t time = 0;
    SparkCounts counts{};
};

class SparkCounterCollector {
public:
    void add(eventlog::CapNo cap, std::uint64_t time, const eventlog::SparkCounters& event);

    // Samples of each capability, in the order they came.
    const std::map<eventlog::CapNo, std::vector<SparkCounterSample>>& by_capability() const { return caps_; }
    bool empty() const { return caps_.empty(); }
    // Whether a series of a capability is zero in every sample (nothing to draw).
    bool all_zero(eventlog::CapNo cap, SparkCounter counter) const;
    // The run's totals: each capability's last sample, summed (what `+RTS -s` prints).
    SparkCounts totals() const;
    // The samples of all capabilities summed: at each sample time, every capability's
    // latest counts added up (a capability before its first sample counts 0).
    std::vector<SparkCounterSample> summed() const;

private:
    std::map<eventlog::CapNo, std::vector<SparkCounterSample>> caps_;
};

}  // namespace el2fx::runtime
