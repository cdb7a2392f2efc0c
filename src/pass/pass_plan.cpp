#include "pass/pass_plan.hpp"

#include <limits>

#include "eventlog/counted_records.hpp"
#include "util/error.hpp"

namespace el2fx::pass {

PassPlan plan_pass(std::span<const Interests> interests, PassMode mode) {
    PassPlan plan;
    if (mode == PassMode::naive) {
        plan.decoded.set();
        return plan;
    }
    TagSet handled, counted;
    for (const Interests& i : interests) {
        plan.decoded |= i.reads;
        handled |= i.handles;
        counted |= i.counts;
    }
    plan.counted_only = counted & ~handled;
    for (std::size_t tag = eventlog::CountedRecords::kTags; tag < plan.counted_only.size(); ++tag)
        plan.counted_only.reset(tag);
    return plan;
}

PartDispatch::PartDispatch(std::span<PassPart* const> parts)
    : parts_(parts.begin(), parts.end()), masks_(std::size_t{std::numeric_limits<std::uint16_t>::max()} + 1, 0) {
    if (parts_.size() > kMaxParts) throw Error("too many parts in one pass for the dispatch");
    for (std::size_t i = 0; i < parts_.size(); ++i) {
        interests_.push_back(parts_[i]->interests());
        const TagSet& handles = interests_.back().handles;
        for (std::size_t tag = 0; tag < masks_.size(); ++tag)
            if (handles.test(tag)) masks_[tag] |= std::uint32_t{1} << i;
    }
}

}  // namespace el2fx::pass
