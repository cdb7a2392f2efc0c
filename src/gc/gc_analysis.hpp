// The GC and heap analyses in one pass: the collection tracker, the heap counters, the
// non-moving collector's phases and the `+RTS -s` summary, fed the same time-ordered events.
#pragma once

#include <vector>

#include "eventlog/event.hpp"
#include "gc/gc_collection.hpp"
#include "gc/gc_collection_tracker.hpp"
#include "gc/heap_counters.hpp"
#include "gc/nonmoving_tracker.hpp"
#include "gc/rts_summary.hpp"

namespace el2fx::gc {

struct GcAnalysisResult {
    std::vector<GcCollection> collections;  // in the order they began
    std::vector<HeapSample> heap;           // in time order
    std::vector<ConcurrentPhaseSpan> concurrent_phases;
    std::vector<NonmovingCensus> censuses;
    std::vector<NonmovingPruned> pruned;
    std::vector<RemSetFlush> flushes;
    RtsSummary summary;
};

class GcAnalysis {
public:
    // keep_records: keep every collection, heap sample and non-moving record for the
    // profile; without it only the summary is computed (memory independent of the log).
    explicit GcAnalysis(bool keep_records = true) : keep_(keep_records) {}
    void handle(const eventlog::Event& event);
    GcAnalysisResult finish(const SummaryEnd& end);

private:
    void take_done();

    bool keep_;
    GcCollectionTracker tracker_;
    HeapCounters heap_;
    NonmovingTracker nonmoving_;
    RtsSummaryCalculator summary_;
    std::vector<GcCollection> done_;  // just completed, not yet handed on
    GcAnalysisResult result_;
};

}  // namespace el2fx::gc
