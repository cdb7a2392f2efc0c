// The marker that stands for a group of short spans (span_detail.hpp): it keeps the name and
// category of the spans it replaces, so it sits in their row of the marker chart, and says how
// many there were and how long they took.
#pragma once

#include "convert/span_detail.hpp"
#include "fxprof/profile.hpp"

namespace el2fx::convert {

void add_merged_marker(fxprof::Profile& profile, fxprof::ThreadHandle track, fxprof::StringHandle name,
                       fxprof::CategoryHandle category, const MergedSpans& merged);

// Adapts a marker-adding callable to SpanDetailFilter's sink: span() goes to `add`, merged()
// becomes a merged marker named `name` on `track`.
template <typename Add>
struct MarkerSink {
    fxprof::Profile& profile;
    fxprof::ThreadHandle track;
    fxprof::StringHandle name;
    fxprof::CategoryHandle category;
    Add add;

    template <typename Payload>
    void span(std::uint64_t start, std::uint64_t end, const Payload& payload) {
        add(start, end, payload);
    }
    void merged(const MergedSpans& m) { add_merged_marker(profile, track, name, category, m); }
};
template <typename Add>
MarkerSink(fxprof::Profile&, fxprof::ThreadHandle, fxprof::StringHandle, fxprof::CategoryHandle, Add)
    -> MarkerSink<Add>;

}  // namespace el2fx::convert
