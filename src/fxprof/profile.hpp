// The profile builder: one façade over the tables of a Firefox Profiler processed profile.
// Callers hold small typed handles. handle_for_* interns (same input, same handle), add_*
// appends, set_* sets. Times are integer nanoseconds relative to a zero (Timestamp), which is
// the wall-clock time given to set_start_time. Misuse (a handle from elsewhere, a field value
// that does not match its schema, a non-finite number) throws el2fx::Error.
//
// Samples, markers and counter samples are kept as compact records in a SpillStore: in memory
// up to a budget (set_table_memory_budget), then in an unlinked temporary file in $TMPDIR (or
// /tmp). So adding rows may throw el2fx::Error when that file cannot be created or written.
//
// This library knows nothing about eventlogs.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fxprof/category_list.hpp"
#include "fxprof/counter.hpp"
#include "fxprof/frame_table.hpp"
#include "fxprof/func_table.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/marker_schema.hpp"
#include "fxprof/static_marker.hpp"
#include "fxprof/marker_table.hpp"
#include "fxprof/meta_info.hpp"
#include "fxprof/process_thread.hpp"
#include "fxprof/resource_table.hpp"
#include "fxprof/sample_table.hpp"
#include "fxprof/spill_store.hpp"
#include "fxprof/stack_table.hpp"
#include "fxprof/string_table.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

// Earliest and latest time seen in anything added, for the default profiling range.
struct TimeBounds {
    std::int64_t min = INT64_MAX;
    std::int64_t max = INT64_MIN;
    std::int64_t max_sample = INT64_MIN;  // a sample covers [t, t + interval)
    bool empty() const { return min > max; }
    void add(std::int64_t t) {
        if (t < min) min = t;
        if (t > max) max = t;
    }
};

class Profile {
public:
    explicit Profile(std::string_view product);
    Profile(Profile&&) = default;
    Profile& operator=(Profile&&) = default;

    // ---- resources ----------------------------------------------------------------------
    // Memory for the sample, marker and counter tables of all threads together, beyond which
    // their oldest chunks go to the temporary file (default SpillStore::kDefaultBudget).
    void set_table_memory_budget(std::size_t bytes) { store_->set_budget(bytes); }
    const SpillStats& table_stats() const { return store_->stats(); }

    // ---- meta ---------------------------------------------------------------------------
    void set_product(std::string_view product);
    void set_start_time(WallClock zero);   // meta.startTime: the wall clock at Timestamp 0
    void set_interval(Duration interval);  // the sampling interval (> 0)
    // The root range of the profile; default: the span of everything added (samples extended
    // by one interval). Markers outside the range are not shown by the profiler.
    void set_profiling_range(Timestamp start, Timestamp end);
    void set_arguments(std::string_view arguments);
    void set_imported_from(std::string_view what);
    // Decides the Share panel's wording and defaults (format_v70.hpp, kUpdateChannelRelease).
    void set_update_channel(std::string_view channel);
    void set_platform(std::string_view platform);
    void set_oscpu(std::string_view oscpu);
    void set_cpu_name(std::string_view name);
    void set_logical_cpus(std::uint32_t n);
    void set_physical_cpus(std::uint32_t n);
    void set_keep_profile_thread_order(bool keep);
    // Override the profiler's visibility heuristic (top threads by CPU). The threads shown
    // (these and their processes' main threads) are written first (thread_order.hpp).
    void add_initial_visible_thread(ThreadHandle thread);
    void add_initial_selected_thread(ThreadHandle thread);
    ExtraSectionHandle add_extra_section(std::string_view label);
    void add_extra_entry(ExtraSectionHandle section, std::string_view label, ExtraValue value);

    // ---- processes and threads ----------------------------------------------------------
    // pid must be unique among processes.
    ProcessHandle add_process(std::string_view name, std::string_view pid, Timestamp start);
    void set_process_end_time(ProcessHandle process, Timestamp end);
    // A main thread is the process's global track; at most one per process.
    ThreadHandle add_thread(ProcessHandle process, std::string_view name, std::int64_t tid, Timestamp start,
                            bool is_main_thread = false);
    void set_thread_name(ThreadHandle thread, std::string_view name);
    void set_thread_end_time(ThreadHandle thread, Timestamp end);
    void set_thread_show_markers_in_timeline(ThreadHandle thread, bool show);
    void set_thread_weight_type(ThreadHandle thread, WeightType type);
    // No-ops, kept for callers: the tables grow in chunks.
    void reserve_samples(ThreadHandle thread, std::size_t samples);
    void reserve_markers(ThreadHandle thread, std::size_t markers, std::size_t field_values);

