#include "convert/gc_markers.hpp"

#include <algorithm>
#include <string>

#include "convert/merged_markers.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using gc::GcCollection;
using gc::GcParticipation;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }
Duration ns(std::uint64_t v) { return Duration::from_nanos(static_cast<std::int64_t>(v)); }
Duration ns(double v) { return Duration::from_nanos(static_cast<std::int64_t>(v + 0.5)); }

// Fields of the process-wide "GC" marker, in order.
enum CollectionField : unsigned {
    kNumber, kSummary, kGen, kKind, kMode, kInitiator, kCapabilities, kPause, kAvgCapPause, kLongestCapPause,
    kSync, kAllocated, kCopied, kSlop, kFrag, kThreads, kMaxCopied, kTotCopied, kBalance, kBalancedRatio, kLive,
    kHeapSize, kBlocksSize, kMemReturned,
};

MarkerSchema collection_schema() {
    using DL = DisplayLocation;
    using F = FieldFormat;
    return {.name = "GCCollection",
            .display = {DL::marker_chart, DL::marker_table, DL::timeline_overview},
            .fields = {{"number", "Collection", F::integer},
                       {"summary", "Collection", F::string, true},
                       {"gen", "Generation", F::integer},
                       {"kind", "Major or minor", F::string},
                       {"mode", "Parallel or sequential", F::string},
                       {"initiator", "Initiating capability", F::integer},
                       {"capabilities", "Capabilities taking part", F::integer},
                       {"pause", "Pause (+RTS -s: initiating capability)", F::duration},
                       {"avgCapPause", "Average capability pause", F::duration},
                       {"longestCapPause", "Longest capability pause", F::duration},
                       {"sync", "GC sync (request to start)", F::duration},
                       {"allocated", "Allocated since the previous GC", F::bytes},
                       {"copied", "Bytes copied", F::bytes},
                       {"slop", "Slop", F::bytes},
                       {"frag", "Fragmentation", F::bytes},
                       {"threads", "GC threads", F::integer},
                       {"maxCopied", "Most bytes copied by one GC thread", F::bytes},
                       {"totCopied", "Bytes copied by all GC threads", F::bytes},
                       {"balance", "Work balance (0 % serial, 100 % perfect)", F::percentage},
                       {"balancedRatio", "Balanced copied / copied (the runtime's balance)", F::percentage},
                       {"live", "Live bytes after (major GC)", F::bytes},
                       {"heapSize", "Heap size after", F::bytes},
                       {"blocksSize", "Blocks size after", F::bytes},
                       {"memReturned", "Returned to the OS", F::bytes}},
            .tooltip_label = "GC #{marker.data.number}: {marker.data.summary}",
            .table_label = "#{marker.data.number} {marker.data.summary}",
            .chart_label = "{marker.data.summary}",
            .description = "One garbage collection, from the first capability's GC_START to the last one's GC_END. "
                           "The pause +RTS -s counts is the initiating capability's; the others may resume later."};
}

enum PauseField : unsigned { kPNumber, kPSummary, kPRole, kPGen, kPWork, kPIdle, kPDone };

MarkerSchema pause_schema() {
    using DL = DisplayLocation;
    using F = FieldFormat;
    return {.name = "GCPause",
            .display = {DL::marker_chart, DL::marker_table},
            .fields = {{"number", "Collection", F::integer},
                       {"summary", "Collection", F::string, true},
                       {"role", "Role", F::string},
                       {"gen", "Generation", F::integer},
                       {"work", "Working (GC_WORK)", F::duration},
                       {"idle", "Idle (GC_IDLE)", F::duration},
                       {"done", "Done (GC_DONE)", F::duration}},
            .tooltip_label = "GC #{marker.data.number} pause: {marker.data.summary}",
            .table_label = "#{marker.data.number} {marker.data.summary}",
            .chart_label = "#{marker.data.number}",
            .description = "This capability's part in a collection: from its GC_START to its GC_END."};
}

std::string collection_summary(const GcCollection& c, std::uint16_t generations) {
    if (!c.stats) return "generation unknown (no GC_STATS_GHC)";
    std::string s = "gen " + std::to_string(c.stats->gen);
    if (generations > 0) s += c.is_major(generations) ? ", major" : ", minor";
    s += c.stats->parallel() ? ", parallel (" + std::to_string(c.stats->par_n_threads) + " threads)" : ", sequential";
    return s;
}

}  // namespace

GcMarkers::GcMarkers(ProfileContext& ctx)
    : ctx_(ctx), p_(ctx.profile), collections_(collection_schema()), pauses_(pause_schema()),
      collection_filter_(ctx.span_detail), sync_filter_(ctx.span_detail) {}

