#include "convert/heap_level_chart.hpp"
#include "convert/run_summary_marker.hpp"
#include "convert/gc_heap_contributor.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "convert/merged_markers.hpp"
#include "analysis/run/run_census.hpp"
#include "analysis/gc/rts_summary_text.hpp"
#include "util/error.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using gc::Accuracy;
using gc::Figure;
using gc::GcCollection;
using gc::GcParticipation;

constexpr std::array<std::uint16_t, 23> kShown = {
    eventlog::StartGC::tag,        eventlog::EndGC::tag,           eventlog::RequestSeqGC::tag,
    eventlog::RequestParGC::tag,   eventlog::GCIdle::tag,          eventlog::GCWork::tag,
    eventlog::GCDone::tag,         eventlog::HeapAllocated::tag,   eventlog::HeapSize::tag,
    eventlog::HeapLive::tag,       eventlog::GCStatsGHC::tag,      eventlog::GlobalSyncGC::tag,
    eventlog::MemReturn::tag,      eventlog::BlocksSize::tag,      eventlog::ConcMarkBegin::tag,
    eventlog::ConcMarkEnd::tag,    eventlog::ConcSyncBegin::tag,   eventlog::ConcSyncEnd::tag,
    eventlog::ConcSweepBegin::tag, eventlog::ConcSweepEnd::tag,    eventlog::ConcUpdRemSetFlush::tag,
    eventlog::NonmovingHeapCensus::tag, eventlog::NonmovingPrunedSegments::tag};

// HEAP_ALLOCATED events of several capabilities this close together are one report.
constexpr std::uint64_t kAllocationBurstNs = 100'000;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }
Duration ns(std::uint64_t v) { return Duration::from_nanos(static_cast<std::int64_t>(v)); }
Duration ns(double v) { return Duration::from_nanos(static_cast<std::int64_t>(v + 0.5)); }

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
std::string secs(double nanos) { return fmt("%.3f s", nanos / 1e9); }
std::string pause_text(double nanos) { return fmt("%.4f s", nanos / 1e9); }

// A marker type with optional fields: the profile format has no "absent" value, so each
// combination of present fields gets a schema of its own, registered when first used.
// Field i of the full list is present when bit i of the mask is set.
class VariantSchema {
public:
    explicit VariantSchema(MarkerSchema full) : full_(std::move(full)) {}
    MarkerSchemaHandle get(Profile& p, std::uint64_t mask) {
        auto it = by_mask_.find(mask);
        if (it != by_mask_.end()) return it->second;
        MarkerSchema s = full_;
        s.fields.clear();
        for (std::size_t i = 0; i < full_.fields.size(); ++i)
            if (mask & (std::uint64_t{1} << i)) s.fields.push_back(full_.fields[i]);
        std::uint64_t all = (std::uint64_t{1} << full_.fields.size()) - 1;
        if (mask != all) {
            char suffix[24];
            std::snprintf(suffix, sizeof suffix, "-%llx", static_cast<unsigned long long>(mask));
            s.name += suffix;
        }
        MarkerSchemaHandle h = p.register_marker_schema(std::move(s));
        by_mask_.emplace(mask, h);
        return h;
    }

private:
    MarkerSchema full_;
    std::map<std::uint64_t, MarkerSchemaHandle> by_mask_;
};

// The values of one marker, given in field order.
class Values {
public:
    void set(unsigned bit, FieldValue v) {
        if (bit < next_) throw Error("GC marker fields out of order");
        mask_ |= std::uint64_t{1} << bit;
        next_ = bit + 1;
        values_.push_back(v);
    }
    std::uint64_t mask() const { return mask_; }
    std::span<const FieldValue> values() const { return values_; }
    void clear() {
        values_.clear();
        mask_ = 0;
        next_ = 0;
    }

private:
    std::vector<FieldValue> values_;
    std::uint64_t mask_ = 0;
    unsigned next_ = 0;
};

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

std::string accuracy_suffix(Accuracy a) {
    switch (a) {
        case Accuracy::estimate: return " (estimate)";
        case Accuracy::lower_bound: return " (at least)";
        default: return "";
    }
}

}  // namespace

