#include "convert/nonmoving_markers.hpp"

#include <algorithm>
#include <span>

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

using F = FieldFormat;

// CONC_SYNC and CONC_SWEEP spans (mark has its own type, with its count).
struct NonmovingPhaseMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "NonmovingPhase",
        .display = kTimelineDisplay,
        .tooltip_label = "{marker.name}",
        .description = "A concurrent phase of the non-moving collector (CONC_*_BEGIN to CONC_*_END)."};
    static constexpr std::array kFields{StaticField{"begins", "Begin events", F::integer},
                                        StaticField{"complete", "Ended in the log", F::string}};
    std::uint64_t begins;
    StringHandle complete;
    auto field_values() const { return std::tuple{begins, complete}; }
};

struct NonmovingMarkMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "NonmovingMark",
        .display = kTimelineDisplay,
        .tooltip_label = "{marker.name}: {marker.data.marked} objects",
        .description = "The non-moving collector's concurrent mark (CONC_MARK_BEGIN to CONC_MARK_END)."};
    static constexpr std::array kFields{StaticField{"begins", "Begin events", F::integer},
                                        StaticField{"complete", "Ended in the log", F::string},
                                        StaticField{"marked", "Objects marked", F::integer}};
    std::uint64_t begins;
    StringHandle complete;
    std::optional<std::uint64_t> marked;  // nullopt: the mark did not end in the log
    auto field_values() const { return std::tuple{begins, complete, marked}; }
};

struct NonmovingCensusMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "NonmovingCensus",
        .display = kChartDisplay,
        .tooltip_label = "Census of {marker.data.blockSize} blocks",
        .table_label = "{marker.data.blockSize} blocks: {marker.data.live} live",
        .description = "The non-moving heap's census for one block size (NONMOVING_HEAP_CENSUS)."};
    static constexpr std::array kFields{
        StaticField{"blockSize", "Block size", F::bytes}, StaticField{"active", "Active segments", F::integer},
        StaticField{"filled", "Filled segments", F::integer}, StaticField{"live", "Live blocks", F::integer}};
    std::uint64_t block_size, active, filled, live;
    auto field_values() const { return std::tuple{block_size, active, filled, live}; }
};

struct NonmovingPrunedMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "NonmovingPruned",
        .display = kChartDisplay,
        .tooltip_label = "{marker.data.pruned} segments pruned",
        .description = "Free non-moving segments returned (NONMOVING_PRUNED_SEGMENTS)."};
    static constexpr std::array kFields{StaticField{"pruned", "Segments pruned", F::integer},
                                        StaticField{"free", "Free segments", F::integer}};
    std::uint64_t pruned, free;
    auto field_values() const { return std::tuple{pruned, free}; }
};

struct RemSetFlushMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "RemSetFlush",
        .display = kChartDisplay,
        .tooltip_label = "Remembered set flushed",
        .description = "The capability flushed its update remembered set for the non-moving collector."};
    static constexpr std::array<StaticField, 0> kFields{};
    auto field_values() const { return std::tuple<>{}; }
};

}  // namespace

void NonmovingMarkers::begin(const GcMarkerStrings& strings) {
    n_ = strings.n;
    s_ = strings.s;
}

void NonmovingMarkers::add(const gc::GcAnalysisResult& result, std::uint64_t end) {
    ThreadHandle proc = ctx_.process_track;
    CategoryHandle gc = ctx_.categories.gc;
    for (const gc::ConcurrentPhaseSpan& ph : result.concurrent_phases) {
        std::uint64_t stop = std::max(ph.end.value_or(end), ph.start);
        MarkerTiming timing = MarkerTiming::interval(at(ph.start), at(stop));
        StringHandle complete = ph.end ? s_.complete : s_.incomplete;
        switch (ph.phase) {
            case gc::ConcurrentPhase::mark:
                p_.add_marker(
                    proc, timing, n_.mark, gc,
                    NonmovingMarkMarker{.begins = ph.begins, .complete = complete, .marked = ph.marked_objects});
                break;
            case gc::ConcurrentPhase::sync:
                p_.add_marker(proc, timing, n_.conc_sync, gc,
                              NonmovingPhaseMarker{.begins = ph.begins, .complete = complete});
                break;
            case gc::ConcurrentPhase::sweep:
                p_.add_marker(proc, timing, n_.sweep, gc,
                              NonmovingPhaseMarker{.begins = ph.begins, .complete = complete});
                break;
        }
    }
    for (const gc::NonmovingCensus& c : result.censuses)
        p_.add_marker(proc, MarkerTiming::instant(at(c.time)), n_.census, ctx_.categories.memory,
                      NonmovingCensusMarker{.block_size = c.block_size,
                                            .active = c.active_segments,
                                            .filled = c.filled_segments,
                                            .live = c.live_blocks});
    for (const gc::NonmovingPruned& c : result.pruned)
        p_.add_marker(proc, MarkerTiming::instant(at(c.time)), n_.pruned, ctx_.categories.memory,
                      NonmovingPrunedMarker{.pruned = c.pruned_segments, .free = c.free_segments});
    for (const gc::RemSetFlush& f : result.flushes) {
        ThreadHandle track = ctx_.capability_track(f.cap).value_or(proc);
        p_.add_marker(track, MarkerTiming::instant(at(f.time)), n_.flush, gc, RemSetFlushMarker{});
    }
}

}  // namespace el2fx::convert
