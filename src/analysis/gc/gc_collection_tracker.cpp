#include "analysis/gc/gc_collection_tracker.hpp"

#include <utility>

namespace el2fx::gc {

void GcCollectionTracker::handle(const eventlog::Event& event, std::vector<GcCollection>& done) {
    using namespace eventlog;
    const std::uint64_t t = event.time;
    // GC events are written to the buffer of the capability concerned; heap events of the
    // whole heap come from the capability that ran the collection.
    const CapNo cap = event.cap.value_or(0);
    switch (event.tag) {
        case RequestSeqGC::tag: request(cap, t, false, done); break;
        case RequestParGC::tag: request(cap, t, true, done); break;
        case StartGC::tag:
            if (event.cap) start(cap, t, done);
            break;
        case EndGC::tag:
            if (event.cap) end(cap, t, done);
            break;
        case GCWork::tag:
            if (event.cap) phase(cap, t, GcPhase::work);
            break;
        case GCIdle::tag:
            if (event.cap) phase(cap, t, GcPhase::idle);
            break;
        case GCDone::tag:
            if (event.cap) phase(cap, t, GcPhase::done);
            break;
        case GlobalSyncGC::tag: global_sync(cap, t, done); break;
        case GCStatsGHC::tag:
            if (const auto* s = event.as<GCStatsGHC>()) {
                stats(cap, t,
                      GcStats{s->gen, s->copied, s->slop, s->frag, s->par_n_threads, s->par_max_copied,
                              s->par_tot_copied, s->par_balanced_copied},
                      done);
            }
            break;
        case HeapAllocated::tag:
            if (const auto* a = event.as<HeapAllocated>()) heap_allocated(cap, a->alloc_bytes);
            break;
        case HeapLive::tag:
            if (const auto* l = event.as<HeapLive>()) heap_live(l->live_bytes);
            break;
        case HeapSize::tag:
            if (const auto* s = event.as<HeapSize>()) heap_size(s->size_bytes);
            break;
        case BlocksSize::tag:
            if (const auto* b = event.as<BlocksSize>()) blocks_size(b->size_bytes);
            break;
        case MemReturn::tag:
            if (const auto* m = event.as<MemReturn>())
                mem_return(
                    MemReturnBytes{m->current * mblock_size_, m->needed * mblock_size_, m->returned * mblock_size_});
            break;
        case HeapInfoGHC::tag:
            if (const auto* h = event.as<HeapInfoGHC>()) heap_info(h->mblock_size);
            break;
        default: break;
    }
}

GcCollectionTracker::CapState& GcCollectionTracker::cap_state(CapNo cap) {
    if (cap >= caps_.size()) caps_.resize(std::size_t{cap} + 1);
    return caps_[cap];
}

GcCollectionTracker::Open* GcCollectionTracker::find(std::uint64_t number) {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it)
        if (it->c.number == number) return &*it;
    return nullptr;
}

GcCollectionTracker::Open* GcCollectionTracker::building() {
    if (open_.empty() || open_.back().synced) return nullptr;
    return &open_.back();
}

GcCollectionTracker::Open* GcCollectionTracker::accepting() {
    Open* b = building();
    // Every capability that joined has already left: without a sync to come (old logs) the
    // next GC_START or request starts another collection.
    if (b && b->active == 0 && !b->c.caps.empty()) return nullptr;
    return b;
}

GcCollectionTracker::Open& GcCollectionTracker::begin_collection() {
    Open o;
    o.c.number = next_number_++;
    if (!spare_lists_.empty()) {
        o.c.caps = std::move(spare_lists_.back());  // emptied by recycle()
        spare_lists_.pop_back();
    }
    o.c.caps.reserve(caps_.size() ? caps_.size() : 1);
    open_.push_back(std::move(o));
    return open_.back();
}

GcParticipation GcCollectionTracker::take_participation() {
    if (spare_participations_.empty()) {
        GcParticipation p;
        p.phases.reserve(8);
        return p;
    }
    GcParticipation p = std::move(spare_participations_.back());  // emptied by recycle()
    spare_participations_.pop_back();
    return p;
}

