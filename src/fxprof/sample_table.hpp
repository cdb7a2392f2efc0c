// A thread's samples (threads[].samples), as columns. Samples may be added out of time order;
// the writer then emits them through a stable sort by time.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fxprof/handles.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

class SampleTable {
public:
    static constexpr std::int32_t kNoStack = -1;
    static constexpr std::int64_t kNoCpuDelta = -1;

    void add(Timestamp time, std::optional<StackHandle> stack, std::optional<CpuDelta> cpu,
             std::int64_t weight) {
        const std::int64_t t = time.nanos();
        if (!times_.empty() && t < times_.back()) sorted_ = false;
        times_.push_back(t);
        stacks_.push_back(stack ? static_cast<std::int32_t>(stack->index()) : kNoStack);
        cpu_deltas_.push_back(cpu ? cpu->nanos() : kNoCpuDelta);
        weights_.push_back(weight);
        if (cpu) has_cpu_delta_ = true;
        if (weight != 1) all_weights_one_ = false;
    }
    void reserve(std::size_t n) {
        times_.reserve(n);
        stacks_.reserve(n);
        cpu_deltas_.reserve(n);
        weights_.reserve(n);
    }

    std::size_t size() const { return times_.size(); }
    bool sorted() const { return sorted_; }
    bool has_cpu_delta() const { return has_cpu_delta_; }
    bool all_weights_one() const { return all_weights_one_; }
    const std::vector<std::int64_t>& times() const { return times_; }
    const std::vector<std::int32_t>& stacks() const { return stacks_; }
    const std::vector<std::int64_t>& cpu_deltas() const { return cpu_deltas_; }
    const std::vector<std::int64_t>& weights() const { return weights_; }

    // Sample indexes in time order (stable); empty when already sorted.
    std::vector<std::uint32_t> time_order() const;

private:
    std::vector<std::int64_t> times_;       // ns
    std::vector<std::int32_t> stacks_;      // kNoStack: null
    std::vector<std::int64_t> cpu_deltas_;  // ns; kNoCpuDelta: null
    std::vector<std::int64_t> weights_;
    bool sorted_ = true;
    bool has_cpu_delta_ = false;
    bool all_weights_one_ = true;
};

// A stable permutation of [0, times.size()) ordering the times; empty if already ordered.
std::vector<std::uint32_t> stable_time_order(const std::vector<std::int64_t>& times, bool sorted);

}  // namespace el2fx::fxprof