auto GcMarkers::collection_marker_sink() {
    return MarkerSink{p_, merged_, ctx_.process_track, n_.gc, ctx_.categories.gc,
                      [this](std::uint64_t, std::uint64_t, const CollectionPtr& c) { add_collection(*c); }};
}
auto GcMarkers::sync_marker_sink() {
    return MarkerSink{p_, merged_, ctx_.process_track, n_.sync, ctx_.categories.gc,
                      [this](std::uint64_t start, std::uint64_t stop, const CollectionPtr& c) {
                          p_.add_marker(ctx_.process_track, MarkerTiming::interval(at(start), at(stop)), n_.sync,
                                        ctx_.categories.gc, sync_schema_,
                                        {FieldValue(c->number), FieldValue(c->request->cap),
                                         FieldValue(c->request->parallel ? s_.parallel : s_.sequential)});
                      }};
}
auto GcMarkers::pause_marker_sink(ThreadHandle track) {
    return MarkerSink{p_, merged_, track, n_.pause, ctx_.categories.gc,
                      [this, track](std::uint64_t, std::uint64_t, const Pause& p) {
                          add_participation(track, *p.collection, p.collection->caps[p.part]);
                      }};
}

void GcMarkers::begin(const GcMarkerStrings& strings) {
    generations_ = ctx_.run.generations.value_or(0);
    n_ = strings.n;
    s_ = strings.s;
    using DL = DisplayLocation;
    using F = FieldFormat;
    std::vector<DL> chart = {DL::marker_chart, DL::marker_table};
    std::vector<DL> timeline = {DL::marker_chart, DL::marker_table, DL::timeline_overview};
    sync_schema_ = p_.register_marker_schema(
        {.name = "GCSync",
         .display = timeline,
         .fields = {{"number", "Collection", F::integer},
                    {"requester", "Requested by capability", F::integer},
                    {"mode", "Parallel or sequential", F::string}},
         .tooltip_label = "GC #{marker.data.number} sync: stopping every capability",
         .table_label = "#{marker.data.number} {marker.data.mode} GC requested by cap {marker.data.requester}",
         .chart_label = "#{marker.data.number}",
         .description = "From the GC request (REQUEST_SEQ_GC / REQUEST_PAR_GC) to the GC_START of the "
                        "capability that runs the collection: the wait for every capability to stop."});
    phase_schema_ = p_.register_marker_schema(
        {.name = "GCPhase",
         .display = chart,
         .fields = {{"number", "Collection", F::integer},
                    {"phase", "Phase", F::string},
                    {"color", "Colour", F::string, true}},
         .tooltip_label = "GC #{marker.data.number}: {marker.data.phase}",
         .table_label = "#{marker.data.number} {marker.data.phase}",
         .chart_label = "{marker.data.phase}",
         .description = "A GC thread's phase inside the collection: work (GC_WORK), idle looking for work "
                        "(GC_IDLE), done (GC_DONE), each until the next phase or GC_END.",
         .color_field = "color"});
    merged_ = merged_spans_schema(p_);
}

void GcMarkers::finish() {
    auto collection_sink = collection_marker_sink();
    collection_filter_.finish(collection_sink);
    auto sync_sink = sync_marker_sink();
    sync_filter_.finish(sync_sink);
    for (auto& [cap, filter] : pause_filters_) {
        auto sink = pause_marker_sink(*ctx_.capability_track(cap));
        filter.finish(sink);
    }
}

// One "GC" marker per collection (with its statistics), its "GC sync" wait, and on each
// capability's track its "GC pause" (with the phases when long enough to see them);
// short ones are merged (span_detail.hpp).
void GcMarkers::on_collection(GcCollection&& collection) {
    auto c = std::make_shared<const GcCollection>(std::move(collection));
    std::uint64_t start = c->first_start();
    std::uint64_t stop = std::max(c->last_end().value_or(std::max(end_, start)), start);
    auto collection_sink = collection_marker_sink();
    collection_filter_.offer(start, stop, c, collection_sink);
    const GcParticipation* initiator = c->initiator();
    if (c->request && initiator && initiator->start >= c->request->time) {
        auto sync_sink = sync_marker_sink();
        sync_filter_.offer(c->request->time, initiator->start, c, sync_sink);
    }
    for (std::size_t i = 0; i < c->caps.size(); ++i) {
        const GcParticipation& part = c->caps[i];
        std::optional<ThreadHandle> track = ctx_.capability_track(part.cap);
        if (!track) continue;
        auto it = pause_filters_.try_emplace(part.cap, ctx_.span_detail).first;
        auto sink = pause_marker_sink(*track);
        it->second.offer(part.start, std::max(part.end.value_or(end_), part.start), Pause{c, i}, sink);
    }
}

