// Samples for one profiler thread (a capability or a Haskell thread) from its
// on-CPU/off-CPU transitions, as design.md describes ("Samples"):
//  - a virtual timer ticks at every multiple of the interval (the same grid for
//    every thread); at a tick where the thread is on-CPU it gets a sample of
//    weight 1 whose CPU delta is the running time since its previous sample;
//  - when it switches in after being off-CPU, the OffCpuSampler may turn the
//    accumulated off-CPU time into a group: one sample at the group's begin that
//    carries the CPU delta left over from before the sleep, and, for a group of
//    n > 1, one sample of weight n - 1 and no CPU delta at its end (samply's
//    process_off_cpu_sample_group; processed-format.md §9);
//  - a stretch of more than kMaxSamplesPerGap ticks between two transitions gets that
//    many samples at most, each weighing the ticks it stands for: the work and memory
//    follow the events, not the nanoseconds (one corrupt timestamp cannot make it tick
//    for centuries);
//  - finish() delivers the CPU delta still pending in a sample of weight 0, so
//    that a thread's CPU deltas add up exactly to its on-CPU time.
// The key says what the thread was doing; the profile builder makes it a stack.
#pragma once

#include <cstdint>
#include <memory_resource>
#include <vector>

#include "analysis/threading/activity.hpp"
#include "analysis/threading/off_cpu_sampler.hpp"
#include "analysis/threading/sampling_interval.hpp"

namespace el2fx::analysis {

// Most samples one stretch between two transitions gets (65 s at the default interval):
// longer stretches are sampled coarser, with weights (see tick_until).
constexpr std::uint64_t kMaxSamplesPerGap = 1 << 16;

template <typename Key>
struct Sample {
    std::uint64_t time = 0;
    std::uint64_t cpu_delta_ns = 0;  // CPU time since the thread's previous sample
    std::uint64_t weight = 0;        // intervals this sample stands for; 0 carries CPU time only
    Key key{};                       // what the thread was doing
    bool operator==(const Sample&) const = default;
};

// The timer's state without a buffer of its own: each call appends the samples it takes to
// the caller's `out`. A caller that follows many threads and drains after every transition
// (thread_lives.hpp) keeps one buffer for them all, so that a thread's life, which may be a
// handful of events among millions of threads, allocates nothing for its samples.
// Key needs is_on_cpu(key) and operator==. A few bytes: taken by value (in registers; a
// reference to one just built made its loads wait on its stores).
template <typename Key>
class UnbufferedSamplingTimer {
public:
    using Samples = std::pmr::vector<Sample<Key>>;

    explicit UnbufferedSamplingTimer(std::uint64_t interval_ns = kDefaultSamplingIntervalNs);

    // The thread runs from `time`, doing `key` (it may already be running).
    void switch_in(std::uint64_t time, Key key, Samples& out);
    // The thread is off-CPU from `time` because of `key`. Already off-CPU with
    // another key, the sleep so far is closed under the old key first, so each
    // reason gets the off-CPU time spent under it.
    void switch_out(std::uint64_t time, Key key, Samples& out);
    // switch_in or switch_out, as is_on_cpu(key) says.
    void enter(std::uint64_t time, Key key, Samples& out);
    // The thread's life ends at `time`: ticks up to it, an off-CPU group for a
    // sleep that lasts until then, and the CPU delta still pending. Later calls do nothing.
    void finish(std::uint64_t time, Samples& out);

private:
    // Samples the ticks strictly before `time` (a transition at a tick's time takes effect at it).
    // Inline: most transitions come before the next tick, whatever the state.
    void tick_until(std::uint64_t time, Samples& out) {
        if (next_tick_ < time) tick_before(time, out);
    }
    void tick_before(std::uint64_t time, Samples& out);  // tick_until() with a tick before `time`
    void add_group(const OffCpuSampleGroup& group, const Key& key, Samples& out);

    OffCpuSampler sampler_;
    std::uint64_t next_tick_ = 0;
    Key key_{};  // on: what it runs; off: why it sleeps
    bool finished_ = false;
};

// The timer with its samples kept until drained (a capability's, the tests').
template <typename Key>
class VirtualSamplingTimer {
public:
    // The samples' buffer comes from `memory`.
    explicit VirtualSamplingTimer(std::uint64_t interval_ns = kDefaultSamplingIntervalNs,
                                  std::pmr::memory_resource* memory = std::pmr::get_default_resource())
        : timer_(interval_ns), samples_(memory) {}

    void switch_in(std::uint64_t time, Key key) { timer_.switch_in(time, key, samples_); }
    void switch_out(std::uint64_t time, Key key) { timer_.switch_out(time, key, samples_); }
    void enter(std::uint64_t time, Key key) { timer_.enter(time, key, samples_); }
    void finish(std::uint64_t time) { timer_.finish(time, samples_); }

    const std::pmr::vector<Sample<Key>>& samples() const { return samples_; }
    // Hands the samples taken so far to `f`, one by one, and forgets them (keeping the
    // buffer): a streaming consumer calls this after every transition.
    template <typename F>
    void drain(F&& f) {
        for (const Sample<Key>& s : samples_) f(s);
        samples_.clear();
    }

private:
    UnbufferedSamplingTimer<Key> timer_;
    std::pmr::vector<Sample<Key>> samples_;
};

extern template class UnbufferedSamplingTimer<CapabilityActivity>;
extern template class UnbufferedSamplingTimer<ThreadActivity>;

}  // namespace el2fx::analysis