// Streams collections and heap samples into markers and counters as GcAnalysis hands them
// over; non-moving records and the summary come at the end.
class GcHeapWriter {
public:
    explicit GcHeapWriter(ProfileContext& ctx)
        : ctx_(ctx), p_(ctx.profile), collections_(collection_schema()), pauses_(pause_schema()),
          collection_filter_(ctx.span_detail), sync_filter_(ctx.span_detail), levels_(ctx.span_detail.resolution) {}

private:
    using CollectionPtr = std::shared_ptr<const GcCollection>;
    struct Pause {
        CollectionPtr collection;
        std::size_t part;  // index in collection->caps
    };

    auto collection_marker_sink() {
        return MarkerSink{p_, merged_, ctx_.process_track, n_.gc, ctx_.categories.gc,
                          [this](std::uint64_t, std::uint64_t, const CollectionPtr& c) { add_collection(*c); }};
    }
    auto sync_marker_sink() {
        return MarkerSink{p_, merged_, ctx_.process_track, n_.sync, ctx_.categories.gc,
                          [this](std::uint64_t start, std::uint64_t stop, const CollectionPtr& c) {
                              p_.add_marker(ctx_.process_track, MarkerTiming::interval(at(start), at(stop)), n_.sync,
                                            ctx_.categories.gc, sync_schema_,
                                            {FieldValue(c->number), FieldValue(c->request->cap),
                                             FieldValue(c->request->parallel ? s_.parallel : s_.sequential)});
                          }};
    }
    auto pause_marker_sink(ThreadHandle track) {
        return MarkerSink{p_, merged_, track, n_.pause, ctx_.categories.gc,
                          [this, track](std::uint64_t, std::uint64_t, const Pause& p) {
                              add_participation(track, *p.collection, p.collection->caps[p.part]);
                          }};
    }

public:

    void begin() {
        generations_ = ctx_.run.generations.value_or(0);
        intern();
        declare();
        merged_ = merged_spans_schema(p_);
    }

    // Collections still open at the end of the log close there.
    void set_end(std::uint64_t end) { end_ = end; }

    void finish(const gc::GcAnalysisResult& r) {
        auto collection_sink = collection_marker_sink();
        collection_filter_.finish(collection_sink);
        auto sync_sink = sync_marker_sink();
        sync_filter_.finish(sync_sink);
        for (auto& [cap, filter] : pause_filters_) {
            auto sink = pause_marker_sink(*ctx_.capability_track(cap));
            filter.finish(sink);
        }
        if (pending_allocation_) add_heap_sample(*pending_allocation_, false);
        pending_allocation_.reset();
        add_heap_levels();
        add_nonmoving(r);
        add_summary(r.summary);
        add_run_summary_marker(ctx_, r.summary, ctx_.run.first_time, end_);
    }

    // The rest is this file's own business (the class lives in this file only).
    void intern() {
        n_.gc = p_.handle_for_string("GC");
        n_.sync = p_.handle_for_string("GC sync");
        n_.pause = p_.handle_for_string("GC pause");
        n_.phases = p_.handle_for_string("GC phases");
        n_.mark = p_.handle_for_string("Concurrent mark");
        n_.conc_sync = p_.handle_for_string("Concurrent sync");
        n_.sweep = p_.handle_for_string("Concurrent sweep");
        n_.census = p_.handle_for_string("Nonmoving census");
        n_.pruned = p_.handle_for_string("Nonmoving segments pruned");
        n_.flush = p_.handle_for_string("Remembered set flushed");
        n_.returned = p_.handle_for_string("Memory returned to the OS");
        s_.major = p_.handle_for_string("major");
        s_.minor = p_.handle_for_string("minor");
        s_.parallel = p_.handle_for_string("parallel");
        s_.sequential = p_.handle_for_string("sequential");
        s_.initiating = p_.handle_for_string("initiating");
        s_.taking_part = p_.handle_for_string("taking part");
        s_.work = p_.handle_for_string("work");
        s_.idle = p_.handle_for_string("idle");
        s_.done = p_.handle_for_string("done");
        s_.green = p_.handle_for_string("green");
        s_.grey = p_.handle_for_string("grey");
        s_.blue = p_.handle_for_string("blue");
        s_.complete = p_.handle_for_string("yes");
        s_.incomplete = p_.handle_for_string("no: the eventlog ended first");
    }