void GcMarkers::add_collection(const GcCollection& c) {
    Values& v = values_;
    std::uint64_t start = c.first_start();
    std::uint64_t stop = std::max(c.last_end().value_or(std::max(end_, start)), start);
    StringHandle summary = p_.handle_for_string(collection_summary(c, generations_));
    v.clear();
    v.set(kNumber, c.number);
    v.set(kSummary, summary);
    if (c.stats) {
        v.set(kGen, c.stats->gen);
        if (generations_ > 0) v.set(kKind, c.is_major(generations_) ? s_.major : s_.minor);
        v.set(kMode, c.stats->parallel() ? s_.parallel : s_.sequential);
    }
    if (c.initiating_cap) v.set(kInitiator, *c.initiating_cap);
    v.set(kCapabilities, static_cast<std::uint64_t>(c.caps.size()));
    if (auto pause = c.runtime_pause()) v.set(kPause, ns(*pause));
    if (auto avg = c.average_cap_pause()) v.set(kAvgCapPause, ns(*avg));
    if (auto longest = c.longest_cap_pause()) v.set(kLongestCapPause, ns(*longest));
    if (auto sync = c.sync_duration()) v.set(kSync, ns(*sync));
    if (c.allocated_since_previous) v.set(kAllocated, *c.allocated_since_previous);
    if (c.stats) {
        const gc::GcStats& s = *c.stats;
        v.set(kCopied, s.copied);
        v.set(kSlop, s.slop);
        v.set(kFrag, s.frag);
        v.set(kThreads, s.par_n_threads);
        v.set(kMaxCopied, s.par_max_copied);
        v.set(kTotCopied, s.par_tot_copied);
        if (auto b = s.seed_work_balance()) v.set(kBalance, *b);
        if (auto b = s.balanced_ratio()) v.set(kBalancedRatio, *b);
    }
    if (c.live_bytes) v.set(kLive, *c.live_bytes);
    if (c.heap_size) v.set(kHeapSize, *c.heap_size);
    if (c.blocks_size) v.set(kBlocksSize, *c.blocks_size);
    if (c.mem_return) v.set(kMemReturned, c.mem_return->returned);
    p_.add_marker(ctx_.process_track, MarkerTiming::interval(at(start), at(stop)), n_.gc, ctx_.categories.gc,
                  collections_.get(p_, v.mask()), v.values());
}

void GcMarkers::add_participation(ThreadHandle track, const GcCollection& c, const GcParticipation& part) {
    Values& v = values_;
    CategoryHandle gc = ctx_.categories.gc;
    bool initiating = c.initiating_cap == part.cap;
    std::string text = "gen " + (c.stats ? std::to_string(c.stats->gen) : std::string("?")) +
                       (initiating ? ", initiating capability" : ", taking part");
    StringHandle summary = p_.handle_for_string(text);
    std::uint64_t stop = std::max(part.end.value_or(end_), part.start);
    v.clear();
    v.set(kPNumber, c.number);
    v.set(kPSummary, summary);
    v.set(kPRole, initiating ? s_.initiating : s_.taking_part);
    if (c.stats) v.set(kPGen, c.stats->gen);
    v.set(kPWork, ns(part.phase_total(gc::GcPhase::work)));
    v.set(kPIdle, ns(part.phase_total(gc::GcPhase::idle)));
    v.set(kPDone, ns(part.phase_total(gc::GcPhase::done)));
    p_.add_marker(track, MarkerTiming::interval(at(part.start), at(stop)), n_.pause, gc, pauses_.get(p_, v.mask()),
                  v.values());
    for (const gc::GcPhaseSpan& ph : part.phases) {
        // Shorter phases are in the pause's work/idle/done totals only.
        if (ph.end - ph.start < ctx_.span_detail.resolution) continue;
        StringHandle name = ph.phase == gc::GcPhase::work ? s_.work : ph.phase == gc::GcPhase::idle ? s_.idle : s_.done;
        StringHandle color = ph.phase == gc::GcPhase::work ? s_.green : ph.phase == gc::GcPhase::idle ? s_.grey : s_.blue;
        p_.add_marker(track, MarkerTiming::interval(at(ph.start), at(ph.end)), n_.phases, gc, phase_schema_,
                      {FieldValue(c.number), FieldValue(name), FieldValue(color)});
    }
}

}  // namespace el2fx::convert
