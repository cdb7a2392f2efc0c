// The markers of garbage collections, as GcAnalysis completes them: one "GC" marker per
// collection on the process track with its statistics (gc_heap_contributor.hpp lists them),
// its "GC sync" wait from the request to the start, and on each capability's track its
// "GC pause" with the GC_WORK / GC_IDLE / GC_DONE phases inside it when long enough to see;
// short ones are merged (span_detail.hpp).
#pragma once

#include <cstdint>
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
    // Shared: the span filters keep it until its markers are added (the pointer's deleter
    // decides where its memory goes: gc_heap_contributor.cpp).
    using CollectionPtr = std::shared_ptr<const gc::GcCollection>;
    void on_collection(gc::GcCollection&& collection) {
        on_collection(std::make_shared<const gc::GcCollection>(std::move(collection)));
    }
    void on_collection(CollectionPtr collection);
    // Adds the markers the span filters still hold.
    void finish();

private:
    struct Pause {
        CollectionPtr collection;
        std::size_t part;  // index in collection->caps
    };

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
