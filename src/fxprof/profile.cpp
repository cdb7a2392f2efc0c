#include "fxprof/profile.hpp"

#include <cmath>

#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {
Error misuse(const std::string& what) { return Error("profile builder: " + what); }

void check_finite(double v, const char* what) {
    if (!std::isfinite(v)) throw misuse(std::string(what) + " is not a finite number");
}
}  // namespace

Profile::Profile(std::string_view product) : store_(std::make_unique<SpillStore>()) { meta_.product = product; }

// ---- meta -----------------------------------------------------------------------------------

void Profile::set_product(std::string_view product) { meta_.product = product; }
void Profile::set_start_time(WallClock zero) { meta_.start_time = zero; }

void Profile::set_interval(Duration interval) {
    if (interval.nanos() <= 0) throw misuse("the sampling interval must be positive");
    meta_.interval = interval;
}

void Profile::set_profiling_range(Timestamp start, Timestamp end) {
    if (end <= start) throw misuse("the profiling range must not be empty");
    meta_.profiling_start = start;
    meta_.profiling_end = end;
}

void Profile::set_arguments(std::string_view arguments) { meta_.arguments = arguments; }
void Profile::set_imported_from(std::string_view what) { meta_.imported_from = what; }
void Profile::set_update_channel(std::string_view channel) { meta_.update_channel = channel; }
void Profile::set_platform(std::string_view platform) { meta_.platform = platform; }
void Profile::set_oscpu(std::string_view oscpu) { meta_.oscpu = oscpu; }
void Profile::set_cpu_name(std::string_view name) { meta_.cpu_name = name; }
void Profile::set_logical_cpus(std::uint32_t n) { meta_.logical_cpus = n; }
void Profile::set_physical_cpus(std::uint32_t n) { meta_.physical_cpus = n; }
void Profile::set_keep_profile_thread_order(bool keep) { meta_.keep_profile_thread_order = keep; }

void Profile::add_initial_visible_thread(ThreadHandle t) {
    thread(t);
    meta_.initial_visible_threads.push_back(t);
}

void Profile::add_initial_selected_thread(ThreadHandle t) {
    thread(t);
    meta_.initial_selected_threads.push_back(t);
}

ExtraSectionHandle Profile::add_extra_section(std::string_view label) {
    meta_.extra.push_back(ExtraSection{std::string(label), {}});
    return ExtraSectionHandle(static_cast<std::uint32_t>(meta_.extra.size() - 1));
}

void Profile::add_extra_entry(ExtraSectionHandle section, std::string_view label, ExtraValue value) {
    if (section.index() >= meta_.extra.size()) throw misuse("unknown extra section handle");
    if (const double* d = std::get_if<double>(&value.value())) check_finite(*d, "extra value");
    meta_.extra[section.index()].entries.push_back(ExtraEntry{std::string(label), std::move(value)});
}

// ---- processes and threads -------------------------------------------------------------------

ProcessHandle Profile::add_process(std::string_view name, std::string_view pid, Timestamp start) {
    for (const auto& p : processes_)
        if (p.pid == pid) throw misuse("two processes with pid " + std::string(pid));
    processes_.push_back(Process{std::string(name), std::string(pid), start, std::nullopt, {}, {}});
    bounds_.add(start.nanos());
    return ProcessHandle(static_cast<std::uint32_t>(processes_.size() - 1));
}

void Profile::set_process_end_time(ProcessHandle p, Timestamp end) {
    process(p).end = end;
    bounds_.add(end.nanos());
}

ThreadHandle Profile::add_thread(ProcessHandle p, std::string_view name, std::int64_t tid, Timestamp start,
                                 bool is_main_thread) {
    Process& proc = process(p);
    if (is_main_thread && proc.main_thread) throw misuse("process " + proc.pid + " already has a main thread");
    if (threads_.size() >= INT32_MAX) throw misuse("too many threads");
    Thread t{.process = p};
    t.name = name;
    t.tid = tid;
    t.is_main = is_main_thread;
    t.register_time = start;
    t.samples.attach(store_.get());
    t.markers.attach(store_.get());
    threads_.push_back(std::move(t));
    const ThreadHandle h(static_cast<std::uint32_t>(threads_.size() - 1));
    proc.threads.push_back(h);
    if (is_main_thread) proc.main_thread = h;
    bounds_.add(start.nanos());
    return h;
}

void Profile::set_thread_name(ThreadHandle t, std::string_view name) { thread(t).name = name; }

void Profile::set_thread_end_time(ThreadHandle t, Timestamp end) {
    thread(t).unregister_time = end;
    bounds_.add(end.nanos());
}

void Profile::set_thread_show_markers_in_timeline(ThreadHandle t, bool show) {
    thread(t).show_markers_in_timeline = show;
}

void Profile::set_thread_weight_type(ThreadHandle t, WeightType type) { thread(t).weight_type = type; }

void Profile::reserve_samples(ThreadHandle t, std::size_t) { thread(t); }

