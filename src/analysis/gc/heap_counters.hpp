// The heap's counters as time series: HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE and HEAP_ALLOCATED (per
// capability and in total) are levels the runtime posts at each collection (and at exit);
// MEM_RETURN says how much memory went back to the operating system. One sample per event.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/event.hpp"
#include "analysis/gc/gc_collection.hpp"

namespace el2fx::gc {

enum class HeapQuantity : std::uint8_t { heap_size, heap_live, blocks_size, allocated, mem_returned };

struct HeapSample {
    std::uint64_t time = 0;
    HeapQuantity quantity = HeapQuantity::heap_size;
    std::optional<CapNo> cap;  // allocated: whose counter
    // heap_size, heap_live, blocks_size: the level in bytes; allocated: the capability's
    // allocation since the start; mem_returned: bytes returned by this event.
    std::uint64_t value = 0;
    std::uint64_t total_allocated = 0;  // allocated: the sum over capabilities after this sample
    MemReturnBytes mem{};               // mem_returned: the whole event, in bytes
};

class HeapCounters {
public:
    // The sample the event makes, if any: valid until the next call.
    const HeapSample* handle(const eventlog::Event& event);
    std::uint64_t mblock_size() const { return mblock_size_; }

private:
    HeapSample sample_;  // handle()'s
    std::vector<std::uint64_t> allocated_;
    std::uint64_t allocated_sum_ = 0;
    std::uint64_t mblock_size_ = 1 << 20;  // until HEAP_INFO_GHC says otherwise
};

}  // namespace el2fx::gc
