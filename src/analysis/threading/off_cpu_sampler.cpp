#include "analysis/threading/off_cpu_sampler.hpp"

#include <algorithm>
#include <cassert>

#include "analysis/threading/sampling_interval.hpp"

namespace el2fx::analysis {

OffCpuSampler::OffCpuSampler(std::uint64_t interval_ns) : interval_ns_(interval_ns) {
    check_sampling_interval(interval_ns);
}

void OffCpuSampler::switch_out(std::uint64_t time) {
    time = std::max(time, state_since_);  // never backwards: a span cannot be negative
    switch (state_) {
        case State::unknown:  // first news of the thread: it ran until now, unsampled
            break;
        case State::on: on_cpu_since_last_sample_ += time - state_since_; break;
        case State::off:  // a duplicated switch-out (samply saw them in perf.data): keep the first
            return;
    }
    state_ = State::off;
    state_since_ = time;
}

std::optional<OffCpuSampleGroup> OffCpuSampler::switch_in(std::uint64_t time) {
    time = std::max(time, state_since_);  // never backwards: a span cannot be negative
    std::optional<OffCpuSampleGroup> group;
    switch (state_) {
        case State::unknown:  // it slept somewhere unknown since an unknown time: no sample
            break;
        case State::on:  // e.g. an on-CPU sample came just before the switch-in
            on_cpu_since_last_sample_ += time - state_since_;
            break;
        case State::off:
            off_cpu_since_last_group_ += time - state_since_;
            group = consume_off_cpu(time);
            break;
    }
    state_ = State::on;
    state_since_ = time;
    return group;
}

std::uint64_t OffCpuSampler::consume_cpu_delta() {
    std::uint64_t delta = on_cpu_since_last_sample_;
    on_cpu_since_last_sample_ = 0;
    return delta;
}

std::optional<OffCpuSampleGroup> OffCpuSampler::consume_off_cpu(std::uint64_t time) {
    const std::uint64_t accumulated = off_cpu_since_last_group_;
    if (accumulated < interval_ns_) return std::nullopt;
    const std::uint64_t count = accumulated / interval_ns_;
    const std::uint64_t remainder = accumulated - count * interval_ns_;
    OffCpuSampleGroup group{time - (accumulated - interval_ns_), time - remainder, count};
    assert(group.end - group.begin == (count - 1) * interval_ns_);
    off_cpu_since_last_group_ = remainder;
    return group;
}

}  // namespace el2fx::analysis
