#include "analysis/threading/virtual_sampling_timer.hpp"

#include <algorithm>

namespace el2fx::analysis {

template <typename Key>
VirtualSamplingTimer<Key>::VirtualSamplingTimer(std::uint64_t interval_ns, std::pmr::memory_resource* memory)
    : sampler_(interval_ns), samples_(memory) {}

template <typename Key>
void VirtualSamplingTimer<Key>::switch_in(std::uint64_t time, Key key) {
    if (finished_) return;
    tick_until(time);
    // Already on-CPU, only the activity changes; no group comes then.
    if (auto group = sampler_.switch_in(time)) add_group(*group, key_);
    key_ = key;
}

template <typename Key>
void VirtualSamplingTimer<Key>::switch_out(std::uint64_t time, Key key) {
    if (finished_) return;
    tick_until(time);
    if (sampler_.state() == OffCpuSampler::State::off) {
        if (key == key_) return;
        if (auto group = sampler_.switch_in(time)) add_group(*group, key_);
    }
    sampler_.switch_out(time);
    key_ = key;
}

template <typename Key>
void VirtualSamplingTimer<Key>::enter(std::uint64_t time, Key key) {
    if (is_on_cpu(key))
        switch_in(time, key);
    else
        switch_out(time, key);
}

template <typename Key>
void VirtualSamplingTimer<Key>::finish(std::uint64_t time) {
    if (finished_) return;
    tick_until(time);
    // As a switch-in, this counts the running time or the sleep up to `time`.
    if (auto group = sampler_.switch_in(time)) add_group(*group, key_);
    if (std::uint64_t delta = sampler_.consume_cpu_delta()) samples_.push_back({time, delta, 0, key_});
    finished_ = true;
}

template <typename Key>
void VirtualSamplingTimer<Key>::tick_until(std::uint64_t time) {
    const std::uint64_t interval = sampler_.interval_ns();
    if (sampler_.state() == OffCpuSampler::State::on) {
        if (next_tick_ >= time) return;
        const std::uint64_t ticks = (time - next_tick_ - 1) / interval + 1;  // those in [next_tick_, time)
        // A run longer than kMaxSamplesPerGap ticks with no event in it is sampled every
        // `stride` ticks, each sample standing for the ticks since the previous one: the
        // weights and CPU deltas add up the same, and the work stays bounded by the events.
        const std::uint64_t stride =
            ticks <= kMaxSamplesPerGap ? 1 : (ticks + kMaxSamplesPerGap - 1) / kMaxSamplesPerGap;
        for (std::uint64_t left = ticks; left > 0;) {
            const std::uint64_t n = std::min(stride, left);
            const std::uint64_t at = next_tick_ + (n - 1) * interval;
            (void)sampler_.sample(at);  // on-CPU already: never a group
            samples_.push_back({at, sampler_.consume_cpu_delta(), n, key_});
            next_tick_ = at + interval;
            left -= n;
        }
    } else if (next_tick_ < time) {
        // Off-CPU or not yet seen: skip to the first tick at or after `time`.
        next_tick_ = time / interval * interval + (time % interval ? interval : 0);
    }
}

template <typename Key>
void VirtualSamplingTimer<Key>::add_group(const OffCpuSampleGroup& group, const Key& key) {
    samples_.push_back({group.begin, sampler_.consume_cpu_delta(), 1, key});
    if (group.sample_count > 1) samples_.push_back({group.end, 0, group.sample_count - 1, key});
}

template class VirtualSamplingTimer<CapabilityActivity>;
template class VirtualSamplingTimer<ThreadActivity>;

}  // namespace el2fx::analysis
