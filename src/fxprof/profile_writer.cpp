#include "fxprof/profile_writer.hpp"

#include <algorithm>
#include <variant>

#include "fxprof/format_v70.hpp"
#include "fxprof/json_emitter.hpp"
#include "fxprof/json_stream.hpp"
#include "fxprof/thread_order.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

namespace key = v70::key;

namespace {

class ProfileWriter {
public:
    ProfileWriter(const Profile& p, JsonEmitter& j)
        : p_(p), j_(j), order_(thread_write_order(p)), position_(order_.size()) {
        for (std::size_t pos = 0; pos < order_.size(); ++pos)
            position_[order_[pos]] = static_cast<std::uint32_t>(pos);
    }

    void write() {
        j_.begin_object();
        write_meta();
        j_.key(key::libs);
        j_.begin_array();
        for (const Lib& lib : p_.libs()) {
            j_.begin_object();
            string_field(key::arch, lib.arch);
            string_field(key::name, lib.name);
            string_field(key::path, lib.path);
            string_field(key::debugName, lib.debug_name);
            string_field(key::debugPath, lib.debug_path);
            string_field(key::breakpadId, lib.breakpad_id);
            string_field(key::codeId, lib.code_id);
            j_.end_object();
        }
        j_.end_array();
        write_shared();
        j_.key(key::threads);
        j_.begin_array();
        // Shown threads first (thread_order.hpp): every thread index written is a position.
        for (std::uint32_t h : order_) write_thread(p_.threads()[h]);
        j_.end_array();
        j_.key(key::counters);
        j_.begin_array();
        for (const Counter& c : p_.counters()) write_counter(c);
        j_.end_array();
        j_.end_object();
        if (!j_.complete()) throw Error("JSON writer: the profile object is incomplete");
    }

private:
    // `key: [f(0), ..., f(n-1)]`
    template <class F>
    void column(std::string_view k, std::size_t n, F&& f) {
        j_.key(k);
        j_.begin_array();
        for (std::size_t i = 0; i < n; ++i) f(i);
        j_.end_array();
    }
    // `key: [v, v, ...]` (n times)
    void constant_column(std::string_view k, std::size_t n, std::int64_t v) {
        column(k, n, [&](std::size_t) { j_.int64(v); });
    }
    void null_column(std::string_view k, std::size_t n) {
        column(k, n, [&](std::size_t) { j_.null(); });
    }
    void length(std::size_t n) {
        j_.key(key::length);
        j_.uint64(n);
    }
    void string_field(std::string_view k, std::string_view v) {
        j_.key(k);
        j_.string(v);
    }
    template <class T>
    void optional_index(const std::optional<T>& v) {
        if (v)
            j_.uint64(v->index());
        else
            j_.null();
    }
    void optional_uint(const std::optional<std::uint32_t>& v) {
        if (v)
            j_.uint64(*v);
        else
            j_.null();
    }

