// counters[]: a graph track under a process, with its display (required since v62) and its
// samples. For graphType line-accumulated the samples hold increments; the profiler plots their
// running sum (minus its minimum, which starts at 0). The profiler ignores the first sample's
// count, so the writer puts a zero sample one interval before the first one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/run_table.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

using v70::CounterGraphType;
using v70::CounterTooltipSource;
using v70::CounterTooltipUnit;
using v70::DisplayLocation;
using v70::GraphColor;

struct CounterTooltipRow {
    bool separator = false;  // a separator row has no other properties
    CounterTooltipSource source = CounterTooltipSource::count;
    CounterTooltipUnit unit = CounterTooltipUnit::number;
    std::string label{};
    bool requires_preview_selection = false;  // shown only while a range is selected

    static CounterTooltipRow value(CounterTooltipSource s, CounterTooltipUnit u, std::string label,
                                   bool requires_preview_selection = false) {
        return {false, s, u, std::move(label), requires_preview_selection};
    }
    static CounterTooltipRow make_separator() { return {true, {}, {}, {}, false}; }
};

struct CounterDisplay {
    CounterGraphType graph_type = CounterGraphType::line_accumulated;
    std::string unit = "bytes";
    GraphColor color = GraphColor::blue;
    // Markers of schemas displayed at this location are drawn above the graph.
    std::optional<DisplayLocation> marker_schema_location{};
    int sort_weight = 20;  // lower: nearer the top (Firefox's memory track uses 20)
    std::string label{};   // track name
    std::vector<CounterTooltipRow> tooltip_rows{};

    // Firefox's memory track: accumulated bytes, the range, and the operation count.
    static CounterDisplay memory(std::string label, GraphColor color = GraphColor::orange);
    // A rate graph of increments in bytes (count / elapsed time), e.g. allocation: the rate per
    // sample, the total in the selection and in the visible range.
    static CounterDisplay byte_rate(std::string label, GraphColor color = GraphColor::blue);
    // A count of things that only grows (e.g. ticky entries), in `unit` ("entries"): the count
    // so far, since the previous sample, and in the selection; `what` starts those tooltip
    // labels ("Entries" so far). Tracks of one kind share a colour; sort_weight orders them.
    static CounterDisplay event_count(std::string label, std::string unit, std::string_view what, GraphColor color,
                                      int sort_weight);
};

struct CounterSampleRow {
    std::int64_t time = 0;  // ns
    double count = 0;
    std::uint32_t number = 0;  // 0 where none was given
};

// time: zigzag delta from the run's previous row; count: 8 bytes; number: varint.
struct CounterSampleCodec {
    using Row = CounterSampleRow;
    struct State {
        std::int64_t time = 0;
    };
    static constexpr std::size_t kMaxRecord = 2 * spill::kMaxVarint + 8;
    static std::uint8_t* encode(std::uint8_t* p, const Row& r, State& s) {
        spill::put_svarint(
            p, static_cast<std::int64_t>(static_cast<std::uint64_t>(r.time) - static_cast<std::uint64_t>(s.time)));
        s.time = r.time;
        spill::put_double(p, r.count);
        spill::put_uvarint(p, r.number);
        return p;
    }
    static void decode(const std::uint8_t*& p, Row& r, State& s) {
        s.time = static_cast<std::int64_t>(static_cast<std::uint64_t>(s.time) +
                                           static_cast<std::uint64_t>(spill::get_svarint(p)));
        r.time = s.time;
        r.count = spill::get_double(p);
        r.number = static_cast<std::uint32_t>(spill::get_uvarint(p));
    }
    static std::int64_t time(const Row& r) { return r.time; }
};

// A counter's samples, kept in the profile's SpillStore; read in a stable sort by time.
class CounterSamples {
public:
    void attach(SpillStore* store) { rows_.attach(store); }

    // resolution > 0: a sample at most `resolution` - 1 ns after the first sample merged into
    // the pending one (and not before it) is merged too: counts and numbers summed, the time
    // the latest. The pending sample is written after all others added before it.
    void add(std::int64_t time, double count, std::optional<std::uint32_t> number, std::int64_t resolution);

    std::size_t size() const { return static_cast<std::size_t>(rows_.size()) + (pending_ ? 1 : 0); }
    bool has_number() const { return has_number_; }
    bool sorted() const { return rows_.run_count() <= 1; }

    // f(const CounterSampleRow&) for every sample in time order (stable).
    template <class F>
    void for_each(F&& f) const {
        rows_.for_each(f, pending_ ? &pending_row_ : nullptr);
    }
    // The first sample in time order; false if there is none.
    bool front(CounterSampleRow& out) const { return rows_.front(out, pending_ ? &pending_row_ : nullptr); }

private:
    RunTable<CounterSampleCodec> rows_;
    bool has_number_ = false;
    bool pending_ = false;  // only with a resolution
    CounterSampleRow pending_row_{};
    std::int64_t pending_first_ = 0;  // time of the first sample merged into pending_row_
};

struct Counter {
    ProcessHandle process;
    std::string name{};
    std::string category{};  // e.g. "Memory"
    std::string description{};
    CounterDisplay display{};
    CounterSamples samples{};
    double running_total = 0;              // sum of counts, for add_counter_value
    std::optional<Duration> resolution{};  // its own, instead of the profile's
};

}  // namespace el2fx::fxprof
