#include "convert/heap_level_chart.hpp"

#include <algorithm>

namespace el2fx::convert {

void HeapLevelSpans::set(gc::HeapQuantity level, std::uint64_t time, std::uint64_t bytes) {
    switch (level) {
        case gc::HeapQuantity::heap_size: current_.size = bytes; break;
        case gc::HeapQuantity::heap_live: current_.live = bytes; break;
        case gc::HeapQuantity::blocks_size: current_.blocks = bytes; break;
        default: return;
    }
    any_ = true;
    if (open_ && time - std::min(time, open_->start) >= resolution_ && time > open_->start) {
        open_->end = time;
        spans_.push_back(*open_);
        open_.reset();
    }
    if (!open_) {
        open_ = HeapLevelSpan{time, time, current_};
        return;
    }
    open_->levels.size = std::max(open_->levels.size, current_.size);
    open_->levels.live = std::max(open_->levels.live, current_.live);
    open_->levels.blocks = std::max(open_->levels.blocks, current_.blocks);
}

void HeapLevelSpans::finish(std::uint64_t end) {
    if (!open_) return;
    open_->end = std::max(end, open_->start);
    spans_.push_back(*open_);
    open_.reset();
}

}  // namespace el2fx::convert
