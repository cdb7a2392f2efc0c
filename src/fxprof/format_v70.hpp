// The Firefox Profiler processed profile format, version 70: the version number, every JSON key
// this library writes or checks, and the spelling of every enumerated value. Nothing else in the
// library spells a key; moving to another format version starts here.
// Reference: /work/shared/processed-format.md (profiler src/types/profile.ts, markers.ts).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace el2fx::fxprof::v70 {

// The one place the version is written.
inline constexpr int kPreprocessedProfileVersion = 70;
// meta.version is the Gecko format version; unused for processed profiles but required (samply: 24).
inline constexpr int kGeckoMetaVersion = 24;
inline constexpr std::string_view kProcessType = "default";  // thread.processType
// meta.updateChannel "release" (or "beta", "esr") makes the Share and Download panels say "By
// default, your personal data is removed" and start with every "Include …" box unticked
// (sanitize.ts, getShouldSanitizeByDefault); without it they say "This profile is from Firefox
// Nightly, so by default most information is included".
inline constexpr std::string_view kUpdateChannelRelease = "release";

namespace key {
// top level
inline constexpr std::string_view meta = "meta", libs = "libs", shared = "shared", threads = "threads",
                                  counters = "counters";
// meta
inline constexpr std::string_view interval = "interval", startTime = "startTime", endTime = "endTime",
                                  profilingStartTime = "profilingStartTime", profilingEndTime = "profilingEndTime",
                                  processType = "processType", product = "product", stackwalk = "stackwalk",
                                  version = "version", preprocessedProfileVersion = "preprocessedProfileVersion",
                                  symbolicated = "symbolicated", usesOnlyOneStackType = "usesOnlyOneStackType",
                                  sourceCodeIsNotOnSearchfox = "sourceCodeIsNotOnSearchfox",
                                  importedFrom = "importedFrom", arguments = "arguments", platform = "platform",
                                  oscpu = "oscpu", CPUName = "CPUName", logicalCPUs = "logicalCPUs",
                                  physicalCPUs = "physicalCPUs", categories = "categories", color = "color",
                                  subcategories = "subcategories", sampleUnits = "sampleUnits", time = "time",
                                  eventDelay = "eventDelay", threadCPUDelta = "threadCPUDelta",
                                  markerSchema = "markerSchema", extra = "extra", label = "label", entries = "entries",
                                  format = "format", value = "value", initialVisibleThreads = "initialVisibleThreads",
                                  initialSelectedThreads = "initialSelectedThreads",
                                  keepProfileThreadOrder = "keepProfileThreadOrder", updateChannel = "updateChannel";
// marker schema
inline constexpr std::string_view name = "name", display = "display", fields = "fields", key = "key", hidden = "hidden",
                                  tooltipLabel = "tooltipLabel", tableLabel = "tableLabel", chartLabel = "chartLabel",
                                  description = "description", graphs = "graphs", type = "type",
                                  colorField = "colorField", isStackBased = "isStackBased";
// shared
inline constexpr std::string_view length = "length", stringArray = "stringArray", stackTable = "stackTable",
                                  frame = "frame", prefixOffset = "prefixOffset", prefix = "prefix",
                                  frameTable = "frameTable", address = "address", lib = "lib",
                                  inlineDepth = "inlineDepth", category = "category", subcategory = "subcategory",
                                  func = "func", nativeSymbol = "nativeSymbol", innerWindowID = "innerWindowID",
                                  line = "line", column = "column", originalLocation = "originalLocation",
                                  funcTable = "funcTable", isJS = "isJS", relevantForJS = "relevantForJS",
                                  resource = "resource", source = "source", lineNumber = "lineNumber",
                                  columnNumber = "columnNumber", resourceTable = "resourceTable", host = "host",
                                  nativeSymbols = "nativeSymbols", libIndex = "libIndex", functionSize = "functionSize",
                                  sources = "sources", id = "id", filename = "filename", startLine = "startLine",
                                  startColumn = "startColumn", sourceMapURL = "sourceMapURL", content = "content",
                                  sourceLocationTable = "sourceLocationTable";
// libs[]
inline constexpr std::string_view arch = "arch", path = "path", debugName = "debugName", debugPath = "debugPath",
                                  breakpadId = "breakpadId", codeId = "codeId";
// threads
inline constexpr std::string_view processName = "processName", processStartupTime = "processStartupTime",
                                  processShutdownTime = "processShutdownTime", registerTime = "registerTime",
                                  unregisterTime = "unregisterTime", pausedRanges = "pausedRanges",
                                  isMainThread = "isMainThread", showMarkersInTimeline = "showMarkersInTimeline",
                                  pid = "pid", tid = "tid", samples = "samples", markers = "markers", stack = "stack",
                                  timeDeltas = "timeDeltas", weight = "weight", weightType = "weightType",
                                  data = "data", phase = "phase";
// counters
inline constexpr std::string_view mainThreadIndex = "mainThreadIndex", count = "count", number = "number",
                                  graphType = "graphType", unit = "unit", markerSchemaLocation = "markerSchemaLocation",
                                  sortWeight = "sortWeight", tooltipRows = "tooltipRows",
                                  requiresPreviewSelection = "requiresPreviewSelection";
}  // namespace key

