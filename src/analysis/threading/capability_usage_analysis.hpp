// Capability usage (seeds/threading-analyses.md): combines the GC span and the
// mutator span automata of one capability so that every instant from its first
// event to the end of the log is exactly one of GC, mutator (thread X) or idle.
// The spans it returns tile that time: each starts where the previous one ended.
//
// GC while a mutator span is open: GC wins. Real eventlogs (old and new GHCs: the
// fixtures and ../shared/ghc-events-testdata, 7492 GC_STARTs) never show it: the RTS
// always writes StopThread before GC_START on the same capability, and no thread
// event during a GC. So it only happens when events were lost, and the rule
// keeps both seed automata exactly as drawn: the GC time is cut out of the
// mutator span, which resumes at GC_END if no StopThread came meanwhile. The
// case is counted as gc_during_mutator_span.
#pragma once

#include <cstdint>
#include <optional>

#include "analysis/threading/activity.hpp"
#include "analysis/threading/gc_span_analysis.hpp"
#include "analysis/threading/mutator_span_analysis.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::analysis {

struct CapabilitySpan {
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    CapabilityActivity activity;
    bool operator==(const CapabilitySpan&) const = default;
};

class CapabilityUsageAnalysis {
public:
    // A capability's life starts, idle, at its first event.
    CapabilityUsageAnalysis(std::uint64_t start_time, Diagnostics& diagnostics);

    // Each returns the span that the event closed, if any. Spans of no duration
    // (two activity changes at the same instant) are not returned.
    std::optional<CapabilitySpan> run_thread(std::uint64_t time, eventlog::ThreadId thread);
    std::optional<CapabilitySpan> stop_thread(std::uint64_t time, eventlog::ThreadId thread, std::uint16_t status);
    std::optional<CapabilitySpan> start_gc(std::uint64_t time);
    std::optional<CapabilitySpan> end_gc(std::uint64_t time);
    // Closes the last span at `end` (the end of the log).
    std::optional<CapabilitySpan> finish(std::uint64_t end);

    // GC_WORK, GC_IDLE, GC_DONE or the census: the phase of the collection under way (ignored
    // outside one). It changes what samples say, never the spans.
    void gc_phase(GcPhase phase);

    std::uint64_t start_time() const { return start_time_; }
    // What the current span is (a GC span has no phase).
    CapabilityActivity activity() const { return current_; }
    // What a sample taken now says: the activity, with the collection's phase.
    CapabilityActivity sample_activity() const {  // inline: asked after each of its events
        return current_.state == CapabilityState::gc ? CapabilityActivity::gc(phase_) : current_;
    }
    bool in_gc() const { return gc_.in_gc(); }

private:
    CapabilityActivity derived_activity() const {  // inline: after each event
        if (gc_.in_gc()) return CapabilityActivity::gc();
        if (auto thread = mutator_.running_thread()) return CapabilityActivity::mutator(*thread);
        return CapabilityActivity::idle();
    }
    // Re-derives the activity after an event; a change closes the current span.
    std::optional<CapabilitySpan> update(std::uint64_t time);
    std::optional<CapabilitySpan> switch_to(std::uint64_t time, CapabilityActivity next);

    Diagnostics& diagnostics_;
    GcSpanAnalysis gc_;
    MutatorSpanAnalysis mutator_;
    std::uint64_t start_time_;
    CapabilityActivity current_ = CapabilityActivity::idle();
    std::uint64_t since_;                  // start of the current activity
    GcPhase phase_ = GcPhase::collecting;  // of the collection under way
};

}  // namespace el2fx::analysis