void Profile::reserve_markers(ThreadHandle t, std::size_t, std::size_t) { thread(t); }

// ---- interned tables -------------------------------------------------------------------------

StringHandle Profile::handle_for_string(std::string_view s) { return strings_.handle_for(s); }
StringHandle Profile::add_distinct_string(std::string_view s) { return strings_.add_distinct(s); }
void Profile::replace_distinct_string(StringHandle h, std::string_view s) { strings_.replace_distinct(h, s); }

CategoryHandle Profile::handle_for_category(std::string_view name, CategoryColor color) {
    return categories_.handle_for(name, color);
}

SubcategoryHandle Profile::handle_for_subcategory(CategoryHandle category, std::string_view name) {
    return categories_.handle_for_subcategory(category, name);
}

ResourceHandle Profile::handle_for_resource(StringHandle name, ResourceType type) {
    check(name);
    return resources_.handle_for(Resource{name, type});
}

SourceHandle Profile::handle_for_source(StringHandle filename) {
    check(filename);
    return sources_.handle_for(filename);
}

void Profile::set_source_content(SourceHandle source, std::string content) {
    sources_.set_content(source, std::move(content));
}

LibHandle Profile::handle_for_lib(const Lib& lib) {
    for (std::size_t i = 0; i < libs_.size(); ++i)
        if (libs_[i] == lib) return LibHandle(static_cast<std::uint32_t>(i));
    if (libs_.size() >= INT32_MAX) throw misuse("too many libraries");
    libs_.push_back(lib);
    return LibHandle(static_cast<std::uint32_t>(libs_.size() - 1));
}

void Profile::check(const FuncInfo& func) const {
    check(func.name);
    if (func.resource && func.resource->index() >= resources_.size()) throw misuse("unknown resource handle");
    if (func.source && func.source->index() >= sources_.size()) throw misuse("unknown source handle");
}

void Profile::check(const FrameInfo& frame) const {
    if (frame.func.index() >= funcs_.size()) throw misuse("unknown func handle");
    if (frame.category && !categories_.contains(*frame.category))
        throw misuse("unknown category or subcategory handle");
    if (frame.lib && frame.lib->index() >= libs_.size()) throw misuse("unknown lib handle");
    if (frame.lib.has_value() != frame.address.has_value()) throw misuse("a frame's lib and address go together");
}

FuncHandle Profile::handle_for_func(const FuncInfo& func) {
    check(func);
    return funcs_.handle_for(func);
}

FuncHandle Profile::add_distinct_func(const FuncInfo& func) {
    check(func);
    return funcs_.add_distinct(func);
}

FrameHandle Profile::handle_for_frame(const FrameInfo& frame) {
    check(frame);
    return frames_.handle_for(frame);
}

FrameHandle Profile::add_distinct_frame(const FrameInfo& frame) {
    check(frame);
    return frames_.add_distinct(frame);
}

StackHandle Profile::handle_for_stack(std::optional<StackHandle> prefix, FrameHandle frame) {
    if (frame.index() >= frames_.size()) throw misuse("unknown frame handle");
    return stacks_.handle_for(prefix, frame);
}

StackHandle Profile::add_distinct_stack(std::optional<StackHandle> prefix, FrameHandle frame) {
    if (frame.index() >= frames_.size()) throw misuse("unknown frame handle");
    return stacks_.add_distinct(prefix, frame);
}

std::optional<StackHandle> Profile::handle_for_stack_frames(std::span<const FrameHandle> root_to_leaf) {
    std::optional<StackHandle> stack;
    for (FrameHandle f : root_to_leaf) stack = handle_for_stack(stack, f);
    return stack;
}

// ---- samples ---------------------------------------------------------------------------------

void Profile::add_sample(ThreadHandle t, Timestamp time, std::optional<StackHandle> stack,
                         std::optional<CpuDelta> cpu_delta, std::int64_t weight) {
    Thread& th = thread(t);
    if (stack && stack->index() >= stacks_.size()) throw misuse("unknown stack handle");
    if (cpu_delta && cpu_delta->nanos() < 0) throw misuse("negative CPU delta");
    th.samples.add(time, stack, cpu_delta, weight);
    bounds_.add(time.nanos());
    if (time.nanos() > bounds_.max_sample) bounds_.max_sample = time.nanos();
}

void Profile::sum_same_instants(ThreadHandle t) { thread(t).samples.sum_same_instants(); }

// ---- markers ---------------------------------------------------------------------------------

MarkerSchemaHandle Profile::register_marker_schema(MarkerSchema schema) {
    check_marker_schema(schema);
    for (std::size_t i = 0; i < schemas_.size(); ++i) {
        if (schemas_[i].name != schema.name) continue;
        // The same schema again (a second run in the profile declares its types too).
        if (schemas_[i] == schema) return MarkerSchemaHandle(static_cast<std::uint32_t>(i));
        throw misuse("marker schema \"" + schema.name + "\" is declared twice");
    }
    schemas_.push_back(std::move(schema));
    return MarkerSchemaHandle(static_cast<std::uint32_t>(schemas_.size() - 1));
}

