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

// One collection on the process track: its statistics, those the eventlog gives.
struct GcCollectionMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "GCCollection",
        .display = kTimelineDisplay,
        .tooltip_label = "GC #{marker.data.number}: {marker.data.summary}",
        .table_label = "#{marker.data.number} {marker.data.summary}",
        .chart_label = "{marker.data.summary}",
        .description =
            "One garbage collection, from the first capability's GC_START to the last one's GC_END. "
            "The pause +RTS -s counts is the initiating capability's; the others may resume later."};
    using F = FieldFormat;
    static constexpr std::array kFields{
        StaticField{"number", "Collection", F::integer},
        StaticField{"summary", "Collection", F::string, true},
        StaticField{"gen", "Generation", F::integer},
        StaticField{"kind", "Major or minor", F::string},
        StaticField{"mode", "Parallel or sequential", F::string},
        StaticField{"initiator", "Initiating capability", F::integer},
        StaticField{"capabilities", "Capabilities taking part", F::integer},
        StaticField{"pause", "Pause (+RTS -s: initiating capability)", F::duration},
        StaticField{"avgCapPause", "Average capability pause", F::duration},
        StaticField{"longestCapPause", "Longest capability pause", F::duration},
        StaticField{"sync", "GC sync (request to start)", F::duration},
        StaticField{"allocated", "Allocated since the previous GC", F::bytes},
        StaticField{"copied", "Bytes copied", F::bytes},
        StaticField{"slop", "Slop", F::bytes},
        StaticField{"frag", "Fragmentation", F::bytes},
        StaticField{"threads", "GC threads", F::integer},
        StaticField{"maxCopied", "Most bytes copied by one GC thread", F::bytes},
        StaticField{"totCopied", "Bytes copied by all GC threads", F::bytes},
        StaticField{"balance", "Work balance (0 % serial, 100 % perfect)", F::percentage},
        StaticField{"balancedRatio", "Balanced copied / copied (the runtime's balance)", F::percentage},
        StaticField{"live", "Live bytes after (major GC)", F::bytes},
        StaticField{"heapSize", "Heap size after", F::bytes},
        StaticField{"blocksSize", "Blocks size after", F::bytes},
        StaticField{"memReturned", "Returned to the OS", F::bytes}};
    using Bytes = std::optional<std::uint64_t>;
    std::uint64_t number = 0;
    StringHandle summary{0};
    std::optional<std::uint64_t> gen{}, initiator{};
    std::optional<StringHandle> kind{}, mode{};
    std::uint64_t capabilities = 0;
    std::optional<Duration> pause{}, avg_cap_pause{}, longest_cap_pause{}, sync{};
    Bytes allocated{}, copied{}, slop{}, frag{};
    std::optional<std::uint64_t> threads{};
    Bytes max_copied{}, tot_copied{};
    std::optional<double> balance{}, balanced_ratio{};
    Bytes live{}, heap_size{}, blocks_size{}, mem_returned{};
    auto field_values() const {
        return std::tuple{
            number,        summary,           gen,     kind,           mode,   initiator, capabilities, pause,
            avg_cap_pause, longest_cap_pause, sync,    allocated,      copied, slop,      frag,         threads,
            max_copied,    tot_copied,        balance, balanced_ratio, live,   heap_size, blocks_size,  mem_returned};
    }
};

// A capability's part in a collection, on its track.
struct GcPauseMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "GCPause",
        .display = kChartDisplay,
        .tooltip_label = "GC #{marker.data.number} pause: {marker.data.summary}",
        .table_label = "#{marker.data.number} {marker.data.summary}",
        .chart_label = "#{marker.data.number}",
        .description = "This capability's part in a collection: from its GC_START to its GC_END."};
    using F = FieldFormat;
    static constexpr std::array kFields{StaticField{"number", "Collection", F::integer},
                                        StaticField{"summary", "Collection", F::string, true},
                                        StaticField{"role", "Role", F::string},
                                        StaticField{"gen", "Generation", F::integer},
                                        StaticField{"work", "Working (GC_WORK)", F::duration},
                                        StaticField{"idle", "Idle (GC_IDLE)", F::duration},
                                        StaticField{"done", "Done (GC_DONE)", F::duration}};
    std::uint64_t number;
    StringHandle summary;
    StringHandle role;
    std::optional<std::uint64_t> gen;
    Duration work, idle, done;
    auto field_values() const { return std::tuple{number, summary, role, gen, work, idle, done}; }
};