void GcCollectionTracker::recycle(GcCollection&& spent) {
    // Enough for the collections in flight between the analysis and its consumer; the rest is freed.
    constexpr std::size_t kMaxSpareLists = 64, kMaxSpareParticipations = 512;
    for (GcParticipation& p : spent.caps) {
        if (spare_participations_.size() >= kMaxSpareParticipations) break;
        p.phases.clear();
        spare_participations_.push_back(GcParticipation{.cap = 0, .start = 0, .end = std::nullopt, .phases = std::move(p.phases)});
    }
    if (spare_lists_.size() < kMaxSpareLists && spent.caps.capacity() > 0) {  // not a moved-from shell
        spent.caps.clear();
        spare_lists_.push_back(std::move(spent.caps));
    }
}

GcCollectionTracker::Open* GcCollectionTracker::latest_synced() {
    for (auto it = open_.rbegin(); it != open_.rend(); ++it)
        if (it->synced) return &*it;
    return nullptr;
}

void GcCollectionTracker::request(CapNo cap, std::uint64_t time, bool parallel, std::vector<GcCollection>& done) {
    if (Open* b = accepting()) {
        // The request may come after other capabilities already stopped (GC_START) for it.
        if (b->c.request) {
            ++anomalies_.extra_request;
        } else {
            b->c.request = GcRequest{cap, time, parallel};
        }
        return;
    }
    Open& o = begin_collection();
    o.c.request = GcRequest{cap, time, parallel};
    emit_ready(done);
}

void GcCollectionTracker::start(CapNo cap, std::uint64_t time, std::vector<GcCollection>& done) {
    CapState& s = cap_state(cap);
    if (s.in_gc) {
        Open* mine = find(s.collection);
        if (mine && mine == building()) {
            ++anomalies_.start_while_in_gc;  // the span keeps its first start
            return;
        }
        // Still in an older collection that has synced: its GC_END never came.
        ++anomalies_.missing_end;
        if (mine) leave(s, *mine, std::nullopt);
        s.in_gc = false;
    }
    Open* b = accepting();
    if (!b) b = &begin_collection();
    s.in_gc = true;
    s.collection = b->c.number;
    s.slot = b->c.caps.size();
    s.in_phase = false;
    GcParticipation p = take_participation();
    p.cap = cap;
    p.start = time;
    b->c.caps.push_back(std::move(p));
    ++b->active;
    emit_ready(done);
}

void GcCollectionTracker::phase(CapNo cap, std::uint64_t time, GcPhase phase) {
    CapState& s = cap_state(cap);
    Open* o = s.in_gc ? find(s.collection) : nullptr;
    if (!o) {
        ++anomalies_.phase_outside_gc;
        return;
    }
    GcParticipation& p = o->c.caps[s.slot];
    if (s.in_phase) p.phases.push_back(GcPhaseSpan{s.phase, s.phase_start, time});
    s.in_phase = true;
    s.phase = phase;
    s.phase_start = time;
}

void GcCollectionTracker::leave(CapState& s, Open& o, std::optional<std::uint64_t> end_time) {
    GcParticipation& p = o.c.caps[s.slot];
    if (end_time && s.in_phase) p.phases.push_back(GcPhaseSpan{s.phase, s.phase_start, *end_time});
    p.end = end_time;
    s.in_phase = false;
    s.in_gc = false;
    if (o.active > 0) --o.active;
}

void GcCollectionTracker::end(CapNo cap, std::uint64_t time, std::vector<GcCollection>& done) {
    CapState& s = cap_state(cap);
    Open* o = s.in_gc ? find(s.collection) : nullptr;
    if (!o) {
        ++anomalies_.end_without_start;
        s.in_gc = false;
        return;
    }
    leave(s, *o, time);
    emit_ready(done);
}

void GcCollectionTracker::global_sync(CapNo cap, std::uint64_t time, std::vector<GcCollection>& done) {
    Open* b = building();
    if (!b && !open_.empty() && !open_.back().c.global_sync_time && open_.back().c.initiating_cap == cap) {
        b = &open_.back();  // its GC_STATS_GHC came first and synced it already
        --anomalies_.stats_without_sync;
    }
    if (!b) {
        ++anomalies_.sync_without_start;
        b = &begin_collection();
    }
    b->synced = true;
    b->c.global_sync_time = time;
    b->c.initiating_cap = cap;
    emit_ready(done);
}

