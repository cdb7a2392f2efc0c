#include "convert/heap_counters.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

// HEAP_ALLOCATED events of several capabilities this close together are one report.
constexpr std::uint64_t kAllocationBurstNs = 100'000;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

// The heap's size, live data and blocks as lines on one scale (heap_level_chart.hpp).
struct HeapLevelsMarker {
    // Drawn in this order; a line at zero last, so that the scale starts at zero (the
    // track scales its lines from their lowest value).
    static constexpr std::array kGraphs{StaticGraph{"size", MarkerGraphType::line, GraphColor::orange},
                                        StaticGraph{"live", MarkerGraphType::line, GraphColor::purple},
                                        StaticGraph{"blocks", MarkerGraphType::line, GraphColor::teal},
                                        StaticGraph{"zero", MarkerGraphType::line, GraphColor::grey}};
    static constexpr MarkerTypeInfo kType{
        .name = "HeapLevels",
        .display = kChartDisplay,
        .tooltip_label = "Heap size {marker.data.size}, live {marker.data.live}",
        .table_label = "heap size {marker.data.size}, live {marker.data.live}, blocks {marker.data.blocks}",
        .chart_label = "{marker.data.size}",
        .description =
            "The heap's levels on one scale: its size from the OS (HEAP_SIZE, posted after each "
            "collection), live data after each major collection (HEAP_LIVE) and memory in allocated "
            "blocks (BLOCKS_SIZE, GHC 9.2+); the largest of each within the span.",
        .graphs = kGraphs};
    static constexpr std::array kFields{
        StaticField{"size", "Heap size", FieldFormat::bytes}, StaticField{"live", "Live heap", FieldFormat::bytes},
        StaticField{"blocks", "Blocks size", FieldFormat::bytes}, StaticField{"zero", "", FieldFormat::integer, true}};
    HeapLevels levels;
    auto field_values() const { return std::tuple{levels.size, levels.live, levels.blocks, 0}; }
};

struct MemReturnMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "MemReturn",
        .display = kChartDisplay,
        .tooltip_label = "{marker.data.returned} returned to the OS",
        .description = "The runtime returned memory to the operating system (MEM_RETURN)."};
    static constexpr std::array kFields{StaticField{"current", "Heap (megablocks, in bytes)", FieldFormat::bytes},
                                        StaticField{"needed", "Needed", FieldFormat::bytes},
                                        StaticField{"returned", "Returned", FieldFormat::bytes}};
    std::uint64_t current, needed, returned;
    auto field_values() const { return std::tuple{current, needed, returned}; }
};

}  // namespace

HeapCounters::HeapCounters(ProfileContext& ctx) : ctx_(ctx), p_(ctx.profile), levels_(ctx.span_detail.resolution) {}

void HeapCounters::begin(const GcMarkerStrings& strings) { n_ = strings.n; }

void HeapCounters::finish(std::uint64_t end) {
    end_ = end;
    if (pending_allocation_) add_heap_sample(*pending_allocation_, false);
    pending_allocation_.reset();
    add_heap_levels();
}

// The counter, made on first use (its display only then: this runs for every heap sample).
template <class MakeDisplay>
CounterHandle HeapCounters::counter(std::optional<CounterHandle>& slot, std::string_view name,
                                    std::string_view description, MakeDisplay make_display) {
    if (!slot) slot = p_.add_counter(ctx_.process, name, "Memory", description, make_display());
    return *slot;
}

// Heap samples in time order. The runtime posts every capability's HEAP_ALLOCATED at
// once: the total gets one sample per burst, at its last event (a sample per capability
// would draw spikes of rate between them), so an allocation sample waits for the next.
void HeapCounters::on_heap_sample(const gc::HeapSample& s) {
    if (pending_allocation_) {
        bool burst_continues =
            s.quantity == gc::HeapQuantity::allocated && s.time - pending_allocation_->time <= kAllocationBurstNs;
        add_heap_sample(*pending_allocation_, burst_continues);
        pending_allocation_.reset();
    }
    if (s.quantity == gc::HeapQuantity::allocated)
        pending_allocation_ = s;
    else
        add_heap_sample(s, false);
}

// The heap levels' chart (heap_level_chart.hpp): one "Heap" marker per span on the process.
void HeapCounters::add_heap_levels() {
    levels_.finish(end_);
    if (!levels_.any()) return;
    const StringHandle name = p_.handle_for_string("Heap");
    for (const HeapLevelSpan& s : levels_.spans())
        p_.add_marker(ctx_.process_track, MarkerTiming::interval(at(s.start), at(s.end)), name, ctx_.categories.memory,
                      HeapLevelsMarker{s.levels});
}

void HeapCounters::add_heap_sample(const gc::HeapSample& s, bool burst_continues) {
    Timestamp t = at(s.time);
    switch (s.quantity) {
        case gc::HeapQuantity::heap_size:
        case gc::HeapQuantity::heap_live:
        case gc::HeapQuantity::blocks_size: levels_.set(s.quantity, s.time, s.value); break;
        case gc::HeapQuantity::mem_returned:
            p_.add_marker(
                ctx_.process_track, MarkerTiming::instant(t), n_.returned, ctx_.categories.memory,
                MemReturnMarker{.current = s.mem.current, .needed = s.mem.needed, .returned = s.mem.returned});
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

}  // namespace el2fx::convert