    // ---- meta -------------------------------------------------------------------------------
    void write_meta() {
        const MetaInfo& m = p_.meta();
        const auto [start, end] = p_.profiling_range();
        j_.key(key::meta);
        j_.begin_object();
        j_.key(key::interval);
        j_.ms_from_ns(m.interval.nanos());
        j_.key(key::startTime);
        j_.ms_from_ns(m.start_time.unix_nanos());
        j_.key(key::endTime);
        j_.ms_from_ns(m.start_time.unix_nanos() + end.nanos());
        j_.key(key::profilingStartTime);
        j_.ms_from_ns(start.nanos());
        j_.key(key::profilingEndTime);
        j_.ms_from_ns(end.nanos());
        j_.key(key::processType);
        j_.int64(0);
        string_field(key::product, m.product);
        j_.key(key::stackwalk);
        j_.int64(0);
        j_.key(key::version);
        j_.int64(v70::kGeckoMetaVersion);
        j_.key(key::preprocessedProfileVersion);
        j_.int64(v70::kPreprocessedProfileVersion);
        j_.key(key::symbolicated);
        j_.boolean(true);
        j_.key(key::usesOnlyOneStackType);
        j_.boolean(true);
        j_.key(key::sourceCodeIsNotOnSearchfox);
        j_.boolean(true);
        j_.key(key::keepProfileThreadOrder);
        j_.boolean(m.keep_profile_thread_order);
        if (!m.imported_from.empty()) string_field(key::importedFrom, m.imported_from);
        if (!m.update_channel.empty()) string_field(key::updateChannel, m.update_channel);
        if (!m.arguments.empty()) string_field(key::arguments, m.arguments);
        if (!m.platform.empty()) string_field(key::platform, m.platform);
        if (!m.oscpu.empty()) string_field(key::oscpu, m.oscpu);
        if (!m.cpu_name.empty()) string_field(key::CPUName, m.cpu_name);
        if (m.logical_cpus) {
            j_.key(key::logicalCPUs);
            j_.uint64(*m.logical_cpus);
        }
        if (m.physical_cpus) {
            j_.key(key::physicalCPUs);
            j_.uint64(*m.physical_cpus);
        }
        if (!m.initial_visible_threads.empty())
            column(key::initialVisibleThreads, m.initial_visible_threads.size(),
                   [&](std::size_t i) { j_.uint64(position(m.initial_visible_threads[i])); });
        if (!m.initial_selected_threads.empty())
            column(key::initialSelectedThreads, m.initial_selected_threads.size(),
                   [&](std::size_t i) { j_.uint64(position(m.initial_selected_threads[i])); });

        j_.key(key::categories);
        j_.begin_array();
        for (const Category& c : p_.categories().categories()) {
            j_.begin_object();
            string_field(key::name, c.name);
            string_field(key::color, v70::spelling(c.color));
            column(key::subcategories, c.subcategories.size(),
                   [&](std::size_t i) { j_.string(c.subcategories[i]); });
            j_.end_object();
        }
        j_.end_array();

        j_.key(key::sampleUnits);
        j_.begin_object();
        string_field(key::time, v70::kSampleUnitTime);
        string_field(key::eventDelay, v70::kSampleUnitEventDelay);
        string_field(key::threadCPUDelta, v70::kSampleUnitThreadCPUDeltaNs);
        j_.end_object();

        j_.key(key::markerSchema);
        j_.begin_array();
        for (const MarkerSchema& s : p_.marker_schemas()) write_schema(s);
        j_.end_array();

        if (!m.extra.empty()) {
            j_.key(key::extra);
            j_.begin_array();
            for (const ExtraSection& s : m.extra) write_extra(s);
            j_.end_array();
        }
        j_.end_object();
    }

    void write_schema(const MarkerSchema& s) {
        j_.begin_object();
        string_field(key::name, s.name);
        column(key::display, s.display.size(),
               [&](std::size_t i) { j_.string(v70::spelling(s.display[i])); });
        j_.key(key::fields);
        j_.begin_array();
        for (const MarkerField& f : s.fields) {
            j_.begin_object();
            string_field(key::key, f.key);
            if (!f.label.empty()) string_field(key::label, f.label);
            string_field(key::format, v70::spelling(f.format));
            if (f.hidden) {
                j_.key(key::hidden);
                j_.boolean(true);
            }
            j_.end_object();
        }
        j_.end_array();
        if (!s.tooltip_label.empty()) string_field(key::tooltipLabel, s.tooltip_label);
        if (!s.table_label.empty()) string_field(key::tableLabel, s.table_label);
        if (!s.chart_label.empty()) string_field(key::chartLabel, s.chart_label);
        if (!s.description.empty()) string_field(key::description, s.description);
        if (!s.graphs.empty()) {
            j_.key(key::graphs);
            j_.begin_array();
            for (const MarkerGraph& g : s.graphs) {
                j_.begin_object();
                string_field(key::key, g.key);
                string_field(key::type, v70::spelling(g.type));
                if (g.color) string_field(key::color, v70::spelling(*g.color));
                j_.end_object();
            }
            j_.end_array();
        }
        if (!s.color_field.empty()) string_field(key::colorField, s.color_field);
        if (s.is_stack_based) {
            j_.key(key::isStackBased);
            j_.boolean(true);
        }
        j_.end_object();
    }

