// The cost-centre time profile of a `+RTS -p -l` run: PROF_BEGIN (168) gives the tick interval,
// and at every tick the runtime writes one PROF_SAMPLE_COST_CENTRE (167) per capability with the
// cost-centre stack that capability is in (IDLE when it has nothing to run, GC while it collects).
// Ticks come from the global buffer, so each carries its capability in the payload.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "eventlog/event.hpp"
#include "pass/interests.hpp"

namespace el2fx::profiling {

struct Tick {
    std::uint64_t time = 0;
    std::uint16_t cap = 0;
    std::uint32_t stack = 0;  // TimeProfile::stack(stack)
};

// Collects the ticks, in the order given (time order from the time-ordered reader). Stacks are
// interned, so memory grows with the ticks (16 bytes each) and the distinct stacks.
class TimeProfile {
public:
    static constexpr std::uint64_t kDefaultTickIntervalNs = 1'000'000;

    // PROF_BEGIN and the ticks (PROF_SAMPLE_COST_CENTRE), given and read.
    static pass::Interests interests();
    // Any event: those of interests() count, the others are passed over.
    void handle(const eventlog::Event& event);

    bool empty() const { return ticks_.empty(); }
    const std::vector<Tick>& ticks() const { return ticks_; }
    // PROF_BEGIN's interval; the runtime's default (1 ms) when the log has none.
    std::uint64_t tick_interval() const { return interval_.value_or(kDefaultTickIntervalNs); }
    bool has_begin() const { return interval_.has_value(); }
    // Cost-centre ids, root first.
    std::span<const std::uint32_t> stack(std::uint32_t id) const { return stacks_[id]; }
    std::size_t stack_count() const { return stacks_.size(); }
    // Ticks whose capability field does not fit a capability number.
    std::uint64_t bad_ticks() const { return bad_ticks_; }

private:
    std::optional<std::uint64_t> interval_;
    std::vector<Tick> ticks_;
    std::vector<std::vector<std::uint32_t>> stacks_;
    std::map<std::vector<std::uint32_t>, std::uint32_t> stack_ids_;
    std::vector<std::uint32_t> scratch_;
    std::uint64_t bad_ticks_ = 0;
};

// Where a capability's ticks stand in for the virtual sampling timer's samples (design.md,
// "Samples"). A tick stands for the interval before it; a capability's ticks cover from one
// interval before its first to its last, and a gap of more than kMaxGapIntervals intervals
// (the program stopped the time profiler) ends a covered range.
class TickCoverage {
public:
    static constexpr std::uint64_t kMaxGapIntervals = 10;

    void clear() { caps_.clear(); }
    // Ticks of one capability come in time order.
    void add_tick(std::uint16_t cap, std::uint64_t time, std::uint64_t interval_ns);
    bool empty() const { return caps_.empty(); }
    bool covers(std::uint16_t cap, std::uint64_t time) const;

    // The runtime ticks every capability, idle or busy: a capability's ticks replace all of its
    // virtual samples where they cover. A Haskell thread's ticks come only while it runs: they
    // replace its on-CPU virtual samples (on the capability it runs on), not its off-CPU ones.
    bool replaces_capability_sample(std::uint16_t cap, std::uint64_t time) const { return covers(cap, time); }
    bool replaces_thread_sample(bool on_cpu, std::uint16_t cap, std::uint64_t time) const {
        return on_cpu && covers(cap, time);
    }

private:
    struct Range {
        std::uint64_t from = 0, to = 0;
    };
    std::vector<std::vector<Range>> caps_;  // by capability number
};

}  // namespace el2fx::profiling
