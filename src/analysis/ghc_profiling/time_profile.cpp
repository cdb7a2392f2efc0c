#include "analysis/ghc_profiling/time_profile.hpp"

#include <algorithm>
#include <limits>

namespace el2fx::profiling {

pass::Interests TimeProfile::interests() {
    return pass::Interests::of({eventlog::ProfBegin::tag, eventlog::ProfSampleCostCentre::tag});
}

void TimeProfile::handle(const eventlog::Event& event) {
    if (const auto* begin = event.as<eventlog::ProfBegin>()) {
        if (begin->tick_interval > 0) interval_ = begin->tick_interval;
        return;
    }
    const auto* sample = event.as<eventlog::ProfSampleCostCentre>();
    if (!sample) return;
    if (sample->cap >= std::numeric_limits<std::uint16_t>::max()) {
        ++bad_ticks_;
        return;
    }
    scratch_.resize(sample->stack.size());
    for (std::size_t i = 0; i < scratch_.size(); ++i) scratch_[scratch_.size() - 1 - i] = sample->stack[i];
    auto it = stack_ids_.find(scratch_);
    if (it == stack_ids_.end()) {
        it = stack_ids_.emplace(scratch_, static_cast<std::uint32_t>(stacks_.size())).first;
        stacks_.push_back(scratch_);
    }
    ticks_.push_back(Tick{event.time, static_cast<std::uint16_t>(sample->cap), it->second});
}

void TickCoverage::add_tick(std::uint16_t cap, std::uint64_t time, std::uint64_t interval_ns) {
    if (caps_.size() <= cap) caps_.resize(std::size_t{cap} + 1);
    std::vector<Range>& ranges = caps_[cap];
    if (!ranges.empty() && time >= ranges.back().to && time - ranges.back().to <= kMaxGapIntervals * interval_ns) {
        ranges.back().to = time;
        return;
    }
    if (!ranges.empty() && time < ranges.back().to) return;  // out of order: already covered
    std::uint64_t from = time >= interval_ns ? time - interval_ns + 1 : 0;
    ranges.push_back(Range{from, time});
}

bool TickCoverage::covers(std::uint16_t cap, std::uint64_t time) const {
    if (cap >= caps_.size()) return false;
    const std::vector<Range>& ranges = caps_[cap];
    // The last range starting at or before `time`.
    auto it = std::upper_bound(ranges.begin(), ranges.end(), time,
                               [](std::uint64_t t, const Range& r) { return t < r.from; });
    if (it == ranges.begin()) return false;
    --it;
    return time <= it->to;
}

}  // namespace el2fx::profiling