    void write_extra(const ExtraSection& s) {
        j_.begin_object();
        string_field(key::label, s.label);
        j_.key(key::entries);
        j_.begin_array();
        for (const ExtraEntry& e : s.entries) {
            j_.begin_object();
            string_field(key::label, e.label);
            string_field(key::format, v70::spelling(e.value.format()));
            j_.key(key::value);
            std::visit(
                [&](const auto& v) {
                    using V = std::decay_t<decltype(v)>;
                    if constexpr (std::is_same_v<V, std::string>)
                        j_.string(v);
                    else if constexpr (std::is_same_v<V, std::int64_t>)
                        j_.int64(v);
                    else if constexpr (std::is_same_v<V, double>)
                        j_.number(v);
                    else
                        j_.ms_from_ns(v.nanos());
                },
                e.value.value());
            j_.end_object();
        }
        j_.end_array();
        j_.end_object();
    }

    // ---- shared -----------------------------------------------------------------------------
    void write_shared() {
        j_.key(key::shared);
        j_.begin_object();

        const StringTable& strings = p_.strings();
        column(key::stringArray, strings.size(),
               [&](std::size_t i) { j_.string(strings.get(StringHandle(std::uint32_t(i)))); });

        const StackTable& stacks = p_.stacks();
        const std::size_t ns = stacks.size();
        j_.key(key::stackTable);
        j_.begin_object();
        column(key::frame, ns, [&](std::size_t i) { j_.uint64(stacks.frame_index(std::uint32_t(i))); });
        column(key::prefixOffset, ns,
               [&](std::size_t i) { j_.uint64(stacks.prefix_offset(std::uint32_t(i))); });
        length(ns);
        j_.end_object();

        const auto frames = p_.frames().rows();
        const std::size_t nf = frames.size();
        j_.key(key::frameTable);
        j_.begin_object();
        column(key::address, nf, [&](std::size_t i) {
            const auto a = frames[i].address;
            j_.int64(a ? std::int64_t(*a) : -1);
        });
        column(key::lib, nf, [&](std::size_t i) {
            const auto l = frames[i].lib;
            j_.int64(l ? std::int64_t(l->index()) : -1);
        });
        constant_column(key::inlineDepth, nf, 0);
        column(key::category, nf, [&](std::size_t i) {
            if (frames[i].category)
                j_.uint64(frames[i].category->category().index());
            else
                j_.null();
        });
        column(key::subcategory, nf, [&](std::size_t i) {
            if (frames[i].category)
                j_.uint64(frames[i].category->index());
            else
                j_.null();
        });
        column(key::func, nf, [&](std::size_t i) { j_.uint64(frames[i].func.index()); });
        null_column(key::nativeSymbol, nf);
        constant_column(key::innerWindowID, nf, 0);
        column(key::line, nf, [&](std::size_t i) { optional_uint(frames[i].line); });
        column(key::column, nf, [&](std::size_t i) { optional_uint(frames[i].column); });
        null_column(key::originalLocation, nf);
        length(nf);
        j_.end_object();

        const auto funcs = p_.funcs().rows();
        const std::size_t nfn = funcs.size();
        j_.key(key::funcTable);
        j_.begin_object();
        column(key::name, nfn, [&](std::size_t i) { j_.uint64(funcs[i].name.index()); });
        column(key::isJS, nfn, [&](std::size_t i) { j_.boolean(funcs[i].is_js); });
        column(key::relevantForJS, nfn,
               [&](std::size_t i) { j_.boolean(funcs[i].relevant_for_js); });
        column(key::resource, nfn, [&](std::size_t i) {
            if (funcs[i].resource)
                j_.uint64(funcs[i].resource->index());
            else
                j_.int64(-1);
        });
        column(key::source, nfn, [&](std::size_t i) { optional_index(funcs[i].source); });
        column(key::lineNumber, nfn, [&](std::size_t i) { optional_uint(funcs[i].line); });
        column(key::columnNumber, nfn, [&](std::size_t i) { optional_uint(funcs[i].column); });
        null_column(key::originalLocation, nfn);
        length(nfn);
        j_.end_object();

        const auto& resources = p_.resources().rows();
        const std::size_t nr = resources.size();
        j_.key(key::resourceTable);
        j_.begin_object();
        column(key::name, nr, [&](std::size_t i) { j_.uint64(resources[i].name.index()); });
        null_column(key::host, nr);
        column(key::type, nr,
               [&](std::size_t i) { j_.uint64(static_cast<unsigned>(resources[i].type)); });
        length(nr);
        j_.end_object();

        j_.key(key::nativeSymbols);
        j_.begin_object();
        null_column(key::libIndex, 0);
        null_column(key::address, 0);
        null_column(key::name, 0);
        null_column(key::functionSize, 0);
        length(0);
        j_.end_object();

        const auto& files = p_.sources().filenames();
        const std::size_t nsrc = files.size();
        j_.key(key::sources);
        j_.begin_object();
        null_column(key::id, nsrc);
        column(key::filename, nsrc, [&](std::size_t i) { j_.uint64(files[i].index()); });
        constant_column(key::startLine, nsrc, 1);
        constant_column(key::startColumn, nsrc, 1);
        null_column(key::sourceMapURL, nsrc);
        column(key::content, nsrc, [&](std::size_t i) {
            if (const std::string* text = p_.sources().content(i))
                j_.string(*text);
            else
                j_.null();
        });
        length(nsrc);
        j_.end_object();

        j_.key(key::sourceLocationTable);
        j_.begin_object();
        null_column(key::source, 0);
        null_column(key::line, 0);
        null_column(key::column, 0);
        length(0);
        j_.end_object();

        j_.end_object();
    }

