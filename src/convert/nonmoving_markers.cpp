#include "convert/nonmoving_markers.hpp"

#include <algorithm>
#include <span>

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

}  // namespace

void NonmovingMarkers::begin(const GcMarkerStrings& strings) {
    n_ = strings.n;
    s_ = strings.s;
    using DL = DisplayLocation;
    using F = FieldFormat;
    std::vector<DL> chart = {DL::marker_chart, DL::marker_table};
    std::vector<DL> timeline = {DL::marker_chart, DL::marker_table, DL::timeline_overview};
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
    for (const gc::NonmovingCensus& c : result.censuses)
        p_.add_marker(proc, MarkerTiming::instant(at(c.time)), n_.census, ctx_.categories.memory, census_schema_,
                      {FieldValue(c.block_size), FieldValue(c.active_segments), FieldValue(c.filled_segments),
                       FieldValue(c.live_blocks)});
    for (const gc::NonmovingPruned& c : result.pruned)
        p_.add_marker(proc, MarkerTiming::instant(at(c.time)), n_.pruned, ctx_.categories.memory, pruned_schema_,
                      {FieldValue(c.pruned_segments), FieldValue(c.free_segments)});
    for (const gc::RemSetFlush& f : result.flushes) {
        ThreadHandle track = ctx_.capability_track(f.cap).value_or(proc);
        p_.add_marker(track, MarkerTiming::instant(at(f.time)), n_.flush, gc, flush_schema_,
                      std::span<const FieldValue>{});
    }
}

}  // namespace el2fx::convert
