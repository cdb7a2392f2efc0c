// CPU deltas for real samples (time-profile ticks) that replace some of a track's virtual
// samples (virtual_sampling_timer.hpp). Each virtual sample carries the on-CPU time since the
// track's previous virtual sample; the replaced ones' CPU time must go to the ticks, so that
// the track's CPU deltas still add up exactly to its on-CPU time (Run/Stop accounting) and land
// where the CPU was used:
//  - D is the time the replaced samples stood for: (previous virtual sample, replaced sample];
//  - a tick gets the on-CPU time in D since the track's previous tick or kept virtual sample;
//  - on-CPU time in D that no tick takes before the next kept virtual sample (or the end) goes
//    to a carrier: a sample of weight 0 at the last replaced sample's time, as the virtual timer
//    itself delivers left-over CPU time.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace el2fx::profiling {

struct TimeInterval {
    std::uint64_t start = 0, end = 0;  // end >= start
};

struct VirtualSampleRef {
    std::uint64_t time = 0;
    std::uint64_t cpu_delta = 0;
    bool replaced = false;  // a tick stands in for it
};

struct CpuCarrier {
    std::uint64_t time = 0;
    std::uint64_t cpu = 0;
    bool operator==(const CpuCarrier&) const = default;
};

struct TickCpu {
    std::vector<std::uint64_t> per_tick;  // one per tick, in the order given
    std::vector<CpuCarrier> carriers;     // in time order
};

// on_cpu: the track's on-CPU intervals, in time order, disjoint. virtual_samples: its virtual
// samples in time order. ticks: the times of its ticks, ascending.
TickCpu distribute_replaced_cpu(std::span<const TimeInterval> on_cpu, std::span<const VirtualSampleRef> virtual_samples,
                                std::span<const std::uint64_t> ticks);

}  // namespace el2fx::profiling
