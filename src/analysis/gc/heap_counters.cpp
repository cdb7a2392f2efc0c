#include "analysis/gc/heap_counters.hpp"

namespace el2fx::gc {

std::optional<HeapSample> HeapCounters::handle(const eventlog::Event& event) {
    using namespace eventlog;
    // Most GC-class events are no heap sample: the sample is made only for those that are (a
    // zeroed sample per event showed in profiles).
    const auto sample = [&event] {
        HeapSample s;
        s.time = event.time;
        return s;
    };
    switch (event.tag) {
        case HeapSize::tag:
            if (const auto* e = event.as<HeapSize>()) {
                HeapSample s = sample();
                s.quantity = HeapQuantity::heap_size;
                s.value = e->size_bytes;
                return s;
            }
            break;
        case HeapLive::tag:
            if (const auto* e = event.as<HeapLive>()) {
                HeapSample s = sample();
                s.quantity = HeapQuantity::heap_live;
                s.value = e->live_bytes;
                return s;
            }
            break;
        case BlocksSize::tag:
            if (const auto* e = event.as<BlocksSize>()) {
                HeapSample s = sample();
                s.quantity = HeapQuantity::blocks_size;
                s.value = e->size_bytes;
                return s;
            }
            break;
        case HeapAllocated::tag:
            if (const auto* e = event.as<HeapAllocated>()) {
                HeapSample s = sample();
                CapNo cap = event.cap.value_or(0);
                if (cap >= allocated_.size()) allocated_.resize(std::size_t{cap} + 1, 0);
                allocated_sum_ = allocated_sum_ - allocated_[cap] + e->alloc_bytes;
                allocated_[cap] = e->alloc_bytes;
                s.quantity = HeapQuantity::allocated;
                s.cap = cap;
                s.value = e->alloc_bytes;
                s.total_allocated = allocated_sum_;
                return s;
            }
            break;
        case MemReturn::tag:
            if (const auto* e = event.as<MemReturn>()) {
                HeapSample s = sample();
                s.quantity = HeapQuantity::mem_returned;
                s.mem = MemReturnBytes{e->current * mblock_size_, e->needed * mblock_size_, e->returned * mblock_size_};
                s.value = s.mem.returned;
                return s;
            }
            break;
        case HeapInfoGHC::tag:
            if (const auto* e = event.as<HeapInfoGHC>())
                if (e->mblock_size) mblock_size_ = e->mblock_size;
            break;
        default: break;
    }
    return std::nullopt;
}

}  // namespace el2fx::gc
