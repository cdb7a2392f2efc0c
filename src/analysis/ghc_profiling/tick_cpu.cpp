#include "analysis/ghc_profiling/tick_cpu.hpp"

#include <algorithm>
#include <optional>

namespace el2fx::profiling {
namespace {

// On-CPU time in D, as a function of time; queried at non-decreasing times.
class CpuInReplaced {
public:
    CpuInReplaced(std::span<const TimeInterval> on_cpu, std::span<const VirtualSampleRef> samples) {
        // D, as half-open intervals (a, b]: merged where replaced samples follow each other.
        std::vector<TimeInterval> d;
        std::uint64_t previous = 0;
        for (const VirtualSampleRef& s : samples) {
            if (s.replaced && s.time > previous) {
                if (!d.empty() && d.back().end == previous)
                    d.back().end = s.time;
                else
                    d.push_back({previous, s.time});
            }
            previous = std::max(previous, s.time);
        }
        // Intersect with the on-CPU intervals (both sorted): measure only, so open or closed
        // ends do not matter.
        std::size_t i = 0, j = 0;
        while (i < d.size() && j < on_cpu.size()) {
            std::uint64_t lo = std::max(d[i].start, on_cpu[j].start), hi = std::min(d[i].end, on_cpu[j].end);
            if (lo < hi) parts_.push_back({lo, hi});
            if (d[i].end < on_cpu[j].end)
                ++i;
            else
                ++j;
        }
    }

    // On-CPU time in D up to `t`.
    std::uint64_t at(std::uint64_t t) {
        while (next_ < parts_.size() && parts_[next_].end <= t)
            done_ += parts_[next_].end - parts_[next_].start, ++next_;
        std::uint64_t partial = 0;
        if (next_ < parts_.size() && parts_[next_].start < t) partial = t - parts_[next_].start;
        return done_ + partial;
    }
    std::uint64_t total() const {
        std::uint64_t sum = 0;
        for (const TimeInterval& p : parts_) sum += p.end - p.start;
        return sum;
    }

private:
    std::vector<TimeInterval> parts_;
    std::size_t next_ = 0;
    std::uint64_t done_ = 0;
};

}  // namespace

TickCpu distribute_replaced_cpu(std::span<const TimeInterval> on_cpu, std::span<const VirtualSampleRef> virtual_samples,
                                std::span<const std::uint64_t> ticks) {
    TickCpu out;
    out.per_tick.resize(ticks.size());
    CpuInReplaced cpu(on_cpu, virtual_samples);

    std::uint64_t given = 0;  // CPU in D up to the last point that took it
    std::uint64_t last_point = 0;
    bool any_point = false;
    std::optional<std::uint64_t> last_replaced;  // the latest replaced sample's time seen
    auto carry = [&](std::uint64_t upto) {
        std::uint64_t now = cpu.at(upto);
        if (now > given && last_replaced && (!any_point || *last_replaced > last_point)) {
            out.carriers.push_back({*last_replaced, now - given});
            given = now;
        }
    };

    std::size_t t = 0, v = 0;
    while (t < ticks.size() || v < virtual_samples.size()) {
        // A tick comes before a virtual sample at the same time.
        bool tick_next = t < ticks.size() && (v == virtual_samples.size() || ticks[t] <= virtual_samples[v].time);
        if (tick_next) {
            std::uint64_t now = cpu.at(ticks[t]);
            out.per_tick[t] = now - given;
            given = now;
            last_point = ticks[t], any_point = true;
            ++t;
            continue;
        }
        const VirtualSampleRef& s = virtual_samples[v++];
        if (s.replaced) {
            last_replaced = s.time;
            continue;
        }
        carry(s.time);  // what no tick took before this kept sample
        last_point = s.time, any_point = true;
    }
    std::uint64_t total = cpu.total();
    if (total > given && last_replaced) out.carriers.push_back({*last_replaced, total - given});
    return out;
}

}  // namespace el2fx::profiling
