#include "analysis/gc/heap_counters.hpp"

namespace el2fx::gc {

const HeapSample* HeapCounters::handle(const eventlog::Event& event) {
    using namespace eventlog;
    // Most GC-class events are no heap sample: only those that are write the sample's fields
    // (a returned optional was cleared whole for every event, by a slow string instruction).
    const HeapSample* out = nullptr;
    const auto sample = [&](HeapQuantity quantity, std::uint64_t value, std::optional<CapNo> cap = std::nullopt,
                            std::uint64_t total_allocated = 0, MemReturnBytes mem = {}) {
        sample_.time = event.time;
        sample_.quantity = quantity;
        sample_.cap = cap;
        sample_.value = value;
        sample_.total_allocated = total_allocated;
        sample_.mem = mem;
        out = &sample_;
    };
    switch (event.tag) {
        case HeapSize::tag:
            if (const auto* e = event.as<HeapSize>()) sample(HeapQuantity::heap_size, e->size_bytes);
            break;
        case HeapLive::tag:
            if (const auto* e = event.as<HeapLive>()) sample(HeapQuantity::heap_live, e->live_bytes);
            break;
        case BlocksSize::tag:
            if (const auto* e = event.as<BlocksSize>()) sample(HeapQuantity::blocks_size, e->size_bytes);
            break;
        case HeapAllocated::tag:
            if (const auto* e = event.as<HeapAllocated>()) {
                const CapNo cap = event.cap.value_or(0);
                if (cap >= allocated_.size()) allocated_.resize(std::size_t{cap} + 1, 0);
                allocated_sum_ = allocated_sum_ - allocated_[cap] + e->alloc_bytes;
                allocated_[cap] = e->alloc_bytes;
                sample(HeapQuantity::allocated, e->alloc_bytes, cap, allocated_sum_);
            }
            break;
        case MemReturn::tag:
            if (const auto* e = event.as<MemReturn>()) {
                const MemReturnBytes mem{e->current * mblock_size_, e->needed * mblock_size_, e->returned * mblock_size_};
                sample(HeapQuantity::mem_returned, mem.returned, std::nullopt, 0, mem);
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
