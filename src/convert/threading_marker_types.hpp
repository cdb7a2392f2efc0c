// The marker types of capabilities and Haskell threads (static_marker.hpp: each struct is its
// schema and its values), and the names their markers carry, interned once in a fixed order.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>

#include "eventlog/event.hpp"
#include "fxprof/profile.hpp"

namespace el2fx::convert {

using fxprof::FieldFormat;
using fxprof::MarkerTypeInfo;
using fxprof::StaticField;

struct MutatorMarker {
    static constexpr MarkerTypeInfo kType{.name = "Mutator",
                                          .display = fxprof::kTimelineDisplay,
                                          .tooltip_label = "Mutator: {marker.data.thread}",
                                          .table_label = "{marker.data.thread}",
                                          .chart_label = "{marker.data.thread}",
                                          .description = "The capability runs Haskell code of a thread."};
    static constexpr std::array kFields{StaticField{"thread", "Haskell thread", FieldFormat::string},
                                        StaticField{"threadId", "Thread id", FieldFormat::integer}};
    fxprof::StringHandle thread;
    eventlog::ThreadId thread_id;
    auto field_values() const { return std::tuple{thread, thread_id}; }
};

struct IdleMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "Idle",
        .display = fxprof::kChartDisplay,
        .tooltip_label = "Idle",
        .description = "The capability neither runs Haskell code nor collects garbage."};
    static constexpr std::array<StaticField, 0> kFields{};
    auto field_values() const { return std::tuple<>{}; }
};

struct RunningMarker {
    static constexpr MarkerTypeInfo kType{.name = "Running",
                                          .display = fxprof::kTimelineDisplay,
                                          .tooltip_label = "Running on capability {marker.data.cap}",
                                          .table_label = "capability {marker.data.cap}",
                                          .chart_label = "cap {marker.data.cap}",
                                          .description = "The Haskell thread runs."};
    static constexpr std::array kFields{StaticField{"cap", "Capability", FieldFormat::integer}};
    eventlog::CapNo cap;
    auto field_values() const { return std::tuple{cap}; }
};

// Named by why the thread stopped ("Waiting for GC", "Blocked on an MVar").
struct ThreadStoppedMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "ThreadStopped",
        .display = fxprof::kTimelineDisplay,
        .tooltip_label = "{marker.name}: {marker.data.reason}",
        .table_label = "{marker.data.reason}",
        .chart_label = "{marker.data.reason}",
        .description =
            "The Haskell thread does not run: waiting for a GC (heap or stack overflow), runnable "
            "(preempted, waiting for its capability), in a foreign call, or blocked (MVar, black "
            "hole, STM, throwTo, delay, I/O). The status of its STOP_THREAD event."};
    static constexpr std::array kFields{StaticField{"reason", "Reason", FieldFormat::string},
                                        StaticField{"status", "Stop status", FieldFormat::integer},
                                        StaticField{"blocker", "Blocked by thread", FieldFormat::integer}};
    fxprof::StringHandle reason;
    std::uint16_t status;
    std::uint32_t blocker;
    auto field_values() const { return std::tuple{reason, status, blocker}; }
};

struct ThreadCreatedMarker {
    static constexpr MarkerTypeInfo kType{.name = "ThreadCreated",
                                          .display = fxprof::kChartDisplay,
                                          .tooltip_label = "Created on capability {marker.data.cap}",
                                          .table_label = "created on capability {marker.data.cap}"};
    static constexpr std::array kFields{StaticField{"cap", "Capability", FieldFormat::integer}};
    eventlog::CapNo cap;
    auto field_values() const { return std::tuple{cap}; }
};

struct ThreadMigratedMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "ThreadMigrated",
        .display = fxprof::kChartDisplay,
        .tooltip_label = "Migrated from capability {marker.data.from} to {marker.data.to}",
        .table_label = "capability {marker.data.from} → {marker.data.to}"};
    static constexpr std::array kFields{StaticField{"from", "From capability", FieldFormat::integer},
                                        StaticField{"to", "To capability", FieldFormat::integer}};
    eventlog::CapNo from;
    eventlog::CapNo to;
    auto field_values() const { return std::tuple{from, to}; }
};

struct ThreadWokenMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "ThreadWoken",
        .display = fxprof::kChartDisplay,
        .tooltip_label = "Woken from capability {marker.data.by}",
        .table_label = "woken from capability {marker.data.by} (runs on {marker.data.on})",
        .description = "Another capability tried to wake the thread (THREAD_WAKEUP)."};
    static constexpr std::array kFields{StaticField{"by", "Woken from capability", FieldFormat::integer},
                                        StaticField{"on", "Thread's capability", FieldFormat::integer}};
    eventlog::CapNo by;
    eventlog::CapNo on;
    auto field_values() const { return std::tuple{by, on}; }
};

struct ThreadLabelledMarker {
    static constexpr MarkerTypeInfo kType{.name = "ThreadLabelled",
                                          .display = fxprof::kChartDisplay,
                                          .tooltip_label = "Labelled \"{marker.data.label}\"",
                                          .table_label = "{marker.data.label}"};
    static constexpr std::array kFields{StaticField{"label", "Label", FieldFormat::string}};
    fxprof::StringHandle label;
    auto field_values() const { return std::tuple{label}; }
};

struct ThreadFinishedMarker {
    static constexpr MarkerTypeInfo kType{.name = "ThreadFinished",
                                          .display = fxprof::kChartDisplay,
                                          .tooltip_label = "Finished on capability {marker.data.cap}"};
    static constexpr std::array kFields{StaticField{"cap", "Capability", FieldFormat::integer}};
    eventlog::CapNo cap;
    auto field_values() const { return std::tuple{cap}; }
};

// Where the analyses found the eventlog odd (a counted diagnostic), or where its data stops.
struct EventlogWarningMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "EventlogWarning",
        .display = fxprof::kTimelineDisplay,
        .tooltip_label = "{marker.data.problem}",
        .table_label = "{marker.data.problem}",
        .description = "The eventlog did something the analyses did not expect here."};
    static constexpr std::array kFields{StaticField{"problem", "Problem", FieldFormat::string},
                                        StaticField{"diagnostic", "Diagnostic", FieldFormat::string},
                                        StaticField{"event", "Event type", FieldFormat::integer}};
    fxprof::StringHandle problem;
    fxprof::StringHandle diagnostic;
    std::uint16_t event;  // 0: not about one event
    auto field_values() const { return std::tuple{problem, diagnostic, event}; }
};

// The markers' names.
struct ThreadingMarkerNames {
    fxprof::StringHandle idle{0}, mutator{0}, running{0}, created{0}, migrated{0}, woken{0}, labelled{0}, finished{0},
        warning{0};
};

// Interns the names in a fixed order (string indexes stay the same whatever order a compiler
// evaluates arguments in).
ThreadingMarkerNames intern_threading_marker_names(fxprof::Profile& profile);

}  // namespace el2fx::convert
