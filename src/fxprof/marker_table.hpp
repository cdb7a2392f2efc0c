// A thread's markers (threads[].markers), as columns. Field values of all markers live in one
// flat column in marker order; a marker's values are as many as its schema has fields.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/marker_schema.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

using v70::MarkerPhase;

class MarkerTiming {
public:
    static MarkerTiming instant(Timestamp t) { return {MarkerPhase::instant, t, t}; }
    // Throws el2fx::Error when end < start (at add_marker).
    static MarkerTiming interval(Timestamp start, Timestamp end) {
        return {MarkerPhase::interval, start, end};
    }
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

class MarkerTable {
public:
    static constexpr std::uint32_t kNoSchema = UINT32_MAX;

    // Values must already be checked against the schema (Profile::add_marker does).
    MarkerHandle add(MarkerTiming timing, StringHandle name, CategoryHandle category,
                     std::uint32_t schema, const FieldValue* values, std::size_t value_count);
    void reserve(std::size_t markers, std::size_t values);

    std::size_t size() const { return names_.size(); }
    const std::vector<std::uint32_t>& names() const { return names_; }
    const std::vector<std::uint16_t>& categories() const { return categories_; }
    const std::vector<MarkerPhase>& phases() const { return phases_; }
    const std::vector<std::int64_t>& starts() const { return starts_; }
    const std::vector<std::int64_t>& ends() const { return ends_; }
    const std::vector<std::uint32_t>& schemas() const { return schemas_; }
    const std::vector<FieldValue>& values() const { return values_; }

private:
    std::vector<std::uint32_t> names_;
    std::vector<std::uint16_t> categories_;
    std::vector<MarkerPhase> phases_;
    std::vector<std::int64_t> starts_;  // ns; meaningful per phase
    std::vector<std::int64_t> ends_;
    std::vector<std::uint32_t> schemas_;  // kNoSchema: data is null
    std::vector<FieldValue> values_;
};

}  // namespace el2fx::fxprof
