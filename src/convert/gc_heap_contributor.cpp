#include "convert/gc_heap_contributor.hpp"

#include <array>

#include "convert/gc_markers.hpp"
#include "convert/heap_counters.hpp"
#include "convert/nonmoving_markers.hpp"
#include "convert/rts_summary_panel.hpp"
#include "convert/run_summary_marker.hpp"

namespace el2fx::convert {
namespace {

constexpr std::array<std::uint16_t, 23> kShown = {eventlog::StartGC::tag,
                                                  eventlog::EndGC::tag,
                                                  eventlog::RequestSeqGC::tag,
                                                  eventlog::RequestParGC::tag,
                                                  eventlog::GCIdle::tag,
                                                  eventlog::GCWork::tag,
                                                  eventlog::GCDone::tag,
                                                  eventlog::HeapAllocated::tag,
                                                  eventlog::HeapSize::tag,
                                                  eventlog::HeapLive::tag,
                                                  eventlog::GCStatsGHC::tag,
                                                  eventlog::GlobalSyncGC::tag,
                                                  eventlog::MemReturn::tag,
                                                  eventlog::BlocksSize::tag,
                                                  eventlog::ConcMarkBegin::tag,
                                                  eventlog::ConcMarkEnd::tag,
                                                  eventlog::ConcSyncBegin::tag,
                                                  eventlog::ConcSyncEnd::tag,
                                                  eventlog::ConcSweepBegin::tag,
                                                  eventlog::ConcSweepEnd::tag,
                                                  eventlog::ConcUpdRemSetFlush::tag,
                                                  eventlog::NonmovingHeapCensus::tag,
                                                  eventlog::NonmovingPrunedSegments::tag};

}  // namespace

GcHeapContributor::GcHeapContributor(const ConvertOptions& /*options*/, const Diagnostics& diagnostics)
    : diagnostics_(diagnostics), analysis_(true, this) {}

GcHeapContributor::~GcHeapContributor() = default;

void GcHeapContributor::begin(ProfileContext& context) {
    markers_ = std::make_unique<GcMarkers>(context);
    heap_ = std::make_unique<HeapCounters>(context);
    nonmoving_ = std::make_unique<NonmovingMarkers>(context);
    const GcMarkerStrings strings = intern_gc_marker_strings(context.profile);
    // Their marker types in this order (the schemas' order in the profile).
    markers_->begin(strings);
    nonmoving_->begin(strings);
    heap_->begin(strings);
}

void GcHeapContributor::collection(gc::GcCollection&& collection) {
    if (!markers_) return;
    // Once the markers are done with it, its storage goes back to the analysis for the next
    // collections (spent_: handle()).
    markers_->on_collection(collection, [this](gc::GcCollection&& kept) {
        auto* owned = new gc::GcCollection(std::move(kept));
        return GcMarkers::CollectionPtr(owned, [this](const gc::GcCollection* c) {
            spent_.push_back(std::move(*const_cast<gc::GcCollection*>(c)));  // made non-const above
            delete c;
        });
    });
    // Not kept: what it holds goes back now (a kept one was moved from, and goes back later).
    if (collection.caps.capacity() > 0) spent_.push_back(std::move(collection));
}

void GcHeapContributor::heap_sample(const gc::HeapSample& sample) {
    if (heap_) heap_->on_heap_sample(sample);
}

std::span<const std::uint16_t> GcHeapContributor::shown_tags() const { return kShown; }

void GcHeapContributor::contribute(ProfileContext& context, std::uint64_t end) {
    gc::SummaryEnd summary_end;
    summary_end.truncated = diagnostics_.count(Diagnostic::truncated_input) > 0;
    if (const auto& b = context.options.window.bounds) {
        summary_end.window_start = b->from;
        if (b->cut) summary_end.window_cut = b->to;
    }
    if (!markers_) begin(context);
    markers_->set_end(end);
    if (context.event_clock) analysis_.set_clock(*context.event_clock);
    const gc::GcAnalysisResult result = analysis_.finish(summary_end);  // hands over the unfinished collections
    markers_->finish();
    heap_->finish(end);
    nonmoving_->add(result, end);
    add_rts_summary_panel(context.profile, result.summary);
    add_run_summary_marker(context, result.summary, context.run.first_time, end);
}

}  // namespace el2fx::convert