// From the GC request to the start of the collection.
struct GcSyncMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "GCSync",
        .display = kTimelineDisplay,
        .tooltip_label = "GC #{marker.data.number} sync: stopping every capability",
        .table_label = "#{marker.data.number} {marker.data.mode} GC requested by cap {marker.data.requester}",
        .chart_label = "#{marker.data.number}",
        .description =
            "From the GC request (REQUEST_SEQ_GC / REQUEST_PAR_GC) to the GC_START of the "
            "capability that runs the collection: the wait for every capability to stop."};
    static constexpr std::array kFields{StaticField{"number", "Collection", FieldFormat::integer},
                                        StaticField{"requester", "Requested by capability", FieldFormat::integer},
                                        StaticField{"mode", "Parallel or sequential", FieldFormat::string}};
    std::uint64_t number;
    gc::CapNo requester;
    StringHandle mode;
    auto field_values() const { return std::tuple{number, requester, mode}; }
};

// A GC thread's phase inside a collection, coloured by phase.
struct GcPhaseMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "GCPhase",
        .display = kChartDisplay,
        .tooltip_label = "GC #{marker.data.number}: {marker.data.phase}",
        .table_label = "#{marker.data.number} {marker.data.phase}",
        .chart_label = "{marker.data.phase}",
        .description =
            "A GC thread's phase inside the collection: work (GC_WORK), idle looking for work "
            "(GC_IDLE), done (GC_DONE), each until the next phase or GC_END.",
        .color_field = "color"};
    static constexpr std::array kFields{StaticField{"number", "Collection", FieldFormat::integer},
                                        StaticField{"phase", "Phase", FieldFormat::string},
                                        StaticField{"color", "Colour", FieldFormat::string, true}};
    std::uint64_t number;
    StringHandle phase;
    StringHandle color;
    auto field_values() const { return std::tuple{number, phase, color}; }
};

std::string collection_summary(const GcCollection& c, std::uint16_t generations) {
    if (!c.stats) return "generation unknown (no GC_STATS_GHC)";
    std::string s = "gen " + std::to_string(c.stats->gen);
    if (generations > 0) s += c.is_major(generations) ? ", major" : ", minor";
    s += c.stats->parallel() ? ", parallel (" + std::to_string(c.stats->par_n_threads) + " threads)" : ", sequential";
    return s;
}

}  // namespace

GcMarkers::GcMarkers(ProfileContext& ctx)
    : ctx_(ctx), p_(ctx.profile), collection_filter_(ctx.span_detail), sync_filter_(ctx.span_detail) {}

auto GcMarkers::collection_marker_sink() {
    return MarkerSink{p_, ctx_.process_track, n_.gc, ctx_.categories.gc,
                      [this](std::uint64_t, std::uint64_t, const CollectionPtr& c) { add_collection(*c); }};
}
auto GcMarkers::sync_marker_sink() {
    return MarkerSink{p_, ctx_.process_track, n_.sync, ctx_.categories.gc,
                      [this](std::uint64_t start, std::uint64_t stop, const CollectionPtr& c) {
                          p_.add_marker(ctx_.process_track, MarkerTiming::interval(at(start), at(stop)), n_.sync,
                                        ctx_.categories.gc,
                                        GcSyncMarker{.number = c->number,
                                                     .requester = c->request->cap,
                                                     .mode = c->request->parallel ? s_.parallel : s_.sequential});
                      }};
}
auto GcMarkers::pause_marker_sink(ThreadHandle track) {
    return MarkerSink{p_, track, n_.pause, ctx_.categories.gc,
                      [this, track](std::uint64_t, std::uint64_t, const Pause& p) {
                          add_participation(track, *p.collection, p.collection->caps[p.part]);
                      }};
}

