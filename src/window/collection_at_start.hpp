// The state machine of the collection under way at a window's start, from the GC events
// before it (in time order):
//
//   REQUEST_*_GC    a collection is requested (the first request counts);
//   GC_START        the capability collects;
//   GC_END          it is back to its mutator;
//   GC_GLOBAL_SYNC  the collection has synced;
//   GC_STATS_GHC    the collection is over for the runtime: its figures are posted. Capabilities
//                   still collecting only have their GC_END to post (a late GC_END): they are
//                   finishing. A REQUEST or GC_START after a GC_GLOBAL_SYNC also closes the
//                   collection (logs with a sync but no statistics).
//
// At the start it states the collection some capability is still collecting for, cut there:
// the request, a GC_START for each capability collecting, the GC_GLOBAL_SYNC; the GC analyses
// then count it in the window, where its statistics come. A requested collection no capability
// has started yet is stated by its request alone. Any other collection is not the window's:
// nothing of it is stated, and inside the window passes() holds back what is left of it (the
// late GC_ENDs of one whose statistics came before the start and the GC phases before them;
// the GC_GLOBAL_SYNC and GC_STATS_GHC of one every capability had ended before the start), so
// no analysis sees a collection without its start or its statistics (no phantom).
//
// Memory: per capability.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/event.hpp"

namespace el2fx::window {

class CollectionAtStart {
public:
    // The types handle() looks at.
    static constexpr std::uint16_t kTags[] = {eventlog::RequestSeqGC::tag, eventlog::RequestParGC::tag,
                                              eventlog::StartGC::tag,      eventlog::EndGC::tag,
                                              eventlog::GlobalSyncGC::tag, eventlog::GCStatsGHC::tag};

    // One event before the window's start (every type may be given; the others are ignored).
    void handle(const eventlog::Event& event);

    // The collection under way, as events stamped `from`, appended to `out`: the request, the
    // GC_STARTs, the GC_GLOBAL_SYNC. Called once, when the window starts.
    void state_at(std::uint64_t from, std::vector<eventlog::Event>& out);

    // Is the capability in a collection at the start (the window's or one finishing)?
    bool in_gc(eventlog::CapNo cap) const { return cap < caps_.size() && caps_[cap] != Cap::mutator; }

    // One event inside the window: false for those of a collection that ended before it.
    bool passes(const eventlog::Event& event);

private:
    enum class Cap : std::uint8_t { mutator, collecting, finishing };
    struct Request {
        eventlog::CapNo cap = 0;
        bool parallel = false;
    };

    Cap& cap(eventlog::CapNo cap);
    void close_collection();

    std::vector<Cap> caps_;
    std::optional<Request> request_;
    std::optional<eventlog::CapNo> synced_;  // the capability that posted GC_GLOBAL_SYNC
    bool started_ = false;                   // some capability started the current collection
    bool stats_to_drop_ = false;             // inside: the ended collection's sync and statistics are to come
};

}  // namespace el2fx::window