    // ---- threads ----------------------------------------------------------------------------
    void write_thread(const Thread& t) {
        const Process& proc = p_.processes()[t.process.index()];
        j_.begin_object();
        string_field(key::name, t.name);
        string_field(key::processName, proc.name);
        string_field(key::processType, v70::kProcessType);
        j_.key(key::processStartupTime);
        j_.ms_from_ns(proc.start.nanos());
        j_.key(key::processShutdownTime);
        if (proc.end)
            j_.ms_from_ns(proc.end->nanos());
        else
            j_.null();
        j_.key(key::registerTime);
        j_.ms_from_ns(t.register_time.nanos());
        j_.key(key::unregisterTime);
        if (t.unregister_time)
            j_.ms_from_ns(t.unregister_time->nanos());
        else
            j_.null();
        j_.key(key::pausedRanges);
        j_.begin_array();
        j_.end_array();
        j_.key(key::isMainThread);
        j_.boolean(t.is_main);
        j_.key(key::showMarkersInTimeline);
        j_.boolean(t.show_markers_in_timeline);
        string_field(key::pid, proc.pid);
        j_.key(key::tid);
        j_.int64(t.tid);
        write_samples(t);
        write_markers(t);
        j_.end_object();
    }

    // `key: [f(row), ...]` over a table's rows (in time order for samples).
    template <class Table, class F>
    void rows_column(std::string_view k, const Table& table, F&& f) {
        j_.key(k);
        j_.begin_array();
        table.for_each(f);
        j_.end_array();
    }
    // The same for marker columns other than data.
    template <class F>
    void marker_column(std::string_view k, const MarkerTable& table, F&& f) {
        j_.key(k);
        j_.begin_array();
        table.for_each(f, false);
        j_.end_array();
    }

