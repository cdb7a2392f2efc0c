// A thread's markers (threads[].markers), in table order, kept as compact records in the
// profile's SpillStore (bounded memory). A marker's field values (as many as its schema has
// fields) are stored with it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/marker_schema.hpp"
#include "fxprof/spill_store.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

using v70::MarkerPhase;

class MarkerTiming {
public:
    static MarkerTiming instant(Timestamp t) { return {MarkerPhase::instant, t, t}; }
    // Throws el2fx::Error when end < start (at add_marker).
    static MarkerTiming interval(Timestamp start, Timestamp end) { return {MarkerPhase::interval, start, end}; }
    // Start/end halves, paired by the profiler by marker name in table order.
    static MarkerTiming interval_start(Timestamp t) { return {MarkerPhase::interval_start, t, t}; }
    static MarkerTiming interval_end(Timestamp t) { return {MarkerPhase::interval_end, t, t}; }

    MarkerPhase phase() const { return phase_; }
    Timestamp start() const { return start_; }
    Timestamp end() const { return end_; }

private:
    MarkerTiming(MarkerPhase p, Timestamp s, Timestamp e) : phase_(p), start_(s), end_(e) {}
    MarkerPhase phase_;
    Timestamp start_, end_;
};

struct MarkerRow {
    std::uint32_t name = 0;
    std::uint16_t category = 0;
    MarkerPhase phase = MarkerPhase::instant;
    std::int64_t start = 0;  // ns; meaningful per phase
    std::int64_t end = 0;
    std::uint32_t schema = UINT32_MAX;   // MarkerTable::kNoSchema: data is null
    std::span<const FieldValue> values;  // valid during the callback only
};

class MarkerTable {
public:
    static constexpr std::uint32_t kNoSchema = UINT32_MAX;

    void attach(SpillStore* store) { store_ = store; }

    // Values must already be checked against the schema (Profile::add_marker does).
    MarkerHandle add(MarkerTiming timing, StringHandle name, CategoryHandle category, std::uint32_t schema,
                     const FieldValue* values, std::size_t value_count);

    std::size_t size() const { return size_; }

    // f(const MarkerRow&) for every marker, in table order. Without with_values, rows have
    // no values (faster: the writer reads the table once per column).
    template <class F>
    void for_each(F&& f, bool with_values = true) const {
        if (size_ == 0) return;
        SpillReader reader(*store_, stream_);
        std::span<const std::uint8_t> bytes;
        std::vector<FieldValue> values;
        std::int64_t previous_start = 0;
        MarkerRow row;
        while (reader.next(bytes)) {
            const std::uint8_t* p = bytes.data();
            const std::uint8_t* end = p + bytes.size();
            while (p < end) {
                decode(p, row, previous_start, with_values ? &values : nullptr);
                f(row);
            }
        }
    }

private:
    static void decode(const std::uint8_t*& p, MarkerRow& row, std::int64_t& previous_start,
                       std::vector<FieldValue>* values);

    SpillStore* store_ = nullptr;
    SpillStream stream_;
    std::size_t size_ = 0;
    std::int64_t previous_start_ = 0;  // the start delta's base
};

}  // namespace el2fx::fxprof