void GcMarkers::begin(const GcMarkerStrings& strings) {
    generations_ = ctx_.run.generations.value_or(0);
    n_ = strings.n;
    s_ = strings.s;
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
void GcMarkers::add(const GcCollection& collection, const std::function<const CollectionPtr&()>& shared) {
    const GcCollection* c = &collection;  // the shared copy once there is one
    const auto keep = [&]() -> const CollectionPtr& {
        const CollectionPtr& s = shared();
        c = s.get();
        return s;
    };
    const CollectionPtr none;  // what a group a span joins is given (NoTally ignores it)
    const std::uint64_t start = c->first_start();
    const std::uint64_t stop = std::max(c->last_end().value_or(std::max(end_, start)), start);
    if (!collection_filter_.join_if_fits(start, stop, none)) {
        auto collection_sink = collection_marker_sink();
        collection_filter_.offer(start, stop, keep(), collection_sink);
    }
    const GcParticipation* initiator = c->initiator();
    if (c->request && initiator && initiator->start >= c->request->time) {
        const std::uint64_t requested = c->request->time, started = initiator->start;
        if (!sync_filter_.join_if_fits(requested, started, none)) {
            auto sync_sink = sync_marker_sink();
            sync_filter_.offer(requested, started, keep(), sync_sink);
        }
    }
    for (std::size_t i = 0; i < c->caps.size(); ++i) {
        const GcParticipation& part = c->caps[i];
        std::optional<ThreadHandle> track = ctx_.capability_track(part.cap);
        if (!track) continue;
        auto it = pause_filters_.try_emplace(part.cap, ctx_.span_detail).first;
        const std::uint64_t part_start = part.start, part_end = std::max(part.end.value_or(end_), part.start);
        if (it->second.join_if_fits(part_start, part_end, Pause{none, i})) continue;
        auto sink = pause_marker_sink(*track);
        it->second.offer(part_start, part_end, Pause{keep(), i}, sink);
    }
}

void GcMarkers::add_collection(const GcCollection& c) {
    std::uint64_t start = c.first_start();
    std::uint64_t stop = std::max(c.last_end().value_or(std::max(end_, start)), start);
    StringHandle summary = p_.handle_for_string(collection_summary(c, generations_));
    GcCollectionMarker m{.number = c.number, .summary = summary};
    if (c.stats) {
        m.gen = c.stats->gen;
        if (generations_ > 0) m.kind = c.is_major(generations_) ? s_.major : s_.minor;
        m.mode = c.stats->parallel() ? s_.parallel : s_.sequential;
    }
    if (c.initiating_cap) m.initiator = *c.initiating_cap;
    m.capabilities = c.caps.size();
    if (auto pause = c.runtime_pause()) m.pause = ns(*pause);
    if (auto avg = c.average_cap_pause()) m.avg_cap_pause = ns(*avg);
    if (auto longest = c.longest_cap_pause()) m.longest_cap_pause = ns(*longest);
    if (auto sync = c.sync_duration()) m.sync = ns(*sync);
    m.allocated = c.allocated_since_previous;
    if (c.stats) {
        const gc::GcStats& s = *c.stats;
        m.copied = s.copied;
        m.slop = s.slop;
        m.frag = s.frag;
        m.threads = s.par_n_threads;
        m.max_copied = s.par_max_copied;
        m.tot_copied = s.par_tot_copied;
        m.balance = s.seed_work_balance();
        m.balanced_ratio = s.balanced_ratio();
    }
    m.live = c.live_bytes;
    m.heap_size = c.heap_size;
    m.blocks_size = c.blocks_size;
    if (c.mem_return) m.mem_returned = c.mem_return->returned;
    p_.add_marker(ctx_.process_track, MarkerTiming::interval(at(start), at(stop)), n_.gc, ctx_.categories.gc, m);
}

void GcMarkers::add_participation(ThreadHandle track, const GcCollection& c, const GcParticipation& part) {
    CategoryHandle gc = ctx_.categories.gc;
    bool initiating = c.initiating_cap == part.cap;
    std::string text = "gen " + (c.stats ? std::to_string(c.stats->gen) : std::string("?")) +
                       (initiating ? ", initiating capability" : ", taking part");
    StringHandle summary = p_.handle_for_string(text);
    std::uint64_t stop = std::max(part.end.value_or(end_), part.start);
    GcPauseMarker m{.number = c.number,
                    .summary = summary,
                    .role = initiating ? s_.initiating : s_.taking_part,
                    .gen = std::nullopt,
                    .work = ns(part.phase_total(gc::GcPhase::work)),
                    .idle = ns(part.phase_total(gc::GcPhase::idle)),
                    .done = ns(part.phase_total(gc::GcPhase::done))};
    if (c.stats) m.gen = c.stats->gen;
    p_.add_marker(track, MarkerTiming::interval(at(part.start), at(stop)), n_.pause, gc, m);
    for (const gc::GcPhaseSpan& ph : part.phases) {
        // Shorter phases are in the pause's work/idle/done totals only.
        if (ph.end - ph.start < ctx_.span_detail.resolution) continue;
        StringHandle name = ph.phase == gc::GcPhase::work ? s_.work : ph.phase == gc::GcPhase::idle ? s_.idle : s_.done;
        StringHandle color = ph.phase == gc::GcPhase::work   ? s_.green
                             : ph.phase == gc::GcPhase::idle ? s_.grey
                                                             : s_.blue;
        p_.add_marker(track, MarkerTiming::interval(at(ph.start), at(ph.end)), n_.phases, gc,
                      GcPhaseMarker{.number = c.number, .phase = name, .color = color});
    }
}

}  // namespace el2fx::convert