    // ---- interned tables ----------------------------------------------------------------
    StringHandle handle_for_string(std::string_view s);
    static constexpr CategoryHandle default_category() { return CategoryList::default_category(); }
    CategoryHandle handle_for_category(std::string_view name, CategoryColor color);
    SubcategoryHandle handle_for_subcategory(CategoryHandle category, std::string_view name);
    ResourceHandle handle_for_resource(StringHandle name, ResourceType type);
    SourceHandle handle_for_source(StringHandle filename);
    // The text of a source file, for the profiler's source view (shared.sources.content).
    void set_source_content(SourceHandle source, std::string content);
    // A library (libs[]); the same one again gives the same handle.
    LibHandle handle_for_lib(const Lib& lib);
    FuncHandle handle_for_func(const FuncInfo& func);
    FrameHandle handle_for_frame(const FrameInfo& frame);
    // A stack is a frame called from its prefix (nullopt: a root).
    StackHandle handle_for_stack(std::optional<StackHandle> prefix, FrameHandle frame);
    // Rows the caller knows to be new and keeps the handles of (a Haskell thread's name and
    // its stacks): added without interning, which for 100,000s of threads saves most of the
    // tables' indexes and their lookups. Interning an equal row later adds a second one.
    StringHandle add_distinct_string(std::string_view s);
    // Renames a string from add_distinct_string (a thread labelled after it was named).
    void replace_distinct_string(StringHandle h, std::string_view s);
    FuncHandle add_distinct_func(const FuncInfo& func);
    FrameHandle add_distinct_frame(const FrameInfo& frame);
    StackHandle add_distinct_stack(std::optional<StackHandle> prefix, FrameHandle frame);
    // Frames from the root (outermost caller) to the leaf; nullopt for no frames.
    std::optional<StackHandle> handle_for_stack_frames(std::span<const FrameHandle> root_to_leaf);

    // ---- samples ------------------------------------------------------------------------
    // cpu_delta: CPU time used since the thread's previous sample (nullopt: unknown, drawn
    // as 100 %). weight: see Thread::weight_type (1 per sample for ordinary samples).
    void add_sample(ThreadHandle thread, Timestamp time, std::optional<StackHandle> stack,
                    std::optional<CpuDelta> cpu_delta, std::int64_t weight = 1);
    // The thread's samples of one time and stack summed into one, those of one time in stack
    // order (SampleTable::sum_same_instants): for a track whose samples come from many places.
    void sum_same_instants(ThreadHandle thread);

    // ---- markers ------------------------------------------------------------------------
    // Declared once per type: the same schema again gives the same handle; a different
    // schema with the same name is an error.
    MarkerSchemaHandle register_marker_schema(MarkerSchema schema);
    // values: one per schema field, in the schema's order, of the type its format accepts.
    MarkerHandle add_marker(ThreadHandle thread, MarkerTiming timing, StringHandle name, CategoryHandle category,
                            MarkerSchemaHandle schema, std::span<const FieldValue> values);
    MarkerHandle add_marker(ThreadHandle thread, MarkerTiming timing, StringHandle name, CategoryHandle category,
                            MarkerSchemaHandle schema, std::initializer_list<FieldValue> values) {
        return add_marker(thread, timing, name, category, schema,
                          std::span<const FieldValue>(values.begin(), values.size()));
    }
    // A marker of a static type (static_marker.hpp): its schema is registered with the first.
    template <StaticMarker M>
    MarkerHandle add_marker(ThreadHandle thread, MarkerTiming timing, StringHandle name, CategoryHandle category,
                            const M& marker) {
        const auto values = field_values_of(marker);
        return add_marker(thread, timing, name, category, schema_handle<M>(),
                          std::span<const FieldValue>(values.data(), values.size()));
    }
    template <StaticMarker M>
    MarkerSchemaHandle schema_handle() {
        const std::size_t id = static_marker_type_id<M>();
        if (id >= static_schemas_.size()) static_schemas_.resize(id + 1);
        if (!static_schemas_[id]) static_schemas_[id] = register_marker_schema(schema_of<M>());
        return *static_schemas_[id];
    }
    // A marker without payload (data: null).
    MarkerHandle add_marker(ThreadHandle thread, MarkerTiming timing, StringHandle name, CategoryHandle category);

