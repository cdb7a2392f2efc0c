// Spark events (`+RTS -lf`: create, dud, overflow, run, steal, fizzle, GC) come one per
// spark, often tens of thousands within milliseconds. Each capability's events of one
// kind (and, for steals, one victim) are grouped into bursts: an event within
// `max_gap_ns` of the previous one of its group extends that group's burst, otherwise
// it starts a new one. A burst of one event is a single spark event. max_gap_ns 0 keeps
// every event on its own.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include "eventlog/event_types.hpp"

namespace el2fx::runtime {

enum class SparkEventKind : std::uint8_t { created, dud, overflowed, run, stolen, fizzled, gcd };
inline constexpr std::size_t kSparkEventKindCount = 7;

// "Spark created", "Spark dud", "Spark overflowed", "Spark run", "Spark stolen",
// "Spark fizzled", "Spark GC'd".
std::string_view spark_event_name(SparkEventKind kind);
// The kind of a spark event (tags 35-41), if it is one.
std::optional<SparkEventKind> spark_event_kind(std::uint16_t tag);

struct SparkBurst {
    eventlog::CapNo cap = 0;
    SparkEventKind kind = SparkEventKind::created;
    std::optional<eventlog::CapNo> victim;  // steals: the capability stolen from
    std::uint64_t start = 0, end = 0;       // first and last event
    std::uint64_t count = 0;                // events in the burst
};

class SparkBurstAggregator {
public:
    explicit SparkBurstAggregator(std::uint64_t max_gap_ns) : max_gap_ns_(max_gap_ns) {}

    // Events must come in time order per capability.
    void add(eventlog::CapNo cap, std::uint64_t time, SparkEventKind kind,
             std::optional<eventlog::CapNo> victim = std::nullopt);
    // Ends every open burst.
    void finish();

    // Finished bursts, in the order they ended.
    const std::vector<SparkBurst>& bursts() const { return bursts_; }
    std::uint64_t events(SparkEventKind kind) const { return events_[static_cast<std::size_t>(kind)]; }

private:
    using Key = std::tuple<eventlog::CapNo, SparkEventKind, int>;  // victim or -1
    std::uint64_t max_gap_ns_;
    std::map<Key, SparkBurst> open_;
    std::vector<SparkBurst> bursts_;
    std::uint64_t events_[kSparkEventKindCount] = {};
};

}  // namespace el2fx::runtime