// Values of meta.sampleUnits.
inline constexpr std::string_view kSampleUnitTime = "ms";
inline constexpr std::string_view kSampleUnitEventDelay = "ms";
// Our CPU deltas are nanoseconds (see cpu_delta in units.hpp); the format also knows "\xC2\xB5s".
inline constexpr std::string_view kSampleUnitThreadCPUDeltaNs = "ns";
inline constexpr std::array<std::string_view, 3> kThreadCPUDeltaUnits = {"ns", "\xC2\xB5s", "variable CPU cycles"};

// Marker payload key that selects the schema ("type") is key::type.
// Keys a schema field may not use because the payload already uses them.
inline constexpr std::array<std::string_view, 2> kReservedMarkerDataKeys = {"type", "cause"};

// ---- enumerations and their spellings ------------------------------------------------------

template <class E, std::size_t N>
constexpr std::string_view spelling_of(const std::array<std::string_view, N>& table, E e) {
    return table[static_cast<std::size_t>(e)];
}

// meta.categories[].color
enum class CategoryColor : std::uint8_t {
    transparent,
    purple,
    green,
    orange,
    yellow,
    lightblue,
    blue,
    brown,
    magenta,
    red,
    lightred,
    darkgrey,
    grey
};
inline constexpr std::array<std::string_view, 13> kCategoryColors = {
    "transparent", "purple",  "green", "orange",   "yellow",   "lightblue", "blue",
    "brown",       "magenta", "red",   "lightred", "darkgrey", "grey"};
constexpr std::string_view spelling(CategoryColor c) { return spelling_of(kCategoryColors, c); }

// counters[].display.color and markerSchema[].graphs[].color
enum class GraphColor : std::uint8_t { blue, green, grey, ink, magenta, orange, purple, red, teal, yellow };
inline constexpr std::array<std::string_view, 10> kGraphColors = {"blue",   "green",  "grey", "ink",  "magenta",
                                                                  "orange", "purple", "red",  "teal", "yellow"};
constexpr std::string_view spelling(GraphColor c) { return spelling_of(kGraphColors, c); }

// markerSchema[].display[] and counters[].display.markerSchemaLocation
enum class DisplayLocation : std::uint8_t {
    marker_chart,
    marker_table,
    timeline_overview,
    timeline_memory,
    timeline_ipc,
    timeline_fileio,
    timeline_network,
    stack_chart
};
inline constexpr std::array<std::string_view, 8> kDisplayLocations = {
    "marker-chart", "marker-table",    "timeline-overview", "timeline-memory",
    "timeline-ipc", "timeline-fileio", "timeline-network",  "stack-chart"};
constexpr std::string_view spelling(DisplayLocation d) { return spelling_of(kDisplayLocations, d); }

