// Ticky-ticky counters (`-ticky` + `+RTS -lT`): TICKY_COUNTER_DEF names a counter (the
// RTS writes the definitions at the end of the log, after the samples);
// TICKY_COUNTER_SAMPLE gives its entries and allocation since the previous sample
// (the RTS resets the counters after each); TICKY_COUNTER_BEGIN_SAMPLE starts a round
// of samples. Collected per counter, ranked by entries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "eventlog/event_types.hpp"

namespace el2fx::runtime {

struct TickySample {
    std::uint64_t time = 0;
    std::uint64_t entries = 0, allocs = 0, allocd = 0;
};

struct TickyCounter {
    std::uint64_t id = 0;
    bool defined = false;
    std::string name;  // the definition's name (UTF-8, sanitized); empty if undefined
    std::uint16_t arity = 0;
    std::string arg_kinds;  // argument kinds, or the JSON description (GHC 9.6+) when there is one
    std::optional<std::uint64_t> info_table;
    std::vector<TickySample> samples;                   // in the order they came
    std::uint64_t entries = 0, allocs = 0, allocd = 0;  // totals over the samples

    // The name, or "ticky counter 0x…" for a counter sampled but never defined.
    std::string display_name() const;
};

struct TickyRound {
    std::uint64_t time = 0;  // of its TICKY_COUNTER_BEGIN_SAMPLE
    std::uint64_t samples = 0, entries = 0, allocs = 0;
};

class TickyAggregator {
public:
    void define(const eventlog::TickyCounterDef& def);
    void sample(std::uint64_t time, const eventlog::TickyCounterSample& sample);
    void begin_round(std::uint64_t time);

    bool empty() const { return counters_.empty() && rounds_.empty(); }
    // Counters in first-seen order.
    const std::vector<TickyCounter>& counters() const { return counters_; }
    // Rounds started by TICKY_COUNTER_BEGIN_SAMPLE, with what they sampled.
    const std::vector<TickyRound>& rounds() const { return rounds_; }
    // At most `n` counters with entries, the most entered first (ties: more allocation,
    // then the lower id).
    std::vector<const TickyCounter*> top_by_entries(std::size_t n) const;
    std::uint64_t total_samples() const { return samples_; }

private:
    TickyCounter& counter(std::uint64_t id);

    std::vector<TickyCounter> counters_;
    std::unordered_map<std::uint64_t, std::size_t> index_;
    std::vector<TickyRound> rounds_;
    std::uint64_t samples_ = 0;
};

}  // namespace el2fx::runtime