    void declare() {
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
        conc_schema_ = p_.register_marker_schema(
            {.name = "NonmovingPhase",
             .display = timeline,
             .fields = {{"begins", "Begin events", F::integer}, {"complete", "Ended in the log", F::string}},
             .tooltip_label = "{marker.name}",
             .description = "A concurrent phase of the non-moving collector (CONC_*_BEGIN to CONC_*_END)."});
        mark_schema_ = p_.register_marker_schema(
            {.name = "NonmovingMark",
             .display = timeline,
             .fields = {{"begins", "Begin events", F::integer},
                        {"complete", "Ended in the log", F::string},
                        {"marked", "Objects marked", F::integer}},
             .tooltip_label = "{marker.name}: {marker.data.marked} objects",
             .description = "The non-moving collector's concurrent mark (CONC_MARK_BEGIN to CONC_MARK_END)."});
        census_schema_ = p_.register_marker_schema(
            {.name = "NonmovingCensus",
             .display = chart,
             .fields = {{"blockSize", "Block size", F::bytes},
                        {"active", "Active segments", F::integer},
                        {"filled", "Filled segments", F::integer},
                        {"live", "Live blocks", F::integer}},
             .tooltip_label = "Census of {marker.data.blockSize} blocks",
             .table_label = "{marker.data.blockSize} blocks: {marker.data.live} live",
             .description = "The non-moving heap's census for one block size (NONMOVING_HEAP_CENSUS)."});
        pruned_schema_ = p_.register_marker_schema(
            {.name = "NonmovingPruned",
             .display = chart,
             .fields = {{"pruned", "Segments pruned", F::integer}, {"free", "Free segments", F::integer}},
             .tooltip_label = "{marker.data.pruned} segments pruned",
             .description = "Free non-moving segments returned (NONMOVING_PRUNED_SEGMENTS)."});
        flush_schema_ = p_.register_marker_schema(
            {.name = "RemSetFlush",
             .display = chart,
             .fields = {},
             .tooltip_label = "Remembered set flushed",
             .description = "The capability flushed its update remembered set for the non-moving collector."});
        returned_schema_ = p_.register_marker_schema(
            {.name = "MemReturn",
             .display = chart,
             .fields = {{"current", "Heap (megablocks, in bytes)", F::bytes},
                        {"needed", "Needed", F::bytes},
                        {"returned", "Returned", F::bytes}},
             .tooltip_label = "{marker.data.returned} returned to the OS",
             .description = "The runtime returned memory to the operating system (MEM_RETURN)."});
    }

