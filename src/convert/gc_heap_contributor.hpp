// Garbage collection and the heap (seeds/rts-s-emulation-design.txt), from the records of
// src/gc:
//
// - the process track: one "GC" marker per collection, from the first capability's GC_START to
//   the last one's GC_END, carrying generation, major/minor, parallel/sequential, the pause the
//   runtime counts, the seed's average and longest capability pause, bytes copied, slop,
//   fragmentation, GC threads, max and total bytes copied per thread, work balance, live bytes
//   after a major collection, allocation since the previous collection and the heap size after;
//   a "GC sync" marker from the request (REQUEST_SEQ_GC / REQUEST_PAR_GC) to the GC_START of
//   the capability that ran the collection; the non-moving collector's concurrent mark, sync
//   and sweep, its census and pruned segments; memory returned to the OS;
// - each capability that took part: a "GC pause" marker (GC_START..GC_END, with the
//   collection's number) and its GC_WORK / GC_IDLE / GC_DONE phases as "GC phases" markers
//   inside it; remembered-set flushes;
// - counters (the profiler's memory graphs): heap size, live heap, blocks size, memory returned
//   to the OS, and allocation (total and per capability, as rates);
// - the `+RTS -s` summary (gc::RtsSummary) and the seed's per-capability view in the profile's
//   info panel.
//
// This contributor runs the analysis and hands its records on: gc_markers.hpp (collections),
// heap_counters.hpp (heap samples), nonmoving_markers.hpp, rts_summary_panel.hpp and
// run_summary_marker.hpp.
#pragma once

#include <cstdint>
#include <memory>

#include "convert/profile_contributor.hpp"
#include "analysis/gc/gc_analysis.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

class GcMarkers;
class HeapCounters;
class NonmovingMarkers;

// Streams: collections and heap samples become markers and counters as the analysis
// completes them (from begin() on); the non-moving records and the summary at the end.
class GcHeapContributor : public ProfileContributor, private gc::GcRecordSink {
public:
    GcHeapContributor(const ConvertOptions& options, const Diagnostics& diagnostics);
    ~GcHeapContributor() override;

    std::string_view name() const override { return "GC and heap"; }
    void begin(ProfileContext& context) override;
    // Every other event only moves the summary's clock: the converter's EventClock counts them.
    pass::Interests interests() const override { return pass::Interests::where(gc::GcAnalysis::concerns); }
    void handle(const eventlog::Event& event) override {
        analysis_.handle_without_clock(event);
        for (gc::GcCollection& c : spent_) analysis_.recycle(std::move(c));
        spent_.clear();
    }
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

private:
    void collection(gc::GcCollection&& collection) override;
    void heap_sample(const gc::HeapSample& sample) override;

    const Diagnostics& diagnostics_;
    gc::GcAnalysis analysis_;
    // Collections the markers are done with, for the analysis to fill again (before markers_:
    // their deleters add to it until markers_ is gone).
    std::vector<gc::GcCollection> spent_;
    // Made by begin(), when the tracks exist.
    std::unique_ptr<GcMarkers> markers_;
    std::unique_ptr<HeapCounters> heap_;
    std::unique_ptr<NonmovingMarkers> nonmoving_;
};

}  // namespace el2fx::convert
