#include "window/collection_at_start.hpp"

#include "window/synthetic_event.hpp"

namespace el2fx::window {

using namespace eventlog;

CollectionAtStart::Cap& CollectionAtStart::cap(CapNo c) {
    if (c >= caps_.size()) caps_.resize(std::size_t{c} + 1, Cap::mutator);
    return caps_[c];
}

void CollectionAtStart::close_collection() {
    for (Cap& c : caps_)
        if (c == Cap::collecting) c = Cap::finishing;
    request_.reset();
    synced_.reset();
    started_ = false;
}

void CollectionAtStart::handle(const Event& event) {
    switch (event.tag) {
        case RequestSeqGC::tag:
        case RequestParGC::tag:
            if (synced_) close_collection();  // the next collection's request
            if (!request_) request_ = Request{event.cap.value_or(0), event.tag == RequestParGC::tag};
            return;
        case StartGC::tag:
            if (!event.cap) return;
            if (synced_) close_collection();  // the next collection's first capability
            cap(*event.cap) = Cap::collecting;
            started_ = true;
            return;
        case EndGC::tag:
            if (event.cap) cap(*event.cap) = Cap::mutator;
            return;
        case GlobalSyncGC::tag: synced_ = event.cap.value_or(0); return;
        case GCStatsGHC::tag: close_collection(); return;
        default: return;
    }
}

void CollectionAtStart::state_at(std::uint64_t from, std::vector<Event>& out) {
    bool collecting = false;
    for (Cap c : caps_) collecting = collecting || c == Cap::collecting;
    if (started_ && !collecting) {
        // Every capability ended before the start: the collection is before the window.
        stats_to_drop_ = true;
        return;
    }
    if (request_) {
        if (request_->parallel)
            out.push_back(synthetic(from, request_->cap, RequestParGC{}));
        else
            out.push_back(synthetic(from, request_->cap, RequestSeqGC{}));
    }
    for (std::size_t c = 0; c < caps_.size(); ++c)
        if (caps_[c] == Cap::collecting) out.push_back(synthetic(from, static_cast<CapNo>(c), StartGC{}));
    if (synced_ && collecting) out.push_back(synthetic(from, *synced_, GlobalSyncGC{}));
}

bool CollectionAtStart::passes(const Event& event) {
    if (stats_to_drop_) {
        switch (event.tag) {
            case GlobalSyncGC::tag: return false;
            case GCStatsGHC::tag: stats_to_drop_ = false; return false;
            case RequestSeqGC::tag:
            case RequestParGC::tag:
            case StartGC::tag: stats_to_drop_ = false; break;  // the next collection: none were posted
            default: break;
        }
    }
    if (!event.cap || *event.cap >= caps_.size() || caps_[*event.cap] != Cap::finishing) return true;
    switch (event.tag) {
        case EndGC::tag: caps_[*event.cap] = Cap::mutator; return false;
        case GCWork::tag:
        case GCIdle::tag:
        case GCDone::tag: return false;
        case StartGC::tag: caps_[*event.cap] = Cap::mutator; return true;  // its GC_END went missing
        default: return true;
    }
}

}  // namespace el2fx::window