    // One "GC" marker per collection (with its statistics), its "GC sync" wait, and on each
    // capability's track its "GC pause" (with the phases when long enough to see them);
    // short ones are merged (span_detail.hpp).
    void on_collection(GcCollection&& collection) {
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

    void add_collection(const GcCollection& c) {
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

    void add_participation(ThreadHandle track, const GcCollection& c, const GcParticipation& part) {
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

    // The counter, made on first use (its display only then: this runs for every heap sample).
    template <class MakeDisplay>
    CounterHandle counter(std::optional<CounterHandle>& slot, std::string_view name, std::string_view description,
                          MakeDisplay make_display) {
        if (!slot) slot = p_.add_counter(ctx_.process, name, "Memory", description, make_display());
        return *slot;
    }

    // Heap samples in time order. The runtime posts every capability's HEAP_ALLOCATED at
    // once: the total gets one sample per burst, at its last event (a sample per capability
    // would draw spikes of rate between them), so an allocation sample waits for the next.
    void on_heap_sample(const gc::HeapSample& s) {
        if (pending_allocation_) {
            bool burst_continues = s.quantity == gc::HeapQuantity::allocated &&
                                   s.time - pending_allocation_->time <= kAllocationBurstNs;
            add_heap_sample(*pending_allocation_, burst_continues);
            pending_allocation_.reset();
        }
        if (s.quantity == gc::HeapQuantity::allocated)
            pending_allocation_ = s;
        else
            add_heap_sample(s, false);
    }

    // The heap levels' chart (heap_level_chart.hpp): one "Heap" marker per span on the process.
    void add_heap_levels() {
        levels_.finish(end_);
        if (!levels_.any()) return;
        using DL = DisplayLocation;
        MarkerSchema schema{
            .name = "HeapLevels",
            .display = {DL::marker_chart, DL::marker_table},
            .fields = {{"size", "Heap size", FieldFormat::bytes},
                       {"live", "Live heap", FieldFormat::bytes},
                       {"blocks", "Blocks size", FieldFormat::bytes},
                       {"zero", "", FieldFormat::integer, true}},
            .tooltip_label = "Heap size {marker.data.size}, live {marker.data.live}",
            .table_label = "heap size {marker.data.size}, live {marker.data.live}, blocks {marker.data.blocks}",
            .chart_label = "{marker.data.size}",
            .description = "The heap's levels on one scale: its size from the OS (HEAP_SIZE, posted after each "
                           "collection), live data after each major collection (HEAP_LIVE) and memory in allocated "
                           "blocks (BLOCKS_SIZE, GHC 9.2+); the largest of each within the span."};
        // Drawn in this order; a line at zero last, so that the scale starts at zero (the
        // track scales its lines from their lowest value).
        schema.graphs = {{"size", MarkerGraphType::line, GraphColor::orange},
                         {"live", MarkerGraphType::line, GraphColor::purple},
                         {"blocks", MarkerGraphType::line, GraphColor::teal},
                         {"zero", MarkerGraphType::line, GraphColor::grey}};
        const MarkerSchemaHandle handle = p_.register_marker_schema(std::move(schema));
        const StringHandle name = p_.handle_for_string("Heap");
        for (const HeapLevelSpan& s : levels_.spans())
            p_.add_marker(ctx_.process_track, MarkerTiming::interval(at(s.start), at(s.end)), name,
                          ctx_.categories.memory, handle,
                          {FieldValue(s.levels.size), FieldValue(s.levels.live), FieldValue(s.levels.blocks),
                           FieldValue(0)});
    }

    void add_heap_sample(const gc::HeapSample& s, bool burst_continues) {
        Timestamp t = at(s.time);
        switch (s.quantity) {
            case gc::HeapQuantity::heap_size:
            case gc::HeapQuantity::heap_live:
            case gc::HeapQuantity::blocks_size:
                levels_.set(s.quantity, s.time, s.value);
                break;
            case gc::HeapQuantity::mem_returned:
                p_.add_marker(ctx_.process_track, MarkerTiming::instant(t), n_.returned, ctx_.categories.memory,
                              returned_schema_,
                              {FieldValue(s.mem.current), FieldValue(s.mem.needed), FieldValue(s.mem.returned)});
                break;
            case gc::HeapQuantity::allocated: {
                // The runtime posts every capability's counter at once: one total per burst, at
                // its last event (a sample per capability would draw spikes of rate between them).
                CounterHandle all = counter(total_, "Allocation",
                                            "Bytes allocated by all capabilities (HEAP_ALLOCATED): the rate "
                                            "between samples.",
                                            [] { return CounterDisplay::byte_rate("Allocation", GraphColor::blue); });
                if (!burst_continues) {
                    std::uint64_t inc = s.total_allocated >= previous_total_ ? s.total_allocated - previous_total_ : 0;
                    previous_total_ = s.total_allocated;
                    p_.add_counter_sample(all, t, static_cast<double>(inc));
                }
                break;
            }
        }
    }

    void add_nonmoving(const gc::GcAnalysisResult& r_) {
        ThreadHandle proc = ctx_.process_track;
        CategoryHandle gc = ctx_.categories.gc;
        for (const gc::ConcurrentPhaseSpan& ph : r_.concurrent_phases) {
            std::uint64_t stop = std::max(ph.end.value_or(end_), ph.start);
            MarkerTiming timing = MarkerTiming::interval(at(ph.start), at(stop));
            StringHandle complete = ph.end ? s_.complete : s_.incomplete;
            switch (ph.phase) {
                case gc::ConcurrentPhase::mark:
                    p_.add_marker(proc, timing, n_.mark, gc, mark_schema_,
                                  {FieldValue(ph.begins), FieldValue(complete),
                                   FieldValue(ph.marked_objects.value_or(0))});
                    break;
                case gc::ConcurrentPhase::sync:
                    p_.add_marker(proc, timing, n_.conc_sync, gc, conc_schema_,
                                  {FieldValue(ph.begins), FieldValue(complete)});
                    break;
                case gc::ConcurrentPhase::sweep:
                    p_.add_marker(proc, timing, n_.sweep, gc, conc_schema_,
                                  {FieldValue(ph.begins), FieldValue(complete)});
                    break;
            }
        }
        for (const gc::NonmovingCensus& c : r_.censuses)
            p_.add_marker(proc, MarkerTiming::instant(at(c.time)), n_.census, ctx_.categories.memory, census_schema_,
                          {FieldValue(c.block_size), FieldValue(c.active_segments), FieldValue(c.filled_segments),
                           FieldValue(c.live_blocks)});
        for (const gc::NonmovingPruned& c : r_.pruned)
            p_.add_marker(proc, MarkerTiming::instant(at(c.time)), n_.pruned, ctx_.categories.memory, pruned_schema_,
                          {FieldValue(c.pruned_segments), FieldValue(c.free_segments)});
        for (const gc::RemSetFlush& f : r_.flushes) {
            ThreadHandle track = ctx_.capability_track(f.cap).value_or(proc);
            p_.add_marker(track, MarkerTiming::instant(at(f.time)), n_.flush, gc, flush_schema_,
                          std::span<const FieldValue>{});
        }
    }

    // ---- the info panel ---------------------------------------------------------------------------

    // Exact to the byte: as text, since the panel would round a "bytes" value to three digits.
    void bytes_entry(ExtraSectionHandle s, const std::string& label, const Figure<std::uint64_t>& f) {
        if (f.value) {
            p_.add_extra_entry(s, label + accuracy_suffix(f.accuracy), ExtraValue::text(gc::with_commas(*f.value) + " bytes"));
        } else {
            p_.add_extra_entry(s, label, ExtraValue::text("unknown: " + f.note));
        }
    }
    void duration_entry(ExtraSectionHandle s, const std::string& label, const Figure<std::uint64_t>& f) {
        if (f.value) {
            p_.add_extra_entry(s, label + accuracy_suffix(f.accuracy), ExtraValue::duration(ns(*f.value)));
        } else {
            p_.add_extra_entry(s, label, ExtraValue::text("unknown: " + f.note));
        }
    }
    // As text with the runtime's decimals; the panel would round a percentage to whole ones.
    void percentage_entry(ExtraSectionHandle s, const std::string& label, const Figure<double>& f, const char* format) {
        if (f.value) {
            p_.add_extra_entry(s, label + accuracy_suffix(f.accuracy), ExtraValue::text(fmt(format, *f.value * 100)));
        } else {
            p_.add_extra_entry(s, label, ExtraValue::text("unknown: " + f.note));
        }
    }

    void add_summary(const gc::RtsSummary& m) {
        ExtraSectionHandle s = p_.add_extra_section("GC and heap: +RTS -s, from the events");
        bytes_entry(s, "Bytes allocated in the heap", m.bytes_allocated);
        bytes_entry(s, "Bytes copied during GC", m.bytes_copied);
        bytes_entry(s, "Maximum residency", m.max_residency);
        if (m.max_residency.value)
            p_.add_extra_entry(s, "Residency samples (major GCs)",
                               ExtraValue::integer(static_cast<std::int64_t>(m.residency_samples)));
        bytes_entry(s, "Maximum slop", m.max_slop);
        if (m.memory_in_use.value) {
            p_.add_extra_entry(s, "Total memory in use" + accuracy_suffix(m.memory_in_use.accuracy),
                               ExtraValue::text(std::to_string(*m.memory_in_use.value / (1024 * 1024)) + " MiB (" +
                                                gc::with_commas(*m.memory_in_use.value) + " bytes)"));
        } else {
            bytes_entry(s, "Total memory in use", m.memory_in_use);
        }
        bytes_entry(s, "Lost to fragmentation", m.fragmentation);
        if (m.generations_table.value) {
            for (const gc::GenerationFigures& g : *m.generations_table.value) {
                std::string text = std::to_string(g.collections) + " collections (" + std::to_string(g.par_collections) +
                                   " parallel), " + secs(static_cast<double>(g.elapsed_ns)) + " elapsed, average pause " +
                                   pause_text(g.avg_pause_ns()) + ", longest " +
                                   pause_text(static_cast<double>(g.max_pause_ns));
                p_.add_extra_entry(s, "Gen " + std::to_string(g.gen) + accuracy_suffix(m.generations_table.accuracy),
                                   ExtraValue::text(text));
            }
        } else {
            p_.add_extra_entry(s, "Collections by generation", ExtraValue::text("unknown: " + m.generations_table.note));
        }
        if (m.work_balance.value || m.threaded != false) percentage_entry(s, "Parallel GC work balance", m.work_balance, "%.2f%% (serial 0%%, perfect 100%%)");
        if (m.sparks.value) {
            const gc::SparkFigures& f = *m.sparks.value;
            p_.add_extra_entry(s, "Sparks" + accuracy_suffix(m.sparks.accuracy),
                               ExtraValue::text(std::to_string(f.total()) + " (" + std::to_string(f.converted) +
                                                " converted, " + std::to_string(f.overflowed) + " overflowed, " +
                                                std::to_string(f.dud) + " dud, " + std::to_string(f.gcd) + " GC'd, " +
                                                std::to_string(f.fizzled) + " fizzled)"));
        } else {
            p_.add_extra_entry(s, "Sparks", ExtraValue::text("unknown: " + m.sparks.note));
        }
        duration_entry(s, "INIT time (elapsed)", m.init_elapsed);
        duration_entry(s, "MUT time (elapsed)", m.mut_elapsed);
        duration_entry(s, "GC time (elapsed)", m.gc_elapsed);
        if (m.has_censuses) duration_entry(s, "PROF time: heap censuses (elapsed)", m.prof_elapsed);
        duration_entry(s, "EXIT time (elapsed)", m.exit_elapsed);
        duration_entry(s, "Total time (elapsed)", m.total_elapsed);
        if (m.alloc_rate.value) {
            p_.add_extra_entry(s, "Alloc rate" + accuracy_suffix(m.alloc_rate.accuracy),
                               ExtraValue::text(gc::rounded_with_commas(*m.alloc_rate.value) +
                                                " bytes per MUT second (elapsed)"));
        } else {
            p_.add_extra_entry(s, "Alloc rate", ExtraValue::text("unknown: " + m.alloc_rate.note));
        }
        percentage_entry(s, "Productivity (elapsed)", m.productivity, "%.1f%% of the total elapsed time");
        p_.add_extra_entry(s, "How these were derived",
                           ExtraValue::text("`eventlog2fxprof summary` prints them in the runtime's layout, with a note "
                                            "for each estimate"));

        ExtraSectionHandle seed = p_.add_extra_section("GC per capability: the seed's conventions");
        if (m.seed_gc_elapsed.value)
            p_.add_extra_entry(seed, "GC time (average over the capabilities in each GC)",
                               ExtraValue::duration(ns(*m.seed_gc_elapsed.value)));
        if (m.seed_mut_elapsed.value)
            p_.add_extra_entry(seed, "MUT time (the eventlog's span less GC)",
                               ExtraValue::duration(ns(*m.seed_mut_elapsed.value)));
        if (m.seed_productivity.value)
            p_.add_extra_entry(seed, "Productivity (of the eventlog's span)",
                               ExtraValue::text(fmt("%.1f%%", *m.seed_productivity.value * 100)));
        if (m.seed_max_pause.value)
            p_.add_extra_entry(seed, "Max pause (average over the capabilities in a GC)",
                               ExtraValue::duration(ns(*m.seed_max_pause.value)));
        if (m.generations_table.value)
            for (const gc::GenerationFigures& g : *m.generations_table.value)
                p_.add_extra_entry(seed, "Gen " + std::to_string(g.gen),
                                   ExtraValue::text(secs(g.seed_elapsed_ns) + " elapsed, average pause " +
                                                    pause_text(g.seed_avg_pause_ns()) + ", longest " +
                                                    pause_text(g.seed_max_pause_ns) + ", longest on one capability " +
                                                    pause_text(static_cast<double>(g.longest_cap_pause_ns))));
        if (m.gc_sync_count)
            p_.add_extra_entry(seed, "GC sync (request to start)",
                               ExtraValue::text(secs(static_cast<double>(m.gc_sync_total_ns)) + " over " +
                                                std::to_string(m.gc_sync_count) + " requests, longest " +
                                                pause_text(static_cast<double>(m.gc_sync_max_ns))));
        for (const gc::CapabilityGcFigures& c : m.capabilities)
            p_.add_extra_entry(seed, "Capability " + std::to_string(c.cap),
                               ExtraValue::text(std::to_string(c.collections) + " collections, " +
                                                secs(static_cast<double>(c.gc_ns)) + " in GC: work " +
                                                secs(static_cast<double>(c.work_ns)) + ", idle " +
                                                secs(static_cast<double>(c.idle_ns)) + ", done " +
                                                secs(static_cast<double>(c.done_ns))));
    }

    ProfileContext& ctx_;
    Profile& p_;
    std::uint64_t end_ = 0;
    std::uint16_t generations_ = 0;
    VariantSchema collections_, pauses_;
    Values values_;
    MarkerSchemaHandle merged_{0};
    SpanDetailFilter<CollectionPtr> collection_filter_, sync_filter_;
    std::map<gc::CapNo, SpanDetailFilter<Pause>> pause_filters_;
    std::optional<gc::HeapSample> pending_allocation_;
    // The one counter track (counters come before every thread in the timeline): its
    // selection totals are the bytes allocated. Levels are a chart below the threads.
    std::optional<CounterHandle> total_;
    HeapLevelSpans levels_;
    std::uint64_t previous_total_ = 0;
    MarkerSchemaHandle sync_schema_{0}, phase_schema_{0}, conc_schema_{0}, mark_schema_{0}, census_schema_{0},
        pruned_schema_{0}, flush_schema_{0}, returned_schema_{0};
    struct Names {
        StringHandle gc{0}, sync{0}, pause{0}, phases{0}, mark{0}, conc_sync{0}, sweep{0}, census{0}, pruned{0},
            flush{0}, returned{0};
    } n_;
    struct Strings {
        StringHandle major{0}, minor{0}, parallel{0}, sequential{0}, initiating{0}, taking_part{0}, work{0}, idle{0},
            done{0}, green{0}, grey{0}, blue{0}, complete{0}, incomplete{0};
    } s_;
};

GcHeapContributor::GcHeapContributor(const ConvertOptions& /*options*/, const Diagnostics& diagnostics)
    : diagnostics_(diagnostics), analysis_(true, this) {}

GcHeapContributor::~GcHeapContributor() = default;

void GcHeapContributor::begin(ProfileContext& context) {
    writer_ = std::make_unique<GcHeapWriter>(context);
    writer_->begin();
}

void GcHeapContributor::collection(gc::GcCollection&& collection) {
    if (writer_) writer_->on_collection(std::move(collection));
}

void GcHeapContributor::heap_sample(const gc::HeapSample& sample) {
    if (writer_) writer_->on_heap_sample(sample);
}

std::span<const std::uint16_t> GcHeapContributor::shown_tags() const { return kShown; }

void GcHeapContributor::contribute(ProfileContext& context, std::uint64_t end) {
    gc::SummaryEnd summary_end;
    summary_end.truncated = diagnostics_.count(Diagnostic::truncated_input) > 0;
    if (!writer_) begin(context);
    writer_->set_end(end);
    gc::GcAnalysisResult result = analysis_.finish(summary_end);  // hands over the unfinished collections
    writer_->finish(result);
}

}  // namespace el2fx::convert
