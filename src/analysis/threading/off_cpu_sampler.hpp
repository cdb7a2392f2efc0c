// CPU deltas and off-CPU sample groups for one profiler thread, with the
// semantics of samply's ContextSwitchHandler (seeds/samply-context-switch-handler.rs.txt).
//
// On-CPU time (switch-in or sample to the next switch-out or sample) accumulates
// into the CPU delta that the next emitted sample takes (consume_cpu_delta).
// Off-CPU time (switch-out to switch-in, or to a sample, which proves the thread
// runs again) accumulates across sleeps of any length; once it reaches the
// interval, whole intervals of it become one off-CPU sample group and the
// remainder is kept. So short sleeps are neither dropped nor over-weighted.
//
//   state    | switch_out          | switch_in / sample
//   ---------+---------------------+------------------------------------------
//   unknown  | -> off              | -> on (no group: the sleep's start is unknown)
//   on       | add on time; -> off | add on time; -> on
//   off      | ignored (duplicate) | add off time; maybe a group; -> on
//
// Times must not decrease; one that does is taken as the last time seen (no negative spans).
#pragma once

#include <cstdint>
#include <optional>

namespace el2fx::analysis {

// `sample_count` intervals of off-CPU time: the first sample belongs at `begin`,
// the rest at `end` (end - begin == (sample_count - 1) * interval).
struct OffCpuSampleGroup {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
    std::uint64_t sample_count = 0;
    bool operator==(const OffCpuSampleGroup&) const = default;
};

class OffCpuSampler {
public:
    enum class State : std::uint8_t { unknown, on, off };

    // Throws el2fx::Error for an interval of 0 (sampling_interval.hpp).
    explicit OffCpuSampler(std::uint64_t interval_ns);

    void switch_out(std::uint64_t time);
    std::optional<OffCpuSampleGroup> switch_in(std::uint64_t time);
    // An on-CPU sample: the thread runs at `time`, whatever was known before.
    std::optional<OffCpuSampleGroup> sample(std::uint64_t time) { return switch_in(time); }
    // The on-CPU time since the last call, for the sample about to be emitted.
    std::uint64_t consume_cpu_delta();

    State state() const { return state_; }
    std::uint64_t interval_ns() const { return interval_ns_; }

private:
    std::optional<OffCpuSampleGroup> consume_off_cpu(std::uint64_t time);

    std::uint64_t interval_ns_;
    State state_ = State::unknown;
    std::uint64_t state_since_ = 0;  // on: last time seen on-CPU; off: switch-out time
    std::uint64_t on_cpu_since_last_sample_ = 0;
    std::uint64_t off_cpu_since_last_group_ = 0;
};

}  // namespace el2fx::analysis
