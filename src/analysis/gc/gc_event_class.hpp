// The GC and heap events: those the collection tracker and the heap counters act on, and whose
// presence says a log declares its collections (the +RTS -s figures). Every other event only
// moves the summary's clock and count, so the analysis passes it by at once.
#pragma once

#include <cstdint>

#include "eventlog/event_types.hpp"

namespace el2fx::gc {

inline bool is_gc_class_event(std::uint16_t tag) {
    using namespace eventlog;
    switch (tag) {
        case StartGC::tag:
        case EndGC::tag:
        case RequestSeqGC::tag:
        case RequestParGC::tag:
        case GCIdle::tag:
        case GCWork::tag:
        case GCDone::tag:
        case HeapAllocated::tag:
        case HeapSize::tag:
        case HeapLive::tag:
        case HeapInfoGHC::tag:
        case GCStatsGHC::tag:
        case GlobalSyncGC::tag:
        case MemReturn::tag:
        case BlocksSize::tag: return true;
        default: return false;
    }
}

}  // namespace el2fx::gc