// markerSchema[].fields[].format (the scalar ones; 'list' and 'table' are not supported here).
enum class FieldFormat : std::uint8_t {
    // strings written as JSON strings
    url,
    file_path,
    sanitized_string,
    string,
    // strings written as indexes into shared.stringArray
    unique_string,
    flow_id,
    terminating_flow_id,
    // numbers
    duration,
    time,
    seconds,
    milliseconds,
    microseconds,
    nanoseconds,
    bytes,
    percentage,
    integer,
    decimal,
    hexadecimal,
    pid,
    tid
};
inline constexpr std::array<std::string_view, 20> kFieldFormats = {"url",
                                                                   "file-path",
                                                                   "sanitized-string",
                                                                   "string",
                                                                   "unique-string",
                                                                   "flow-id",
                                                                   "terminating-flow-id",
                                                                   "duration",
                                                                   "time",
                                                                   "seconds",
                                                                   "milliseconds",
                                                                   "microseconds",
                                                                   "nanoseconds",
                                                                   "bytes",
                                                                   "percentage",
                                                                   "integer",
                                                                   "decimal",
                                                                   "hexadecimal",
                                                                   "pid",
                                                                   "tid"};
constexpr std::string_view spelling(FieldFormat f) { return spelling_of(kFieldFormats, f); }
// Formats the validator accepts besides the scalar ones (values are JSON arrays).
inline constexpr std::string_view kFieldFormatList = "list";
inline constexpr std::string_view kFieldFormatTable = "table";  // {type:'table', columns}

// How a field's value is written in a marker payload.
enum class FieldKind : std::uint8_t { json_string, string_index, number };
constexpr FieldKind kind_of(FieldFormat f) {
    if (f <= FieldFormat::string) return FieldKind::json_string;
    if (f <= FieldFormat::terminating_flow_id) return FieldKind::string_index;
    return FieldKind::number;
}

// markerSchema[].graphs[].type
enum class MarkerGraphType : std::uint8_t { bar, line, line_filled };
inline constexpr std::array<std::string_view, 3> kMarkerGraphTypes = {"bar", "line", "line-filled"};
constexpr std::string_view spelling(MarkerGraphType t) { return spelling_of(kMarkerGraphTypes, t); }

// threads[].samples.weightType
enum class WeightType : std::uint8_t { samples, tracing_ms, bytes };
inline constexpr std::array<std::string_view, 3> kWeightTypes = {"samples", "tracing-ms", "bytes"};
constexpr std::string_view spelling(WeightType w) { return spelling_of(kWeightTypes, w); }

// threads[].markers.phase
enum class MarkerPhase : std::uint8_t { instant = 0, interval = 1, interval_start = 2, interval_end = 3 };

// shared.resourceTable.type
enum class ResourceType : std::uint8_t { unknown = 0, library = 1, addon = 2, webhost = 3, other_host = 4, url = 5 };

// counters[].display.graphType
enum class CounterGraphType : std::uint8_t { line_accumulated, line_rate };
inline constexpr std::array<std::string_view, 2> kCounterGraphTypes = {"line-accumulated", "line-rate"};
constexpr std::string_view spelling(CounterGraphType t) { return spelling_of(kCounterGraphTypes, t); }

// counters[].display.tooltipRows[].type / .source / .format.unit
inline constexpr std::string_view kTooltipRowValue = "value";
inline constexpr std::string_view kTooltipRowSeparator = "separator";
enum class CounterTooltipSource : std::uint8_t {
    count,
    rate,
    cpu_ratio,
    accumulated,
    count_range,
    selection_total,
    selection_rate,
    committed_range_total,
    sample_number
};
inline constexpr std::array<std::string_view, 9> kCounterTooltipSources = {"count",          "rate",
                                                                           "cpu-ratio",      "accumulated",
                                                                           "count-range",    "selection-total",
                                                                           "selection-rate", "committed-range-total",
                                                                           "sample-number"};
constexpr std::string_view spelling(CounterTooltipSource s) { return spelling_of(kCounterTooltipSources, s); }
enum class CounterTooltipUnit : std::uint8_t { bytes, bytes_per_second, percent, number };
inline constexpr std::array<std::string_view, 4> kCounterTooltipUnits = {"bytes", "bytes-per-second", "percent",
                                                                         "number"};
constexpr std::string_view spelling(CounterTooltipUnit u) { return spelling_of(kCounterTooltipUnits, u); }

template <std::size_t N>
constexpr bool is_one_of(const std::array<std::string_view, N>& table, std::string_view s) {
    for (auto t : table)
        if (t == s) return true;
    return false;
}

}  // namespace el2fx::fxprof::v70