MarkerHandle Profile::add_marker(ThreadHandle t, MarkerTiming timing, StringHandle name, CategoryHandle category,
                                 MarkerSchemaHandle schema, std::span<const FieldValue> values) {
    Thread& th = thread(t);
    check(name);
    check(category);
    if (schema.index() >= schemas_.size()) throw misuse("unknown marker schema handle");
    const MarkerSchema& s = schemas_[schema.index()];
    if (values.size() != s.fields.size())
        throw misuse("marker of type \"" + s.name + "\" needs " + std::to_string(s.fields.size()) +
                     " field values, got " + std::to_string(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const MarkerField& f = s.fields[i];
        const FieldValue& v = values[i];
        if (!field_accepts(f.format, v.type()))
            throw misuse("marker field \"" + s.name + "." + f.key + "\" (format " +
                         std::string(v70::spelling(f.format)) + ") cannot take " + field_value_type_name(v.type()));
        if (v.type() == FieldValue::Type::string) check(v.string());
        if (v.type() == FieldValue::Type::real) check_finite(v.real(), "marker field value");
    }
    if (timing.phase() == MarkerPhase::interval && timing.end() < timing.start())
        throw misuse("interval marker ends before it starts");
    bounds_.add(timing.start().nanos());
    bounds_.add(timing.end().nanos());
    return th.markers.add(timing, name, category, schema.index(), values.data(), values.size());
}

MarkerHandle Profile::add_marker(ThreadHandle t, MarkerTiming timing, StringHandle name, CategoryHandle category) {
    Thread& th = thread(t);
    check(name);
    check(category);
    if (timing.phase() == MarkerPhase::interval && timing.end() < timing.start())
        throw misuse("interval marker ends before it starts");
    bounds_.add(timing.start().nanos());
    bounds_.add(timing.end().nanos());
    return th.markers.add(timing, name, category, MarkerTable::kNoSchema, nullptr, 0);
}

// ---- counters --------------------------------------------------------------------------------

CounterHandle Profile::add_counter(ProcessHandle p, std::string_view name, std::string_view category,
                                   std::string_view description, CounterDisplay display) {
    process(p);
    Counter c{.process = p};
    c.name = name;
    c.category = category;
    c.description = description;
    c.display = std::move(display);
    c.samples.attach(store_.get());
    counters_.push_back(std::move(c));
    return CounterHandle(static_cast<std::uint32_t>(counters_.size() - 1));
}

void Profile::add_counter_sample(CounterHandle h, Timestamp time, double count, std::optional<std::uint32_t> number) {
    Counter& c = counter(h);
    check_finite(count, "counter sample");
    c.samples.add(time.nanos(), count, number, c.resolution.value_or(counter_resolution_).nanos());
    c.running_total += count;
    bounds_.add(time.nanos());
}

void Profile::add_counter_value(CounterHandle h, Timestamp time, double level, std::optional<std::uint32_t> number) {
    check_finite(level, "counter value");
    add_counter_sample(h, time, level - counter(h).running_total, number);
}

void Profile::set_counter_resolution(Duration r) {
    if (r.nanos() < 0) throw misuse("the counter resolution must not be negative");
    counter_resolution_ = r;
}

void Profile::set_counter_resolution(CounterHandle h, Duration r) {
    if (r.nanos() < 0) throw misuse("the counter resolution must not be negative");
    counter(h).resolution = r;
}

// ---- helpers ---------------------------------------------------------------------------------

std::pair<Timestamp, Timestamp> Profile::profiling_range() const {
    if (meta_.profiling_start && meta_.profiling_end) return {*meta_.profiling_start, *meta_.profiling_end};
    if (bounds_.empty()) return {Timestamp{}, Timestamp{} + meta_.interval};
    std::int64_t end = bounds_.max;
    if (bounds_.max_sample != INT64_MIN) end = std::max(end, bounds_.max_sample + meta_.interval.nanos());
    if (end <= bounds_.min) end = bounds_.min + meta_.interval.nanos();
    return {Timestamp::from_nanos(bounds_.min), Timestamp::from_nanos(end)};
}

Thread& Profile::thread(ThreadHandle h) {
    if (h.index() >= threads_.size()) throw misuse("unknown thread handle");
    return threads_[h.index()];
}

Process& Profile::process(ProcessHandle h) {
    if (h.index() >= processes_.size()) throw misuse("unknown process handle");
    return processes_[h.index()];
}

Counter& Profile::counter(CounterHandle h) {
    if (h.index() >= counters_.size()) throw misuse("unknown counter handle");
    return counters_[h.index()];
}

void Profile::check(StringHandle h) const {
    if (!strings_.contains(h)) throw misuse("unknown string handle");
}

void Profile::check(CategoryHandle h) const {
    if (h.index() >= categories_.categories().size()) throw misuse("unknown category handle");
}

}  // namespace el2fx::fxprof