    void write_samples(const Thread& t) {
        const SampleTable& s = t.samples;
        const std::size_t n = s.size();

        j_.key(key::samples);
        j_.begin_object();
        rows_column(key::stack, s, [&](const SampleRow& r) {
            if (r.stack == SampleTable::kNoStack)
                j_.null();
            else
                j_.int64(r.stack);
        });
        std::int64_t previous = 0;
        rows_column(key::timeDeltas, s, [&](const SampleRow& r) {
            j_.ms_from_ns(r.time - previous);
            previous = r.time;
        });
        if (t.weight_type == WeightType::samples && s.all_weights_one()) {
            j_.key(key::weight);
            j_.null();
        } else {
            rows_column(key::weight, s, [&](const SampleRow& r) {
                if (t.weight_type == WeightType::tracing_ms)
                    j_.ms_from_ns(r.weight);
                else
                    j_.int64(r.weight);
            });
        }
        string_field(key::weightType, v70::spelling(t.weight_type));
        if (s.has_cpu_delta()) {
            rows_column(key::threadCPUDelta, s, [&](const SampleRow& r) {
                if (r.cpu_delta == SampleTable::kNoCpuDelta)
                    j_.null();
                else
                    j_.int64(r.cpu_delta);
            });
        }
        length(n);
        j_.end_object();
    }

    void write_field_value(const MarkerField& f, const FieldValue& v) {
        switch (v70::kind_of(f.format)) {
            case v70::FieldKind::json_string:
                j_.string(p_.strings().get(v.string()));
                return;
            case v70::FieldKind::string_index:
                j_.uint64(v.string().index());
                return;
            case v70::FieldKind::number:
                switch (v.type()) {
                    case FieldValue::Type::integer: j_.int64(v.integer()); return;
                    case FieldValue::Type::real: j_.number(v.real()); return;
                    case FieldValue::Type::duration:
                    case FieldValue::Type::timestamp:
                        j_.scaled(v.integer(), duration_scale(f.format));
                        return;
                    case FieldValue::Type::string:
                    case FieldValue::Type::absent: break;
                }
                break;
        }
        throw Error("JSON writer: marker field value does not match its schema");
    }

    void write_markers(const Thread& t) {
        const MarkerTable& m = t.markers;
        const auto& schemas = p_.marker_schemas();
        j_.key(key::markers);
        j_.begin_object();
        rows_column(key::data, m, [&](const MarkerRow& r) {
            if (r.schema == MarkerTable::kNoSchema) {
                j_.null();
                return;
            }
            const MarkerSchema& s = schemas[r.schema];
            if (r.values.size() != s.fields.size())
                throw Error("JSON writer: a marker's values do not match its schema");
            j_.begin_object();
            string_field(key::type, s.name);
            for (std::size_t i = 0; i < s.fields.size(); ++i) {
                // No value: no key (the profiler's tooltip, sidebar and search skip it).
                if (r.values[i].type() == FieldValue::Type::absent) continue;
                j_.user_key(s.fields[i].key);
                write_field_value(s.fields[i], r.values[i]);
            }
            j_.end_object();
        });
        marker_column(key::name, m, [&](const MarkerRow& r) { j_.uint64(r.name); });
        marker_column(key::startTime, m, [&](const MarkerRow& r) {
            if (r.phase == MarkerPhase::interval_end)
                j_.null();
            else
                j_.ms_from_ns(r.start);
        });
        marker_column(key::endTime, m, [&](const MarkerRow& r) {
            if (r.phase == MarkerPhase::interval || r.phase == MarkerPhase::interval_end)
                j_.ms_from_ns(r.end);
            else
                j_.null();
        });
        marker_column(key::phase, m,
                    [&](const MarkerRow& r) { j_.uint64(static_cast<unsigned>(r.phase)); });
        marker_column(key::category, m, [&](const MarkerRow& r) { j_.uint64(r.category); });
        length(m.size());
        j_.end_object();
    }

    // ---- counters ---------------------------------------------------------------------------
    std::uint32_t main_thread_index(const Counter& c) {
        const Process& proc = p_.processes()[c.process.index()];
        if (proc.main_thread) return position(*proc.main_thread);
        // No main thread: its first thread as written, so a shown one when there is one.
        if (!proc.threads.empty()) {
            std::uint32_t first = position(proc.threads.front());
            for (ThreadHandle t : proc.threads) first = std::min(first, position(t));
            return first;
        }
        throw Error("counter \"" + c.name + "\": process " + proc.pid + " has no thread");
    }

