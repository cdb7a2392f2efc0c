// The markers of garbage collections, as GcAnalysis completes them: one "GC" marker per
// collection on the process track with its statistics (gc_heap_contributor.hpp lists them),
// its "GC sync" wait from the request to the start, and on each capability's track its
// "GC pause" with the GC_WORK / GC_IDLE / GC_DONE phases inside it when long enough to see;
// short ones are merged (span_detail.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>

#include "analysis/gc/gc_analysis.hpp"
#include "convert/gc_marker_strings.hpp"
#include "convert/profile_context.hpp"

namespace el2fx::convert {

class GcMarkers {
public:
    explicit GcMarkers(ProfileContext& ctx);

    // Takes the strings the caller interned (in their order).
    void begin(const GcMarkerStrings& strings);
    // Collections still open at the end of the log close there.
    void set_end(std::uint64_t end) { end_ = end; }
    // Shared: the span filters keep it until its markers are added. Most collections only
    // join a merged group (span_detail.hpp) and are never shared: `share` is called (once)
    // only when a filter keeps `collection`, and moves it into a pointer whose deleter decides
    // where its memory goes (gc_heap_contributor.cpp). Else `collection` is left as it was.
    using CollectionPtr = std::shared_ptr<const gc::GcCollection>;
    template <typename Share>
    void on_collection(gc::GcCollection& collection, Share&& share) {
        CollectionPtr shared;
        add(collection, [&]() -> const CollectionPtr& {
            if (!shared) shared = share(std::move(collection));
            return shared;
        });
    }
    // Adds the markers the span filters still hold.
    void finish();

private:
    struct Pause {
        CollectionPtr collection;
        std::size_t part;  // index in collection->caps
    };

    // on_collection()'s work: `shared()` gives the collection shared (moved from `c`: read it
    // there from then on). A span that joins a group is offered no collection: the filters
    // keep no tally of their payloads (NoTally).
    void add(const gc::GcCollection& c, const std::function<const CollectionPtr&()>& shared);
    auto collection_marker_sink();
    auto sync_marker_sink();
    auto pause_marker_sink(fxprof::ThreadHandle track);
    void add_collection(const gc::GcCollection& c);
    void add_participation(fxprof::ThreadHandle track, const gc::GcCollection& c, const gc::GcParticipation& part);

    ProfileContext& ctx_;
    fxprof::Profile& p_;
    std::uint64_t end_ = 0;
    std::uint16_t generations_ = 0;
    SpanDetailFilter<CollectionPtr> collection_filter_, sync_filter_;
    std::map<gc::CapNo, SpanDetailFilter<Pause>> pause_filters_;
    GcMarkerStrings::Names n_;
    GcMarkerStrings::Strings s_;
};

}  // namespace el2fx::convert
