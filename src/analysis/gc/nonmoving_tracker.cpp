#include "analysis/gc/nonmoving_tracker.hpp"

namespace el2fx::gc {

bool NonmovingTracker::concerns(std::uint16_t tag) {
    using namespace eventlog;
    switch (tag) {
        case ConcMarkBegin::tag:
        case ConcMarkEnd::tag:
        case ConcSyncBegin::tag:
        case ConcSyncEnd::tag:
        case ConcSweepBegin::tag:
        case ConcSweepEnd::tag:
        case NonmovingHeapCensus::tag:
        case NonmovingPrunedSegments::tag:
        case ConcUpdRemSetFlush::tag: return true;
        default: return false;
    }
}

NonmovingRecord NonmovingTracker::handle(const eventlog::Event& event) {
    using namespace eventlog;
    switch (event.tag) {
        case ConcMarkBegin::tag: return begin(ConcurrentPhase::mark, event.time);
        case ConcMarkEnd::tag: {
            const auto* e = event.as<ConcMarkEnd>();
            return end(ConcurrentPhase::mark, event.time, e ? std::optional(e->marked_objects) : std::nullopt);
        }
        case ConcSyncBegin::tag: return begin(ConcurrentPhase::sync, event.time);
        case ConcSyncEnd::tag: return end(ConcurrentPhase::sync, event.time);
        case ConcSweepBegin::tag: return begin(ConcurrentPhase::sweep, event.time);
        case ConcSweepEnd::tag: return end(ConcurrentPhase::sweep, event.time);
        case NonmovingHeapCensus::tag:
            if (const auto* c = event.as<NonmovingHeapCensus>()) {
                NonmovingRecord r;
                std::uint32_t size = c->blk_size_is_log2 ? (c->blk_size < 32 ? 1u << c->blk_size : 0u) : c->blk_size;
                r.census = NonmovingCensus{event.time, size, c->active_segs, c->filled_segs, c->live_blocks};
                return r;
            }
            break;
        case NonmovingPrunedSegments::tag:
            if (const auto* p = event.as<NonmovingPrunedSegments>()) {
                NonmovingRecord r;
                r.pruned = NonmovingPruned{event.time, p->pruned_segments, p->free_segments};
                return r;
            }
            break;
        case ConcUpdRemSetFlush::tag:
            if (const auto* f = event.as<ConcUpdRemSetFlush>()) {
                NonmovingRecord r;
                r.flush = RemSetFlush{event.time, f->cap};
                return r;
            }
            break;
        default: break;
    }
    return {};
}

NonmovingRecord NonmovingTracker::begin(ConcurrentPhase phase, std::uint64_t time) {
    OpenPhase& o = open_[static_cast<std::size_t>(phase)];
    if (o.depth++ == 0) {
        o.span = ConcurrentPhaseSpan{phase, time, std::nullopt, 1, std::nullopt};
    } else {
        ++o.span.begins;
    }
    return {};
}

NonmovingRecord NonmovingTracker::end(ConcurrentPhase phase, std::uint64_t time, std::optional<std::uint32_t> marked) {
    OpenPhase& o = open_[static_cast<std::size_t>(phase)];
    if (o.depth == 0) {
        ++unmatched_ends_;
        return {};
    }
    if (marked) o.span.marked_objects = o.span.marked_objects.value_or(0) + *marked;
    if (--o.depth > 0) return {};
    o.span.end = time;
    NonmovingRecord r;
    r.phase = o.span;
    return r;
}

std::vector<ConcurrentPhaseSpan> NonmovingTracker::finish() {
    std::vector<ConcurrentPhaseSpan> still_open;
    for (OpenPhase& o : open_) {
        if (o.depth == 0) continue;
        still_open.push_back(o.span);
        o.depth = 0;
    }
    return still_open;
}

}  // namespace el2fx::gc
