#include "analysis/threading/virtual_sampling_timer.hpp"

#include <algorithm>

namespace el2fx::analysis {

template <typename Key>
UnbufferedSamplingTimer<Key>::UnbufferedSamplingTimer(std::uint64_t interval_ns) : sampler_(interval_ns) {}

template <typename Key>
void UnbufferedSamplingTimer<Key>::switch_in(std::uint64_t time, Key key, Samples& out) {
    if (finished_) return;
    tick_until(time, out);
    // Already on-CPU, only the activity changes; no group comes then.
    if (auto group = sampler_.switch_in(time)) add_group(*group, key_, out);
    key_ = key;
}

template <typename Key>
void UnbufferedSamplingTimer<Key>::switch_out(std::uint64_t time, Key key, Samples& out) {
    if (finished_) return;
    tick_until(time, out);
    if (sampler_.state() == OffCpuSampler::State::off) {
        if (key == key_) return;
        if (auto group = sampler_.switch_in(time)) add_group(*group, key_, out);
    }
    sampler_.switch_out(time);
    key_ = key;
}

template <typename Key>
void UnbufferedSamplingTimer<Key>::enter(std::uint64_t time, Key key, Samples& out) {
    if (is_on_cpu(key))
        switch_in(time, key, out);
    else
        switch_out(time, key, out);
}

template <typename Key>
void UnbufferedSamplingTimer<Key>::finish(std::uint64_t time, Samples& out) {
    if (finished_) return;
    tick_until(time, out);
    // As a switch-in, this counts the running time or the sleep up to `time`.
    if (auto group = sampler_.switch_in(time)) add_group(*group, key_, out);
    if (std::uint64_t delta = sampler_.consume_cpu_delta()) out.push_back({time, delta, 0, key_});
    finished_ = true;
}

template <typename Key>
void UnbufferedSamplingTimer<Key>::tick_before(std::uint64_t time, Samples& out) {
    const std::uint64_t interval = sampler_.interval_ns();
    if (sampler_.state() == OffCpuSampler::State::on) {
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
            out.push_back({at, sampler_.consume_cpu_delta(), n, key_});
            next_tick_ = at + interval;
            left -= n;
        }
    } else {
        // Off-CPU or not yet seen: skip to the first tick at or after `time`.
        next_tick_ = time / interval * interval + (time % interval ? interval : 0);
    }
}

template <typename Key>
void UnbufferedSamplingTimer<Key>::add_group(const OffCpuSampleGroup& group, const Key& key, Samples& out) {
    out.push_back({group.begin, sampler_.consume_cpu_delta(), 1, key});
    if (group.sample_count > 1) out.push_back({group.end, 0, group.sample_count - 1, key});
}

template class UnbufferedSamplingTimer<CapabilityActivity>;
template class UnbufferedSamplingTimer<ThreadActivity>;

}  // namespace el2fx::analysis
