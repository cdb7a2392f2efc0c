// The heap samples of GcAnalysis in the profile: the "Allocation" counter (all capabilities'
// HEAP_ALLOCATED, one sample per burst, as a rate), the heap levels' chart (heap size, live
// heap, blocks size: heap_level_chart.hpp) and a marker where memory went back to the OS.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "analysis/gc/gc_analysis.hpp"
#include "convert/gc_marker_strings.hpp"
#include "convert/heap_level_chart.hpp"
#include "convert/profile_context.hpp"

namespace el2fx::convert {

class HeapCounters {
public:
    explicit HeapCounters(ProfileContext& ctx);

    // Declares the marker types (the strings are interned by the caller, in their order).
    void begin(const GcMarkerStrings& strings);
    // Heap samples in time order.
    void on_heap_sample(const gc::HeapSample& s);
    // The sample still waiting for its burst's end, and the levels up to `end`.
    void finish(std::uint64_t end);

private:
    template <class MakeDisplay>
    fxprof::CounterHandle counter(std::optional<fxprof::CounterHandle>& slot, std::string_view name,
                                  std::string_view description, MakeDisplay make_display);
    void add_heap_levels();
    void add_heap_sample(const gc::HeapSample& s, bool burst_continues);

    ProfileContext& ctx_;
    fxprof::Profile& p_;
    std::uint64_t end_ = 0;
    std::optional<gc::HeapSample> pending_allocation_;
    // The one counter track (counters come before every thread in the timeline): its
    // selection totals are the bytes allocated. Levels are a chart below the threads.
    std::optional<fxprof::CounterHandle> total_;
    HeapLevelSpans levels_;
    std::uint64_t previous_total_ = 0;
    fxprof::MarkerSchemaHandle returned_schema_{0};
    GcMarkerStrings::Names n_;
};

}  // namespace el2fx::convert