    // ---- counters -----------------------------------------------------------------------
    // The counter becomes a local track of the process (which needs at least one thread by
    // the time the profile is written).
    CounterHandle add_counter(ProcessHandle process, std::string_view name, std::string_view category,
                              std::string_view description, CounterDisplay display);
    // count: the sample's value; an increment for line-accumulated counters.
    // number: an operation count since the previous sample (the column is written when any
    // sample has one; others are written as 0).
    void add_counter_sample(CounterHandle counter, Timestamp time, double count,
                            std::optional<std::uint32_t> number = std::nullopt);
    // For line-accumulated counters fed with absolute levels (e.g. heap size): records the
    // increment from the previous level (0 before the first). Call in time order.
    void add_counter_value(CounterHandle counter, Timestamp time, double level,
                           std::optional<std::uint32_t> number = std::nullopt);
    // Fewer counter samples: with r > 0, a sample less than r after the first sample merged
    // into a counter's pending sample (and not earlier than it) joins that sample: counts and
    // numbers are summed (numbers saturate), its time becomes the latest merged time. A sample
    // r or more after it (or earlier) starts a new pending sample. Totals are unchanged, so a
    // line-accumulated graph shows the exact level at every written sample. Default 0: every
    // sample is kept. Applies to samples added after the call; set it before adding any.
    void set_counter_resolution(Duration r);
    // One counter's own resolution (0: keep every sample), whatever the profile's is.
    void set_counter_resolution(CounterHandle counter, Duration r);
    Duration counter_resolution() const { return counter_resolution_; }

    // ---- read access (the writer, tests) ------------------------------------------------
    const MetaInfo& meta() const { return meta_; }
    const CategoryList& categories() const { return categories_; }
    const StringTable& strings() const { return strings_; }
    const ResourceTable& resources() const { return resources_; }
    const SourceTable& sources() const { return sources_; }
    const std::vector<Lib>& libs() const { return libs_; }
    const FuncTable& funcs() const { return funcs_; }
    const FrameTable& frames() const { return frames_; }
    const StackTable& stacks() const { return stacks_; }
    const std::vector<MarkerSchema>& marker_schemas() const { return schemas_; }
    const std::vector<Process>& processes() const { return processes_; }
    const std::vector<Thread>& threads() const { return threads_; }
    const std::vector<Counter>& counters() const { return counters_; }
    const TimeBounds& time_bounds() const { return bounds_; }
    // The profiling range as it will be written.
    std::pair<Timestamp, Timestamp> profiling_range() const;

private:
    Thread& thread(ThreadHandle h);
    Process& process(ProcessHandle h);
    Counter& counter(CounterHandle h);
    void check(StringHandle h) const;
    void check(CategoryHandle h) const;
    void check(const FuncInfo& func) const;  // its handles exist
    void check(const FrameInfo& frame) const;

    std::unique_ptr<SpillStore> store_;  // on the heap: tables keep its address across moves
    MetaInfo meta_;
    CategoryList categories_;
    StringTable strings_;
    ResourceTable resources_;
    SourceTable sources_;
    std::vector<Lib> libs_;
    FuncTable funcs_;
    FrameTable frames_;
    StackTable stacks_;
    std::vector<MarkerSchema> schemas_;
    std::vector<std::optional<MarkerSchemaHandle>> static_schemas_;  // by static_marker_type_id
    std::vector<Process> processes_;
    std::vector<Thread> threads_;
    std::vector<Counter> counters_;
    TimeBounds bounds_;
    Duration counter_resolution_{};
};

}  // namespace el2fx::fxprof
