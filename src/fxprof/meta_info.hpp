// Profile-wide facts for `meta`: product, start time, interval, the Profile Info panel's
// fields and its extra sections.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

// A value in an extra section of the Profile Info panel, with the format that displays it.
// The profiler formats these without a string table, so there is no unique-string here.
class ExtraValue {
public:
    using Value = std::variant<std::string, std::int64_t, double, Duration>;

    static ExtraValue text(std::string s) { return {v70::FieldFormat::string, std::move(s)}; }
    static ExtraValue integer(std::int64_t i) { return {v70::FieldFormat::integer, i}; }
    static ExtraValue bytes(std::int64_t n) { return {v70::FieldFormat::bytes, n}; }
    static ExtraValue decimal(double d) { return {v70::FieldFormat::decimal, d}; }
    static ExtraValue percentage(double ratio) { return {v70::FieldFormat::percentage, ratio}; }
    static ExtraValue duration(Duration d) { return {v70::FieldFormat::duration, d}; }

    v70::FieldFormat format() const { return format_; }
    const Value& value() const { return value_; }

private:
    ExtraValue(v70::FieldFormat f, Value v) : format_(f), value_(std::move(v)) {}
    v70::FieldFormat format_;
    Value value_;
};

struct ExtraEntry {
    std::string label;
    ExtraValue value;
};

struct ExtraSection {
    std::string label;
    std::vector<ExtraEntry> entries;
};

struct MetaInfo {
    std::string product;
    WallClock start_time;  // the wall-clock time of Timestamp 0
    Duration interval = Duration::from_millis(1);
    std::optional<Timestamp> profiling_start, profiling_end;  // unset: derived from the content
    std::string arguments;                                    // written when non-empty
    std::string imported_from;                                // written when non-empty
    std::string update_channel;  // written when non-empty (format_v70.hpp, kUpdateChannelRelease)
    std::string platform, oscpu, cpu_name;
    std::optional<std::uint32_t> logical_cpus, physical_cpus;
    bool keep_profile_thread_order = false;
    std::vector<ThreadHandle> initial_visible_threads;   // written when non-empty
    std::vector<ThreadHandle> initial_selected_threads;  // written when non-empty
    std::vector<ExtraSection> extra;
};

}  // namespace el2fx::fxprof
