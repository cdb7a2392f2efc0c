// The non-moving collector's records (GcAnalysisResult) as markers: its concurrent mark, sync
// and sweep on the process track, its heap censuses and pruned segments, and each
// capability's remembered-set flushes on its track.
#pragma once

#include <cstdint>

#include "analysis/gc/gc_analysis.hpp"
#include "convert/gc_marker_strings.hpp"
#include "convert/profile_context.hpp"

namespace el2fx::convert {

class NonmovingMarkers {
public:
    explicit NonmovingMarkers(ProfileContext& ctx) : ctx_(ctx), p_(ctx.profile) {}

    // Declares the marker types (the strings are interned by the caller, in their order).
    void begin(const GcMarkerStrings& strings);
    // Phases still open at `end` close there.
    void add(const gc::GcAnalysisResult& result, std::uint64_t end);

private:
    ProfileContext& ctx_;
    fxprof::Profile& p_;
    fxprof::MarkerSchemaHandle conc_schema_{0}, mark_schema_{0}, census_schema_{0}, pruned_schema_{0},
        flush_schema_{0};
    GcMarkerStrings::Names n_;
    GcMarkerStrings::Strings s_;
};

}  // namespace el2fx::convert
