#include "analysis/gc/heap_counters.hpp"

namespace el2fx::gc {

std::optional<HeapSample> HeapCounters::handle(const eventlog::Event& event) {
    using namespace eventlog;
    // Most GC-class events are no heap sample: the sample is made only for those that are (a
    // zeroed sample per event showed in profiles), in place (one returned object: a sample
    // copied into the optional stalled on its fields' stores just made).
    std::optional<HeapSample> out;
    const auto sample = [&](HeapQuantity quantity) -> HeapSample& {
        HeapSample& s = out.emplace();
        s.time = event.time;
        s.quantity = quantity;
        return s;
    };
    switch (event.tag) {
        case HeapSize::tag:
            if (const auto* e = event.as<HeapSize>()) sample(HeapQuantity::heap_size).value = e->size_bytes;
            break;
        case HeapLive::tag:
            if (const auto* e = event.as<HeapLive>()) sample(HeapQuantity::heap_live).value = e->live_bytes;
            break;
        case BlocksSize::tag:
            if (const auto* e = event.as<BlocksSize>()) sample(HeapQuantity::blocks_size).value = e->size_bytes;
            break;
        case HeapAllocated::tag:
            if (const auto* e = event.as<HeapAllocated>()) {
                const CapNo cap = event.cap.value_or(0);
                if (cap >= allocated_.size()) allocated_.resize(std::size_t{cap} + 1, 0);
                allocated_sum_ = allocated_sum_ - allocated_[cap] + e->alloc_bytes;
                allocated_[cap] = e->alloc_bytes;
                HeapSample& s = sample(HeapQuantity::allocated);
                s.cap = cap;
                s.value = e->alloc_bytes;
                s.total_allocated = allocated_sum_;
            }
            break;
        case MemReturn::tag:
            if (const auto* e = event.as<MemReturn>()) {
                HeapSample& s = sample(HeapQuantity::mem_returned);
                s.mem = MemReturnBytes{e->current * mblock_size_, e->needed * mblock_size_, e->returned * mblock_size_};
                s.value = s.mem.returned;
            }
            break;
        case HeapInfoGHC::tag:
            if (const auto* e = event.as<HeapInfoGHC>())
                if (e->mblock_size) mblock_size_ = e->mblock_size;
            break;
        default: break;
    }
    return out;
}

}  // namespace el2fx::gc