    void write_counter(const Counter& c) {
        const std::uint32_t main_thread = main_thread_index(c);
        const CounterSamples& s = c.samples;
        const std::size_t n = s.size();
        CounterSampleRow first;
        const bool any = s.front(first);

        j_.begin_object();
        string_field(key::name, c.name);
        string_field(key::category, c.category);
        string_field(key::description, c.description);
        string_field(key::pid, p_.processes()[c.process.index()].pid);
        j_.key(key::mainThreadIndex);
        j_.uint64(main_thread);

        // The profiler zeroes the first sample's count and number (processCounter: Gecko's
        // first values are unreliable). Unless ours are zero already, a zero sample one
        // interval earlier goes first, so the first real sample keeps its value (and a rate
        // graph sees the same interval the profiler assumes for a first sample).
        const bool lead = any && (first.count != 0 || (s.has_number() && first.number != 0));
        const std::size_t written = n + (lead ? 1 : 0);
        j_.key(key::samples);
        j_.begin_object();
        std::int64_t previous = 0;
        j_.key(key::timeDeltas);
        j_.begin_array();
        if (lead) {
            previous = first.time - p_.meta().interval.nanos();
            j_.ms_from_ns(previous);
        }
        s.for_each([&](const CounterSampleRow& r) {
            j_.ms_from_ns(r.time - previous);
            previous = r.time;
        });
        j_.end_array();
        j_.key(key::count);
        j_.begin_array();
        if (lead) j_.int64(0);
        s.for_each([&](const CounterSampleRow& r) { j_.number(r.count); });
        j_.end_array();
        if (s.has_number()) {
            j_.key(key::number);
            j_.begin_array();
            if (lead) j_.int64(0);
            s.for_each([&](const CounterSampleRow& r) { j_.uint64(r.number); });
            j_.end_array();
        }
        length(written);
        j_.end_object();

        const CounterDisplay& d = c.display;
        j_.key(key::display);
        j_.begin_object();
        string_field(key::graphType, v70::spelling(d.graph_type));
        string_field(key::unit, d.unit);
        string_field(key::color, v70::spelling(d.color));
        j_.key(key::markerSchemaLocation);
        if (d.marker_schema_location)
            j_.string(v70::spelling(*d.marker_schema_location));
        else
            j_.null();
        j_.key(key::sortWeight);
        j_.int64(d.sort_weight);
        string_field(key::label, d.label.empty() ? c.name : d.label);
        j_.key(key::tooltipRows);
        j_.begin_array();
        for (const CounterTooltipRow& row : d.tooltip_rows) {
            j_.begin_object();
            if (row.separator) {
                string_field(key::type, v70::kTooltipRowSeparator);
            } else {
                string_field(key::type, v70::kTooltipRowValue);
                string_field(key::source, v70::spelling(row.source));
                j_.key(key::format);
                j_.begin_object();
                string_field(key::unit, v70::spelling(row.unit));
                j_.end_object();
                string_field(key::label, row.label);
                if (row.requires_preview_selection) {
                    j_.key(key::requiresPreviewSelection);
                    j_.boolean(true);
                }
            }
            j_.end_object();
        }
        j_.end_array();
        j_.end_object();

        j_.end_object();
    }

    std::uint32_t position(ThreadHandle h) const { return position_[h.index()]; }

    const Profile& p_;
    JsonEmitter& j_;
    std::vector<std::uint32_t> order_;     // written position -> thread handle index
    std::vector<std::uint32_t> position_;  // thread handle index -> written position
};

}  // namespace

WriteStats write_profile_json(const Profile& profile, ByteSink& sink) {
    JsonOutStream os(sink);
    JsonEmitter emitter(os);
    ProfileWriter(profile, emitter).write();
    os.Flush();
    WriteStats stats;
    stats.json_bytes = os.bytes_written();
    stats.repaired_strings = emitter.repaired_strings();
    return stats;
}

std::string profile_to_json(const Profile& profile, WriteStats* stats) {
    std::string out;
    StringSink sink(out);
    WriteStats s = write_profile_json(profile, sink);
    if (stats) *stats = s;
    return out;
}

}  // namespace el2fx::fxprof
