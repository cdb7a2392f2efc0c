#include "analysis/gc/gc_analysis.hpp"

#include "analysis/gc/gc_event_class.hpp"

namespace el2fx::gc {

void GcAnalysis::handle(const eventlog::Event& event) {
    summary_.handle(event);
    handle_records(event);
}

bool GcAnalysis::concerns(std::uint16_t tag) {
    return is_gc_class_event(tag) || RtsSummaryCalculator::concerns(tag) || NonmovingTracker::concerns(tag);
}

void GcAnalysis::handle_without_clock(const eventlog::Event& event) {
    summary_.handle_without_clock(event);
    handle_records(event);
}

void GcAnalysis::handle_records(const eventlog::Event& event) {
    // The heap counters and the tracker act on GC and heap events only (gc_event_class.hpp).
    if (is_gc_class_event(event.tag)) {
        if (const HeapSample* s = heap_.handle(event)) {
            summary_.add(*s);
            if (sink_)
                sink_->heap_sample(*s);
            else if (keep_)
                result_.heap.push_back(*s);
        }
        tracker_.handle(event, done_);
        if (!done_.empty()) take_done();
    }
    if (!keep_ || !NonmovingTracker::concerns(event.tag)) return;
    NonmovingRecord r = nonmoving_.handle(event);
    if (r.empty()) return;
    if (r.phase) result_.concurrent_phases.push_back(*r.phase);
    if (r.census) result_.censuses.push_back(*r.census);
    if (r.pruned) result_.pruned.push_back(*r.pruned);
    if (r.flush) result_.flushes.push_back(*r.flush);
}

void GcAnalysis::take_done() {
    for (GcCollection& c : done_) {
        summary_.add(c);
        if (sink_)
            sink_->collection(std::move(c));
        else if (keep_)
            result_.collections.push_back(std::move(c));
    }
    done_.clear();
}

GcAnalysisResult GcAnalysis::finish(const SummaryEnd& end) {
    tracker_.finish(done_, end.window_cut);
    take_done();
    for (const ConcurrentPhaseSpan& p : nonmoving_.finish())
        if (keep_) result_.concurrent_phases.push_back(p);
    result_.summary = summary_.finish(end, tracker_.anomalies());
    return std::move(result_);
}

}  // namespace el2fx::gc
