#include "analysis/stack_profiler/frame_order.hpp"

namespace el2fx::stack_profiler {

void FrameOrder::prove(Layout layout) {
    if (layout == Layout::unknown || basis_ == Basis::layout) return;
    basis_ = Basis::layout;
    outermost_first_ = layout == Layout::v0_3;
}

void FrameOrder::sample(std::uint32_t thread, std::span<const Entry> entries) {
    if (entries.size() < 2) return;
    const Ends now{entries.front(), entries.back()};
    auto [it, added] = previous_.try_emplace(thread, now);
    if (added) return;
    const bool first_stays = it->second.first == now.first, last_stays = it->second.last == now.last;
    it->second = now;
    if (first_stays && !last_stays) ++votes_first_;
    if (last_stays && !first_stays) ++votes_last_;
    if (basis_ != Basis::assumed) return;
    if (votes_first_ >= kShapeVotes && votes_first_ >= kShapeMargin * votes_last_) {
        basis_ = Basis::shape;
        outermost_first_ = true;
    } else if (votes_last_ >= kShapeVotes && votes_last_ >= kShapeMargin * votes_first_) {
        basis_ = Basis::shape;
        outermost_first_ = false;
    }
}

}  // namespace el2fx::stack_profiler
