#include "convert/threading_marker_schemas.hpp"

#include "convert/merged_markers.hpp"

namespace el2fx::convert {

using namespace el2fx::fxprof;

ThreadingMarkerTypes declare_threading_marker_types(Profile& p_) {
    ThreadingMarkerTypes types;
    ThreadingMarkerTypes::Names& names_ = types.names;
    auto schema = [&p_](MarkerSchema s) { return p_.register_marker_schema(std::move(s)); };

    names_.idle = p_.handle_for_string("Idle");
    names_.mutator = p_.handle_for_string("Mutator");
    names_.running = p_.handle_for_string("Running");
    names_.created = p_.handle_for_string("Thread created");
    names_.migrated = p_.handle_for_string("Thread migrated");
    names_.woken = p_.handle_for_string("Thread woken");
    names_.labelled = p_.handle_for_string("Thread labelled");
    names_.finished = p_.handle_for_string("Thread finished");
    names_.warning = p_.handle_for_string("Eventlog warning");

    using DL = DisplayLocation;
    std::vector<DL> timeline = {DL::marker_chart, DL::marker_table, DL::timeline_overview};
    std::vector<DL> chart = {DL::marker_chart, DL::marker_table};
    types.mutator_schema = schema({.name = "Mutator",
                                   .display = timeline,
                                   .fields = {{"thread", "Haskell thread", FieldFormat::string},
                                              {"threadId", "Thread id", FieldFormat::integer}},
                                   .tooltip_label = "Mutator: {marker.data.thread}",
                                   .table_label = "{marker.data.thread}",
                                   .chart_label = "{marker.data.thread}",
                                   .description = "The capability runs Haskell code of a thread."});
    types.idle_schema = schema({.name = "Idle",
                                .display = chart,
                                .fields = {},
                                .tooltip_label = "Idle",
                                .description = "The capability neither runs Haskell code nor collects garbage."});
    types.running_schema = schema({.name = "Running",
                                   .display = timeline,
                                   .fields = {{"cap", "Capability", FieldFormat::integer}},
                                   .tooltip_label = "Running on capability {marker.data.cap}",
                                   .table_label = "capability {marker.data.cap}",
                                   .chart_label = "cap {marker.data.cap}",
                                   .description = "The Haskell thread runs."});
    types.stopped_schema = schema({.name = "ThreadStopped",
                                   .display = timeline,
                                   .fields = {{"reason", "Reason", FieldFormat::string},
                                              {"status", "Stop status", FieldFormat::integer},
                                              {"blocker", "Blocked by thread", FieldFormat::integer}},
                                   .tooltip_label = "{marker.name}: {marker.data.reason}",
                                   .table_label = "{marker.data.reason}",
                                   .chart_label = "{marker.data.reason}",
                                   .description = "The Haskell thread does not run: waiting for a GC (heap or "
                                                  "stack overflow), runnable (preempted, waiting for its "
                                                  "capability), in a foreign call, or blocked (MVar, black hole, "
                                                  "STM, throwTo, delay, I/O). The status of its STOP_THREAD event."});
    types.created_schema = schema({.name = "ThreadCreated",
                                   .display = chart,
                                   .fields = {{"cap", "Capability", FieldFormat::integer}},
                                   .tooltip_label = "Created on capability {marker.data.cap}",
                                   .table_label = "created on capability {marker.data.cap}"});
    types.migrated_schema = schema({.name = "ThreadMigrated",
                                    .display = chart,
                                    .fields = {{"from", "From capability", FieldFormat::integer},
                                               {"to", "To capability", FieldFormat::integer}},
                                    .tooltip_label = "Migrated from capability {marker.data.from} to {marker.data.to}",
                                    .table_label = "capability {marker.data.from} → {marker.data.to}"});
    types.woken_schema = schema({.name = "ThreadWoken",
                                 .display = chart,
                                 .fields = {{"by", "Woken from capability", FieldFormat::integer},
                                            {"on", "Thread's capability", FieldFormat::integer}},
                                 .tooltip_label = "Woken from capability {marker.data.by}",
                                 .table_label = "woken from capability {marker.data.by} (runs on {marker.data.on})",
                                 .description = "Another capability tried to wake the thread (THREAD_WAKEUP)."});
    types.labelled_schema = schema({.name = "ThreadLabelled",
                                    .display = chart,
                                    .fields = {{"label", "Label", FieldFormat::string}},
                                    .tooltip_label = "Labelled \"{marker.data.label}\"",
                                    .table_label = "{marker.data.label}"});
    types.finished_schema = schema({.name = "ThreadFinished",
                                    .display = chart,
                                    .fields = {{"cap", "Capability", FieldFormat::integer}},
                                    .tooltip_label = "Finished on capability {marker.data.cap}"});
    types.merged_schema = merged_spans_schema(p_);
    types.warning_schema = schema({.name = "EventlogWarning",
                                   .display = timeline,
                                   .fields = {{"problem", "Problem", FieldFormat::string},
                                              {"diagnostic", "Diagnostic", FieldFormat::string},
                                              {"event", "Event type", FieldFormat::integer}},
                                   .tooltip_label = "{marker.data.problem}",
                                   .table_label = "{marker.data.problem}",
                                   .description = "The eventlog did something the analyses did not expect here."});
    return types;
}

}  // namespace el2fx::convert
