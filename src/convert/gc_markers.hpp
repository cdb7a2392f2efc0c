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
#include "convert/variant_schema.hpp"

namespace el2fx::convert {

class GcMarkers {
public:
    explicit GcMarkers(ProfileContext& ctx);

    // Declares the marker types (the strings are interned by the caller, in their order).
    void begin(const GcMarkerStrings& strings);
    // Collections still open at the end of the log close there.
    void set_end(std::uint64_t end) { end_ = end; }
    void on_collection(gc::GcCollection&& collection);
    // Adds the markers the span filters still hold.
    void finish();

private:
    using CollectionPtr = std::shared_ptr<const gc::GcCollection>;
    using Values = VariantSchema::Values;
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
    VariantSchema collections_, pauses_;
    Values values_;
    fxprof::MarkerSchemaHandle merged_{0};
    SpanDetailFilter<CollectionPtr> collection_filter_, sync_filter_;
    std::map<gc::CapNo, SpanDetailFilter<Pause>> pause_filters_;
    fxprof::MarkerSchemaHandle sync_schema_{0}, phase_schema_{0};
    GcMarkerStrings::Names n_;
    GcMarkerStrings::Strings s_;
};

}  // namespace el2fx::convert
