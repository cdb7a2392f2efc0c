// The GC and heap analyses in one pass: the collection tracker, the heap counters, the
// non-moving collector's phases and the `+RTS -s` summary, fed the same time-ordered events.
#pragma once

#include <vector>

#include "eventlog/event.hpp"
#include "eventlog/event_clock.hpp"
#include "pass/interests.hpp"
#include "analysis/gc/gc_collection.hpp"
#include "analysis/gc/gc_collection_tracker.hpp"
#include "analysis/gc/heap_counters.hpp"
#include "analysis/gc/nonmoving_tracker.hpp"
#include "analysis/gc/rts_summary.hpp"

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

// Where a streaming consumer gets collections and heap samples as soon as they are final,
// instead of finding them all in GcAnalysisResult at the end.
class GcRecordSink {
public:
    virtual ~GcRecordSink() = default;
    virtual void collection(GcCollection&& collection) = 0;  // in the order they complete
    virtual void heap_sample(const HeapSample& sample) = 0;  // in time order
};

class GcAnalysis {
public:
    // keep_records: keep every collection, heap sample and non-moving record for the
    // profile; without it only the summary is computed (memory independent of the log).
    // With a sink, collections and heap samples go to it and are not kept (the sink must
    // outlive the analysis); non-moving records are kept as keep_records says.
    explicit GcAnalysis(bool keep_records = true, GcRecordSink* sink = nullptr) : keep_(keep_records), sink_(sink) {}
    void handle(const eventlog::Event& event);
    GcAnalysisResult finish(const SummaryEnd& end);

    // For a caller that dispatches by tag: the tags handle() does more with than count them
    // and move the summary's clock. Those events go to handle_without_clock(), and the count
    // and times of every event to set_clock() before finish(): the same result as handle()
    // on every event.
    static bool concerns(std::uint16_t tag);
    // Every event (handle() keeps the clock of all); the payloads of those it concerns() read.
    static pass::Interests interests() {
        pass::Interests i = pass::Interests::where(concerns);
        i.handles.set();
        return i;
    }
    void handle_without_clock(const eventlog::Event& event);
    void set_clock(const eventlog::EventClock& clock) { summary_.set_clock(clock); }
    // A collection the sink is done with: its storage serves the next ones (GcCollectionTracker).
    void recycle(GcCollection&& spent) { tracker_.recycle(std::move(spent)); }

private:
    void handle_records(const eventlog::Event& event);
    void take_done();

    bool keep_;
    GcRecordSink* sink_;
    GcCollectionTracker tracker_;
    HeapCounters heap_;
    NonmovingTracker nonmoving_;
    RtsSummaryCalculator summary_;
    std::vector<GcCollection> done_;  // just completed, not yet handed on
    GcAnalysisResult result_;
};

}  // namespace el2fx::gc