void GcCollectionTracker::stats(CapNo cap, std::uint64_t time, const GcStats& st, std::vector<GcCollection>& done) {
    Open* target = nullptr;
    if (!open_.empty()) {
        Open& last = open_.back();
        if (last.synced && !last.c.stats && last.c.initiating_cap == cap) {
            target = &last;
        } else if (!last.synced) {
            ++anomalies_.stats_without_sync;  // a log without GC_GLOBAL_SYNC: the statistics sync it
            target = &last;
            target->synced = true;
            target->c.initiating_cap = cap;
        }
    }
    if (!target) {
        ++anomalies_.sync_without_start;
        target = &begin_collection();
        target->synced = true;
        target->c.initiating_cap = cap;
    }
    target->c.stats_time = time;
    target->c.stats = st;
    // The runtime sums every capability's allocation counter right before posting these
    // statistics (and posts each counter as HEAP_ALLOCATED just before).
    if (allocated_seen_) {
        target->c.allocated_total = allocated_sum_;
        std::uint64_t previous = previous_allocated_total_.value_or(0);
        target->c.allocated_since_previous = allocated_sum_ >= previous ? allocated_sum_ - previous : 0;
        previous_allocated_total_ = allocated_sum_;
    }
    emit_ready(done);
}

void GcCollectionTracker::heap_allocated(CapNo cap, std::uint64_t total_bytes) {
    if (cap >= allocated_.size()) allocated_.resize(std::size_t{cap} + 1, 0);
    allocated_sum_ = allocated_sum_ - allocated_[cap] + total_bytes;
    allocated_[cap] = total_bytes;
    allocated_seen_ = true;
}

void GcCollectionTracker::heap_live(std::uint64_t bytes) {
    if (Open* o = latest_synced()) o->c.live_bytes = bytes;
}

void GcCollectionTracker::heap_size(std::uint64_t bytes) {
    if (Open* o = latest_synced()) o->c.heap_size = bytes;
}

void GcCollectionTracker::blocks_size(std::uint64_t bytes) {
    if (Open* o = latest_synced()) o->c.blocks_size = bytes;
}

void GcCollectionTracker::mem_return(const MemReturnBytes& bytes) {
    if (Open* o = latest_synced()) o->c.mem_return = bytes;
}

void GcCollectionTracker::emit_front(std::vector<GcCollection>& done) {
    Open& front = open_.front();
    if (!front.synced) ++anomalies_.unsynced_collections;
    done.push_back(std::move(front.c));
    open_.erase(open_.begin());
}

void GcCollectionTracker::emit_ready(std::vector<GcCollection>& done) {
    // Oldest first, so that records come out in the order collections began.
    while (open_.size() > 1) {
        const Open& front = open_.front();
        if (front.active > 0) return;
        bool newer_synced = false;
        for (std::size_t i = 1; i < open_.size() && !newer_synced; ++i) newer_synced = open_[i].synced;
        // A synced collection keeps taking the heap events posted after its statistics until
        // the next one syncs; an unsynced one (old logs) ends once another has begun.
        if (front.synced && !newer_synced) return;
        emit_front(done);
    }
}

void GcCollectionTracker::finish(std::vector<GcCollection>& done, std::optional<std::uint64_t> cut_at) {
    if (cut_at) {
        for (CapState& s : caps_)
            if (Open* o = s.in_gc ? find(s.collection) : nullptr) leave(s, *o, cut_at);
        for (Open& o : open_) {
            o.c.cut = !o.c.stats;
            o.synced = o.synced || o.c.cut;  // not an unsynced collection: its sync is after the cut
        }
    }
    for (Open& o : open_) {
        for (GcParticipation& p : o.c.caps) {
            if (p.end) continue;
            ++anomalies_.missing_end;
        }
        o.active = 0;
    }
    for (CapState& s : caps_) {
        s.in_gc = false;
        s.in_phase = false;
    }
    // A request no capability acted on before the end (a window's end, a truncated log) is
    // no collection: nothing stopped for it.
    std::erase_if(open_, [](const Open& o) { return o.c.caps.empty() && !o.synced && !o.c.stats; });
    while (!open_.empty()) emit_front(done);
}

}  // namespace el2fx::gc
