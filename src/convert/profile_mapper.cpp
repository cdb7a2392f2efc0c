#include "convert/profile_mapper.hpp"

#include <array>
#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/threading/off_cpu_state.hpp"
#include "analysis/threading/stop_status_text.hpp"
#include "convert/data_loss.hpp"
#include "convert/merged_markers.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using analysis::CapabilityActivity;
using analysis::CapabilityState;
using analysis::GcPhase;
using analysis::kGcPhases;
using analysis::ThreadActivity;
using analysis::ThreadState;
using eventlog::CapNo;
using eventlog::ThreadId;

// Capability tracks get tids far from Haskell thread ids, so the two never read alike.
constexpr std::int64_t kCapabilityTidBase = 1'000'000'000;
// The profiler shows this many tracks by default; we choose which.
constexpr std::size_t kInitiallyVisible = 15;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

class Mapper {
private:
    // ---- per-track state and marker sinks (defined first: later members use them) ----

    struct Idle {};
    struct CapabilityTrack {
        ThreadHandle handle;
        SpanDetailFilter<ThreadId> mutators;
        SpanDetailFilter<Idle> idles;
    };
    // A group of merged stopped spans is named by the stop status that took most of its time.
    struct StoppedTally {
        analysis::StopStatusTally by_status;
        void add(const ThreadActivity& a, std::uint64_t duration) { by_status.add(a.reason.status, duration); }
        void reset() { by_status.reset(); }
    };
    using StoppedFilter = SpanDetailFilter<ThreadActivity, StoppedTally>;
    struct OwnThread {
        ThreadHandle handle;
        ThreadId id;
        SpanDetailFilter<CapNo> running;
        // One stream per kind of stop (waiting for GC, runnable, …): each is a row of its own.
        std::array<StoppedFilter, analysis::kOffCpuKinds> stopped;
    };
    // What the mapper keeps of every Haskell thread, in a table by the census's thread ordinal
    // (a log may have 100,000s of threads): its own track, and its stacks once made.
    struct PerThread {
        static constexpr std::uint32_t kFolded = UINT32_MAX, kWanted = UINT32_MAX - 1;
        std::uint32_t own = kFolded;  // index in own_, or kFolded (kWanted while choosing)
        CompactOptional<FrameHandle> frame;
        CompactOptional<StackHandle> mutator_stack, folded_root, folded_running;
        std::array<CompactOptional<StackHandle>, analysis::kOffCpuKinds> folded_stopped;  // by OffCpuKind
    };
    PerThread* per_thread(ThreadId id) {
        std::optional<std::uint32_t> i = ctx_.threads.ordinal(id);
        return i && *i < threads_.size() ? &threads_[*i] : nullptr;
    }
    OwnThread* own_thread(ThreadId id) {
        PerThread* t = per_thread(id);
        return t && t->own < own_.size() ? &own_[t->own] : nullptr;
    }

    struct MomentStream {
        ThreadHandle track;
        run::ThreadMoment::Kind kind;
        SpanDetailFilter<run::ThreadMoment> filter;
    };
    // A folded thread's sample, its stack made as it comes (while the thread's records are
    // at hand, not after a sort has scattered them).
    struct FoldedSample {
        std::uint64_t time;
        std::uint64_t weight;
        StackHandle stack;
    };
    // Folded threads' samples reach one track out of time order: they are sorted in chunks
    // of this many, each added as one time-ordered run (the profile merges the runs).
    static constexpr std::size_t kFoldedChunk = 1 << 16;

    CapabilityTrack* capability(CapNo cap) {
        auto it = caps_.find(cap);
        return it == caps_.end() ? nullptr : &it->second;
    }

    auto mutator_sink(ThreadHandle t) {
        return MarkerSink{p_, merged_schema_, t, names_.mutator, running_, [this, t](std::uint64_t start, std::uint64_t end, ThreadId id) {
                              StringHandle name = p_.handle_for_string(ctx_.thread_name(id));
                              p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), names_.mutator, running_,
                                            mutator_schema_, {FieldValue(name), FieldValue(id)});
                          }};
    }
    auto idle_sink(ThreadHandle t) {
        return MarkerSink{p_, merged_schema_, t, names_.idle, idle_, [this, t](std::uint64_t start, std::uint64_t end, Idle) {
                              p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), names_.idle, idle_,
                                            idle_schema_, {});
                          }};
    }
    auto running_sink(ThreadHandle t) {
        return MarkerSink{p_, merged_schema_, t, names_.running, running_, [this, t](std::uint64_t start, std::uint64_t end, CapNo cap) {
                              p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), names_.running, running_,
                                            running_schema_, {FieldValue(cap)});
                          }};
    }
    // A thread's stopped spans: a marker named by why it stopped ("Waiting for GC", "Blocked on
    // an MVar"), a merged group by the status that took most of its time.
    struct StoppedSink {
        Mapper& m;
        ThreadHandle t;
        void span(std::uint64_t start, std::uint64_t end, const ThreadActivity& a) {
            StringHandle reason = m.p_.handle_for_string(m.reason_text(a));
            m.p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), m.stopped_name(a.reason.status),
                            m.stopped_category(a.reason.status), m.stopped_schema_,
                            {FieldValue(reason), FieldValue(a.reason.status), FieldValue(a.reason.blocker)});
        }
        void merged(const MergedSpans& group, const StoppedTally& tally) {
            const std::uint16_t status = tally.by_status.dominant();
            add_merged_marker(m.p_, m.merged_schema_, t, m.stopped_name(status), m.stopped_category(status), group);
        }
    };
    StoppedSink stopped_sink(ThreadHandle t) { return StoppedSink{*this, t}; }

    StringHandle stopped_name(std::uint16_t status) {
        std::size_t slot = std::min<std::size_t>(status, stopped_names_.size() - 1);
        if (slot == stopped_names_.size() - 1) return p_.handle_for_string(analysis::off_cpu_marker_name(status));
        if (!stopped_names_[slot]) stopped_names_[slot] = p_.handle_for_string(analysis::off_cpu_marker_name(status));
        return *stopped_names_[slot];
    }
    CategoryHandle stopped_category(std::uint16_t status) const {
        return stopped_categories_[static_cast<std::size_t>(analysis::off_cpu_kind(status))];
    }
    auto moment_sink(const MomentStream& s) {
        return MarkerSink{p_, merged_schema_, s.track, moment_name(s.kind), other_,
                          [this, t = s.track](std::uint64_t, std::uint64_t, const run::ThreadMoment& m) { add_moment(t, m); }};
    }

public:
public:
    Mapper(ProfileContext& context, const run::RunCensus& census, const Diagnostics& diagnostics)
        : ctx_(context), options_(context.options), p_(context.profile), census_(census), diagnostics_(diagnostics) {}

    void begin() {
        const Categories& c = ctx_.categories;
        other_ = c.other, idle_ = c.idle, running_ = c.running, gc_ = c.gc, gc_wait_ = c.gc_wait, memory_ = c.memory,
        warning_ = c.warning;
        stopped_categories_ = {c.waiting_for_gc, c.runnable, c.foreign_call, c.blocked};  // by OffCpuKind
        declare_schemas();
        set_meta();
        std::string pid = unique_pid(ctx_.run.pid ? std::to_string(*ctx_.run.pid) : "0");
        process_ = p_.add_process(process_name(), pid, at(ctx_.run.first_time));
        p_.set_process_end_time(process_, at(end_time()));
        ctx_.process = process_;
        // The process's own track: process-wide markers (collections, user markers).
        ctx_.process_track = p_.add_thread(process_, process_name(), ctx_.run.pid.value_or(0), at(ctx_.run.first_time),
                                           /*is_main_thread=*/true);
        p_.set_thread_end_time(ctx_.process_track, at(end_time()));
        p_.set_thread_show_markers_in_timeline(ctx_.process_track, true);
        add_capability_tracks();
        choose_thread_tracks();
        add_thread_tracks();
    }

    MappingSummary finish(const std::vector<DiagnosticMoment>& diagnostic_moments) {
        for (auto& [cap, track] : caps_) {
            auto mutators = mutator_sink(track.handle);
            track.mutators.finish(mutators);
            auto idles = idle_sink(track.handle);
            track.idles.finish(idles);
        }
        for (OwnThread& track : own_) {
            auto running = running_sink(track.handle);
            track.running.finish(running);
            auto stopped = stopped_sink(track.handle);
            for (StoppedFilter& filter : track.stopped) filter.finish(stopped);
        }
        for (auto& [key, stream] : moment_streams_) {
            auto sink = moment_sink(stream);
            stream.filter.finish(sink);
        }
        flush_folded();
        add_problems();
        add_diagnostic_markers(diagnostic_moments);
        choose_visible_tracks();
        return summary_;
    }

    // ---- what the threading analysis streams (analysis::ThreadingSink) -----------------

    void capability_span(CapNo cap, const analysis::CapabilitySpan& span) {
        CapabilityTrack* track = capability(cap);
        if (!track) return;
        switch (span.activity.state) {
            case CapabilityState::idle: {
                auto sink = idle_sink(track->handle);
                track->idles.offer(span.start, span.end, Idle{}, sink);
                break;
            }
            case CapabilityState::mutator: {
                auto sink = mutator_sink(track->handle);
                track->mutators.offer(span.start, span.end, span.activity.thread, sink);
                break;
            }
            case CapabilityState::gc:  // the GC contributor marks the collections ("GC pause")
                break;
        }
    }

    void capability_sample(CapNo cap, const analysis::Sample<CapabilityActivity>& s) {
        CapabilityTrack* track = capability(cap);
        if (!track || ticks_.replaces_capability_sample(cap, s.time)) return;  // a time-profile tick stands in
        p_.add_sample(track->handle, at(s.time), capability_stack(s.key),
                      CpuDelta::from_nanos(static_cast<std::int64_t>(s.cpu_delta_ns)), static_cast<std::int64_t>(s.weight));
    }

    void thread_span(ThreadId id, const analysis::ThreadStateSpan& span) {
        OwnThread* own = own_thread(id);
        if (!own) return;  // folded threads: samples only
        OwnThread& track = *own;
        if (span.activity.state == ThreadState::running) {
            auto sink = running_sink(track.handle);
            track.running.offer(span.start, span.end, span.activity.cap, sink);
        } else {
            auto sink = stopped_sink(track.handle);
            const auto kind = static_cast<std::size_t>(analysis::off_cpu_kind(span.activity.reason.status));
            track.stopped[kind].offer(span.start, span.end, span.activity, sink);
        }
    }

    void thread_sample(ThreadId id, const analysis::Sample<ThreadActivity>& s) {
        if (ticks_.replaces_thread_sample(is_on_cpu(s.key), s.key.cap, s.time)) return;  // a tick stands in
        if (OwnThread* own = own_thread(id)) {
            p_.add_sample(own->handle, at(s.time), thread_stack(s.key),
                          CpuDelta::from_nanos(static_cast<std::int64_t>(s.cpu_delta_ns)),
                          static_cast<std::int64_t>(s.weight));
            return;
        }
        if (!folded_) return;
        // The shared track has no activity graph, only weights for the call tree: its samples
        // sit on the timer's grid (an off-CPU group's ends move by less than half an interval),
        // which keeps the many threads' times cheap to store.
        const std::uint64_t interval = options_.sampling_interval_ns;
        const std::uint64_t on_grid = (s.time + interval / 2) / interval * interval;
        folded_buffer_.push_back({on_grid, s.weight, folded_stack(id, s.key)});
        if (folded_buffer_.size() >= kFoldedChunk) flush_folded();
    }

    // Created, migrated, woken, labelled, finished (run::ThreadCatalog), as they happen.
    void moment(const run::ThreadMoment& m) {
        using Kind = run::ThreadMoment::Kind;
        OwnThread* own = own_thread(m.thread);
        if (!own) return;  // folded threads: samples only
        ThreadHandle t = own->handle;
        if (m.kind != Kind::woken && m.kind != Kind::migrated) {
            add_moment(t, m);  // at most a few per thread: each keeps its marker
            return;
        }
        // Wake-ups and migrations are merged where they crowd (a thread woken thousands of times).
        auto key = std::make_pair(t.index(), static_cast<int>(m.kind));
        auto s = moment_streams_.find(key);
        if (s == moment_streams_.end())
            s = moment_streams_.emplace(key, MomentStream{t, m.kind, SpanDetailFilter<run::ThreadMoment>(ctx_.span_detail)}).first;
        auto sink = moment_sink(s->second);
        s->second.filter.offer(m.time, m.time, m, sink);
    }

private:
    // The end of the log; an eventlog without events still spans one interval.
    std::uint64_t end_time() const {
        return std::max(ctx_.run.last_time, ctx_.run.first_time + options_.sampling_interval_ns);
    }

    std::string product_name() const {
        std::string name = ctx_.run.program_name();
        if (name.empty()) name = options_.input_name;
        return name.empty() ? std::string("GHC program") : name;
    }

    // The run's process and its own track: named by the run when there are several.
    std::string process_name() const { return ctx_.process_name.empty() ? product_name() : ctx_.process_name; }

    // Runs in one profile may share a pid: the later ones get "1234.1", "1234.2" (as samply does).
    std::string unique_pid(const std::string& pid) const {
        auto taken = [&](const std::string& candidate) {
            for (const Process& p : p_.processes())
                if (p.pid == candidate) return true;
            return false;
        };
        std::string candidate = pid;
        for (int n = 1; taken(candidate); ++n) candidate = pid + "." + std::to_string(n);
        return candidate;
    }

    MarkerSchemaHandle schema(MarkerSchema s) { return p_.register_marker_schema(std::move(s)); }

    // Marker names, interned once in a fixed order (string indexes stay the same
    // whatever order a compiler evaluates arguments in).
    struct Names {
        StringHandle idle{0}, mutator{0}, running{0}, created{0}, migrated{0}, woken{0},
            labelled{0}, finished{0}, warning{0};
    };

    void intern_names() {
        names_.idle = p_.handle_for_string("Idle");
        names_.mutator = p_.handle_for_string("Mutator");
        names_.running = p_.handle_for_string("Running");
        names_.created = p_.handle_for_string("Thread created");
        names_.migrated = p_.handle_for_string("Thread migrated");
        names_.woken = p_.handle_for_string("Thread woken");
        names_.labelled = p_.handle_for_string("Thread labelled");
        names_.finished = p_.handle_for_string("Thread finished");
        names_.warning = p_.handle_for_string("Eventlog warning");
    }

    void declare_schemas() {
        intern_names();
        using DL = DisplayLocation;
        std::vector<DL> timeline = {DL::marker_chart, DL::marker_table, DL::timeline_overview};
        std::vector<DL> chart = {DL::marker_chart, DL::marker_table};
        mutator_schema_ = schema({.name = "Mutator",
                                  .display = timeline,
                                  .fields = {{"thread", "Haskell thread", FieldFormat::string},
                                             {"threadId", "Thread id", FieldFormat::integer}},
                                  .tooltip_label = "Mutator: {marker.data.thread}",
                                  .table_label = "{marker.data.thread}",
                                  .chart_label = "{marker.data.thread}",
                                  .description = "The capability runs Haskell code of a thread."});
        idle_schema_ = schema({.name = "Idle",
                               .display = chart,
                               .fields = {},
                               .tooltip_label = "Idle",
                               .description = "The capability neither runs Haskell code nor collects garbage."});
        running_schema_ = schema({.name = "Running",
                                  .display = timeline,
                                  .fields = {{"cap", "Capability", FieldFormat::integer}},
                                  .tooltip_label = "Running on capability {marker.data.cap}",
                                  .table_label = "capability {marker.data.cap}",
                                  .chart_label = "cap {marker.data.cap}",
                                  .description = "The Haskell thread runs."});
        stopped_schema_ = schema({.name = "ThreadStopped",
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
        created_schema_ = schema({.name = "ThreadCreated",
                                  .display = chart,
                                  .fields = {{"cap", "Capability", FieldFormat::integer}},
                                  .tooltip_label = "Created on capability {marker.data.cap}",
                                  .table_label = "created on capability {marker.data.cap}"});
        migrated_schema_ = schema({.name = "ThreadMigrated",
                                   .display = chart,
                                   .fields = {{"from", "From capability", FieldFormat::integer},
                                              {"to", "To capability", FieldFormat::integer}},
                                   .tooltip_label = "Migrated from capability {marker.data.from} to {marker.data.to}",
                                   .table_label = "capability {marker.data.from} → {marker.data.to}"});
        woken_schema_ = schema({.name = "ThreadWoken",
                                .display = chart,
                                .fields = {{"by", "Woken from capability", FieldFormat::integer},
                                           {"on", "Thread's capability", FieldFormat::integer}},
                                .tooltip_label = "Woken from capability {marker.data.by}",
                                .table_label = "woken from capability {marker.data.by} (runs on {marker.data.on})",
                                .description = "Another capability tried to wake the thread (THREAD_WAKEUP)."});
        labelled_schema_ = schema({.name = "ThreadLabelled",
                                   .display = chart,
                                   .fields = {{"label", "Label", FieldFormat::string}},
                                   .tooltip_label = "Labelled \"{marker.data.label}\"",
                                   .table_label = "{marker.data.label}"});
        finished_schema_ = schema({.name = "ThreadFinished",
                                   .display = chart,
                                   .fields = {{"cap", "Capability", FieldFormat::integer}},
                                   .tooltip_label = "Finished on capability {marker.data.cap}"});
        merged_schema_ = merged_spans_schema(p_);
        warning_schema_ = schema({.name = "EventlogWarning",
                                  .display = timeline,
                                  .fields = {{"problem", "Problem", FieldFormat::string},
                                             {"diagnostic", "Diagnostic", FieldFormat::string},
                                             {"event", "Event type", FieldFormat::integer}},
                                  .tooltip_label = "{marker.data.problem}",
                                  .table_label = "{marker.data.problem}",
                                  .description = "The eventlog did something the analyses did not expect here."});
    }

    void set_meta() {
        const run::RunInfo& run = ctx_.run;
        // The program's name names the profile (top bar, window title), as samply's do. The
        // compare view names a pair by the product only when both share it (merge-compare.ts),
        // so two runs of one program read as it, two programs as the profiler's "Firefox".
        p_.set_product(product_name());
        // Not Firefox Nightly: the Share panel removes personal data by default (format_v70.hpp).
        p_.set_update_channel(v70::kUpdateChannelRelease);
        p_.set_interval(Duration::from_nanos(static_cast<std::int64_t>(options_.sampling_interval_ns)));
        if (run.wall_clock_unix_ns) {
            p_.set_start_time(WallClock::from_unix_nanos(static_cast<std::int64_t>(*run.wall_clock_unix_ns) -
                                                         static_cast<std::int64_t>(run.wall_clock_event_time)));
        }
        p_.set_profiling_range(at(run.first_time), at(end_time()));
        p_.set_imported_from("GHC eventlog");
        p_.set_keep_profile_thread_order(true);
        std::string args;
        for (const std::string& a : run.args) args += (args.empty() ? "" : " ") + a;
        p_.set_arguments(args);

        ExtraSectionHandle s = p_.add_extra_section(ctx_.section_label("GHC run"));
        p_.add_extra_entry(s, "Program", ExtraValue::text(product_name()));
        if (!run.rts_identifier.empty()) p_.add_extra_entry(s, "RTS", ExtraValue::text(run.rts_identifier));
        if (!args.empty()) p_.add_extra_entry(s, "Arguments", ExtraValue::text(args));
        if (run.pid) p_.add_extra_entry(s, "Process id", ExtraValue::integer(*run.pid));
        p_.add_extra_entry(s, "Capabilities", ExtraValue::integer(run.capabilities));
        if (run.generations) p_.add_extra_entry(s, "Generations", ExtraValue::integer(*run.generations));
        if (run.alloc_area_size)
            p_.add_extra_entry(s, "Allocation area", ExtraValue::bytes(static_cast<std::int64_t>(*run.alloc_area_size)));
        if (!run.wall_clock_unix_ns)
            p_.add_extra_entry(s, "Start time", ExtraValue::text("unknown: the eventlog has no wall-clock event"));
        p_.add_extra_entry(s, "Events", ExtraValue::integer(static_cast<std::int64_t>(run.events)));
        p_.add_extra_entry(s, "Marker resolution",
                           ctx_.span_detail.resolution == 0
                               ? ExtraValue::text("every span has its own marker")
                               : ExtraValue::duration(Duration::from_nanos(static_cast<std::int64_t>(ctx_.span_detail.resolution))));

        if (!run.env.empty()) {
            ExtraSectionHandle e = p_.add_extra_section(ctx_.section_label("Environment (included with --include-env)"));
            for (const std::string& kv : run.env) {
                std::size_t eq = kv.find('=');
                p_.add_extra_entry(e, kv.substr(0, eq), ExtraValue::text(eq == std::string::npos ? "" : kv.substr(eq + 1)));
            }
        }
    }

    // What went wrong while reading: known only after the last event.
    void add_problems() {
        ExtraSectionHandle d = p_.add_extra_section(ctx_.section_label("Eventlog problems"));
        bool any = false;
        for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
            auto diag = static_cast<Diagnostic>(i);
            std::uint64_t n = diagnostics_.count(diag);
            if (n == 0) continue;
            any = true;
            p_.add_extra_entry(d, std::string(Diagnostics::info(diag).description),
                               ExtraValue::integer(static_cast<std::int64_t>(n)));
        }
        if (diagnostics_.count(Diagnostic::truncated_input) > 0 && ctx_.run.events > 0) {
            // Where the data stops, in the timeline: a killed program's log ends here.
            // One interning call per statement: compilers order a call's arguments differently.
            const DiagnosticInfo& info = Diagnostics::info(Diagnostic::truncated_input);
            const StringHandle name = p_.handle_for_string("Eventlog truncated: no data after this point");
            const StringHandle problem = p_.handle_for_string(info.description);
            const StringHandle id = p_.handle_for_string(info.id);
            p_.add_marker(ctx_.process_track, MarkerTiming::instant(at(end_time())), name, warning_, warning_schema_,
                          {FieldValue(problem), FieldValue(id), FieldValue(0)});
        }
        if (ctx_.run.events == 0) {
            any = true;
            p_.add_extra_entry(d, "No events", ExtraValue::text("the eventlog holds no events: the program stopped "
                                                               "before writing any; the profile is empty"));
            const StringHandle name = p_.handle_for_string("The eventlog holds no events");
            const StringHandle problem = p_.handle_for_string("the program stopped before writing any event");
            const StringHandle id = p_.handle_for_string("no_events");
            p_.add_marker(ctx_.process_track, MarkerTiming::instant(at(ctx_.run.first_time)), name, warning_,
                          warning_schema_, {FieldValue(problem), FieldValue(id), FieldValue(0)});
        }
        if (!any) p_.add_extra_entry(d, "None", ExtraValue::text("the eventlog was read without problems"));
        if (ctx_.stream_end) add_data_loss_entries(p_, d, *ctx_.stream_end);
    }

    // ---- stacks -------------------------------------------------------------------------

    FrameHandle frame(std::string_view name, CategoryHandle category) {
        FuncInfo f{.name = p_.handle_for_string(name)};
        FrameInfo fr{.func = p_.handle_for_func(f), .category = SubcategoryHandle(category)};
        return p_.handle_for_frame(fr);
    }

    std::string reason_text(const ThreadActivity& a) {
        std::string text = analysis::block_reason_text(a.reason);
        return text;
    }

    // The thread's name as a frame without a category of its own: under "Mutator" it is
    // running, as the root of a folded thread's stacks it has the default one. In a profile
    // of one run its name (with its id) is the thread's alone, so the name of a folded
    // thread, its function, frame and the stacks it roots are added without interning
    // (PerThread keeps them): 100,000s of threads would otherwise fill most of the tables'
    // indexes. (An own track's name is interned already: add_thread_tracks.) Runs side by
    // side share them, so that selecting both runs merges their call trees.
    FrameHandle thread_frame(PerThread& t, ThreadId id) {
        if (t.frame) return *t.frame;
        const std::string text = ctx_.thread_name(id);
        if (ctx_.run_count > 1) {
            t.frame = p_.handle_for_frame({.func = p_.handle_for_func({.name = p_.handle_for_string(text)})});
        } else {
            const StringHandle name = t.own == PerThread::kFolded ? p_.add_distinct_string(text) : p_.handle_for_string(text);
            t.frame = p_.add_distinct_frame({.func = p_.add_distinct_func({.name = name})});
        }
        return *t.frame;
    }

    // A stack under a thread's own frame (see thread_frame).
    StackHandle thread_owned_stack(std::optional<StackHandle> prefix, FrameHandle frame) {
        return ctx_.run_count > 1 ? p_.handle_for_stack(prefix, frame) : p_.add_distinct_stack(prefix, frame);
    }

    // A capability in a collection: "GC" is the time spent collecting (its working phase a
    // frame under it); waiting for the other GC threads or to be released, and the heap
    // census, are roots of their own, so that a capability that only waits in a parallel GC
    // (its OS thread descheduled: more capabilities than cores) does not read as collecting.
    // All made at the first need of any, in a fixed order: two runs of one program then have
    // the same functions whichever phases their samples happen to hit (the compare view and a
    // selection of both runs match functions by name).
    StackHandle gc_stack(GcPhase phase) {
        if (!gc_stacks_[0])
            for (std::size_t p = 0; p < kGcPhases; ++p) make_gc_stack(static_cast<GcPhase>(p));
        return *gc_stacks_[static_cast<std::size_t>(phase)];
    }
    void make_gc_stack(GcPhase phase) {
        auto& stack = gc_stacks_[static_cast<std::size_t>(phase)];
        switch (phase) {
            case GcPhase::collecting: stack = p_.handle_for_stack(std::nullopt, frame("GC", gc_)); break;
            case GcPhase::working: stack = p_.handle_for_stack(*gc_stacks_[0], frame("working", gc_)); break;
            case GcPhase::idle:
                stack = p_.handle_for_stack(std::nullopt, frame("GC idle: waiting for other GC threads", gc_wait_));
                break;
            case GcPhase::done:
                stack = p_.handle_for_stack(std::nullopt, frame("GC done: waiting to be released", gc_wait_));
                break;
            case GcPhase::census: stack = p_.handle_for_stack(std::nullopt, frame("Heap census", memory_)); break;
        }
    }

    StackHandle capability_stack(const CapabilityActivity& a) {
        switch (a.state) {
            case CapabilityState::idle:
                if (!idle_stack_) idle_stack_ = p_.handle_for_stack(std::nullopt, frame("Idle", idle_));
                return *idle_stack_;
            case CapabilityState::gc:
                return gc_stack(a.phase);
            case CapabilityState::mutator:
                break;
        }
        // One statement per interning call: the order of a call's arguments differs between
        // compilers, and the tables' order must not.
        const StackHandle mutator = mutator_stack();
        PerThread* t = per_thread(a.thread);
        if (!t) {  // not in the census
            const FrameHandle name = frame(ctx_.thread_name(a.thread), running_);
            return p_.handle_for_stack(mutator, name);
        }
        if (!t->mutator_stack) {
            const FrameHandle name = thread_frame(*t, a.thread);
            t->mutator_stack = thread_owned_stack(mutator, name);
        }
        return *t->mutator_stack;
    }

    StackHandle mutator_stack() {
        if (!mutator_root_) mutator_root_ = p_.handle_for_stack(std::nullopt, frame("Mutator", running_));
        return *mutator_root_;
    }

    // A thread's own track: stacks interned once per (state, reason), one lookup per sample
    // instead of four (string, func, frame, stack).
    StackHandle thread_stack(const ThreadActivity& a) {
        ThreadStackKey k{a.state == ThreadState::running, a.reason.status,
                         a.state == ThreadState::running ? 0u : a.reason.blocker};
        auto it = thread_stacks_.find(k);
        if (it != thread_stacks_.end()) return it->second;
        StackHandle s = activity_stack(a, std::nullopt);
        thread_stacks_.emplace(k, s);
        return s;
    }

    // Running, or why it stopped → reason (Waiting for GC → heap overflow, Blocked → blocked
    // on an MVar, …), under the prefix (a folded thread's name).
    StackHandle activity_stack(const ThreadActivity& a, std::optional<StackHandle> prefix) {
        if (a.state == ThreadState::running) return p_.handle_for_stack(prefix, running_frame());
        return reason_stack(p_.handle_for_stack(prefix, stopped_frame(stopped_kind(a))), a);
    }

    static analysis::OffCpuKind stopped_kind(const ThreadActivity& a) { return analysis::off_cpu_kind(a.reason.status); }

    FrameHandle running_frame() {
        if (!running_frame_) running_frame_ = frame("Running", running_);
        return *running_frame_;
    }
    // The root frames of the kinds of stop, all made at the first need of any (see gc_stack).
    FrameHandle stopped_frame(analysis::OffCpuKind kind) {
        if (!stopped_frames_[0])
            for (std::size_t k = 0; k < analysis::kOffCpuKinds; ++k)
                stopped_frames_[k] = frame(analysis::off_cpu_kind_name(static_cast<analysis::OffCpuKind>(k)),
                                           stopped_categories_[k]);
        return *stopped_frames_[static_cast<std::size_t>(kind)];
    }

    // The reason a thread stopped, under its kind's stack.
    StackHandle reason_stack(StackHandle stopped, const ThreadActivity& a) {
        ReasonKey k{a.reason.status, a.reason.blocker};
        auto it = reason_frames_.find(k);
        if (it == reason_frames_.end())
            it = reason_frames_.emplace(k, frame(reason_text(a), stopped_category(a.reason.status))).first;
        return p_.handle_for_stack(stopped, it->second);
    }

    // A folded thread's stack: its name, then what it did. Its stacks down to "Running" and
    // each kind of stop are kept, to look up only the reason for each sample.
    StackHandle folded_stack(ThreadId id, const ThreadActivity& a) {
        PerThread* t = per_thread(id);
        if (!t) return activity_stack(a, p_.handle_for_stack(std::nullopt, frame(ctx_.thread_name(id), other_)));
        if (!t->folded_root) t->folded_root = thread_owned_stack(std::nullopt, thread_frame(*t, id));
        if (a.state == ThreadState::running) {
            if (!t->folded_running) t->folded_running = thread_owned_stack(*t->folded_root, running_frame());
            return *t->folded_running;
        }
        const analysis::OffCpuKind kind = stopped_kind(a);
        auto& stopped = t->folded_stopped[static_cast<std::size_t>(kind)];
        if (!stopped) stopped = thread_owned_stack(*t->folded_root, stopped_frame(kind));
        return reason_stack(*stopped, a);
    }

    // ---- tracks ---------------------------------------------------------------------------

    // One per capability the census saw, from its first event to the end of the log.
    void add_capability_tracks() {
        for (const auto& [cap, start] : census_.capability_starts) {
            ThreadHandle t = p_.add_thread(process_, "Capability " + std::to_string(cap), kCapabilityTidBase + cap, at(start));
            p_.set_thread_end_time(t, at(end_time()));
            p_.set_thread_show_markers_in_timeline(t, true);
            caps_.emplace(cap, CapabilityTrack{t, SpanDetailFilter<ThreadId>(ctx_.span_detail),
                                               SpanDetailFilter<Idle>(ctx_.span_detail)});
            ctx_.capability_tracks.insert_or_assign(cap, t);
            capability_order_.push_back(t);
        }
    }

    // Labelled threads first, then the busiest (time running, from the census), up to the
    // limit; the rest are folded.
    void choose_thread_tracks() {
        struct Rank {
            bool labelled;
            std::uint64_t busy;
            ThreadId id;
        };
        std::vector<Rank> ranked;
        ranked.reserve(ctx_.threads.threads().size());
        for (const run::ThreadFacts& f : ctx_.threads.threads()) ranked.push_back({f.labelled(), census_.running_ns(f.id), f.id});
        std::stable_sort(ranked.begin(), ranked.end(), [](const Rank& a, const Rank& b) {
            if (a.labelled != b.labelled) return a.labelled;
            return a.busy > b.busy;
        });
        const std::size_t limit = options_.all_threads ? ranked.size() : options_.max_threads;
        threads_.assign(ctx_.threads.threads().size(), PerThread{});
        for (std::size_t i = 0; i < ranked.size() && i < limit; ++i) {
            if (PerThread* t = per_thread(ranked[i].id)) t->own = PerThread::kWanted;
        }
    }

    void add_thread_tracks() {
        const std::vector<run::ThreadFacts>& threads = ctx_.threads.threads();
        for (std::size_t i = 0; i < threads.size(); ++i) {  // creation order
            const run::ThreadFacts& f = threads[i];
            if (threads_[i].own == PerThread::kWanted) {
                ThreadHandle t = p_.add_thread(process_, ctx_.thread_name(f.id), f.id, at(f.created().value_or(f.first_seen)));
                if (f.finished()) p_.set_thread_end_time(t, at(*f.finished()));
                p_.set_thread_show_markers_in_timeline(t, true);
                ctx_.set_thread_track(f.id, t, false);
                threads_[i].own = static_cast<std::uint32_t>(own_.size());
                const StoppedFilter stopped(ctx_.span_detail);
                own_.push_back(OwnThread{t, f.id, SpanDetailFilter<CapNo>(ctx_.span_detail),
                                         {stopped, stopped, stopped, stopped}});
                // Its name as a string whether or not a kept marker or a sample uses it, so two
                // runs of one program intern the same strings (the compare view matches by name).
                p_.handle_for_string(ctx_.thread_name(f.id));
                ++summary_.thread_tracks;
            } else {
                if (!folded_) {
                    folded_ = p_.add_thread(process_, "other threads", kCapabilityTidBase - 1, at(ctx_.run.first_time));
                    p_.set_thread_show_markers_in_timeline(*folded_, false);
                }
                ctx_.set_thread_track(f.id, *folded_, true);
                ++summary_.folded_threads;
            }
        }
    }

    // One track for many threads: samples go in as time-ordered runs.
    void flush_folded() {
        if (folded_buffer_.empty()) return;
        std::stable_sort(folded_buffer_.begin(), folded_buffer_.end(),
                         [](const FoldedSample& a, const FoldedSample& b) { return a.time < b.time; });
        for (const FoldedSample& i : folded_buffer_) {
            // CPU deltas of different threads must not be added up as one thread's:
            // the shared track gets weights and stacks, not activity.
            p_.add_sample(*folded_, at(i.time), i.stack, std::nullopt, static_cast<std::int64_t>(i.weight));
        }
        folded_buffer_.clear();
    }

    StringHandle moment_name(run::ThreadMoment::Kind kind) const {
        using Kind = run::ThreadMoment::Kind;
        switch (kind) {
            case Kind::created: return names_.created;
            case Kind::migrated: return names_.migrated;
            case Kind::woken: return names_.woken;
            case Kind::labelled: return names_.labelled;
            case Kind::finished: return names_.finished;
        }
        return names_.created;
    }

    void add_moment(ThreadHandle t, const run::ThreadMoment& m) {
        using Kind = run::ThreadMoment::Kind;
        MarkerTiming timing = MarkerTiming::instant(at(m.time));
        switch (m.kind) {
            case Kind::created:
                p_.add_marker(t, timing, names_.created, other_, created_schema_, {FieldValue(m.cap)});
                break;
            case Kind::migrated:
                p_.add_marker(t, timing, names_.migrated, other_, migrated_schema_,
                              {FieldValue(m.cap), FieldValue(m.other_cap)});
                break;
            case Kind::woken:
                p_.add_marker(t, timing, names_.woken, other_, woken_schema_, {FieldValue(m.cap), FieldValue(m.other_cap)});
                break;
            case Kind::labelled: {
                const run::ThreadFacts* f = ctx_.threads.find(m.thread);
                if (!f) break;
                StringHandle label = p_.handle_for_string(ctx_.threads.nth_label(*f, m.label_index));
                p_.add_marker(t, timing, names_.labelled, other_, labelled_schema_, {FieldValue(label)});
                break;
            }
            case Kind::finished:
                p_.add_marker(t, timing, names_.finished, other_, finished_schema_, {FieldValue(m.cap)});
                break;
        }
    }

    void add_diagnostic_markers(const std::vector<DiagnosticMoment>& moments) {
        for (const DiagnosticMoment& m : moments) {
            std::optional<ThreadHandle> track;
            if (m.cap) {
                auto it = caps_.find(*m.cap);
                if (it != caps_.end()) track = it->second.handle;
            }
            if (!track && !capability_order_.empty()) track = capability_order_.front();
            if (!track) continue;
            const DiagnosticInfo& info = Diagnostics::info(m.diagnostic);
            // Interned one statement at a time: argument order differs between compilers.
            StringHandle problem = p_.handle_for_string(info.description);
            StringHandle id = p_.handle_for_string(info.id);
            p_.add_marker(*track, MarkerTiming::instant(at(m.time)), names_.warning, warning_, warning_schema_,
                          {FieldValue(problem), FieldValue(id), FieldValue(m.tag)});
        }
    }

    // Capabilities first, then the busiest threads with their own track.
    void choose_visible_tracks() {
        std::size_t shown = 0;
        for (ThreadHandle t : capability_order_) {
            if (shown == kInitiallyVisible) return;
            p_.add_initial_visible_thread(t);
            ++shown;
        }
        std::vector<std::pair<std::uint64_t, ThreadHandle>> busy;
        for (const OwnThread& track : own_) busy.push_back({census_.running_ns(track.id), track.handle});
        std::sort(busy.begin(), busy.end(), [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first > b.first : a.second.index() < b.second.index();
        });
        for (const auto& [b, t] : busy) {
            if (shown == kInitiallyVisible) break;
            p_.add_initial_visible_thread(t);
            ++shown;
        }
        // Several runs: the first run's is selected (selecting more merges their call trees).
        if (!capability_order_.empty() && ctx_.run_index == 0) p_.add_initial_selected_thread(capability_order_.front());
    }

    ProfileContext& ctx_;
    const ConvertOptions& options_;
    Profile& p_;
    const run::RunCensus& census_;
    const Diagnostics& diagnostics_;
    MappingSummary summary_;
    ProcessHandle process_{0};
    CategoryHandle other_{0}, idle_{0}, running_{0}, gc_{0}, gc_wait_{0}, memory_{0}, warning_{0};
    std::array<CategoryHandle, analysis::kOffCpuKinds> stopped_categories_{CategoryHandle{0}, CategoryHandle{0}, CategoryHandle{0}, CategoryHandle{0}};  // by OffCpuKind
    std::array<std::optional<StringHandle>, 32> stopped_names_;  // marker names by stop status; the last: others
    MarkerSchemaHandle mutator_schema_{0}, idle_schema_{0}, running_schema_{0}, stopped_schema_{0},
        created_schema_{0}, migrated_schema_{0}, woken_schema_{0}, labelled_schema_{0}, finished_schema_{0},
        warning_schema_{0}, merged_schema_{0};
    struct ThreadStackKey {
        bool running;
        std::uint16_t status;
        ThreadId blocker;
        bool operator==(const ThreadStackKey&) const = default;
    };
    struct ThreadStackKeyHash {
        std::size_t operator()(const ThreadStackKey& k) const noexcept {
            std::uint64_t h = (std::uint64_t{k.status} << 1) ^ k.running;
            return static_cast<std::size_t>((h ^ (std::uint64_t{k.blocker} * 0x9E3779B97F4A7C15ull)) *
                                            0xBF58476D1CE4E5B9ull >> 7);
        }
    };
    using ReasonKey = std::pair<std::uint16_t, ThreadId>;  // (stop status, blocker)
    struct ReasonKeyHash {
        std::size_t operator()(const ReasonKey& k) const noexcept {
            return static_cast<std::size_t>((std::uint64_t{k.first} << 32 ^ k.second) * 0x9E3779B97F4A7C15ull >> 7);
        }
    };
    std::unordered_map<ThreadStackKey, StackHandle, ThreadStackKeyHash> thread_stacks_;
    std::unordered_map<ReasonKey, FrameHandle, ReasonKeyHash> reason_frames_;
    std::optional<FrameHandle> running_frame_;
    std::array<std::optional<FrameHandle>, analysis::kOffCpuKinds> stopped_frames_;  // by OffCpuKind
    Names names_;
    std::optional<StackHandle> idle_stack_, mutator_root_;
    std::array<std::optional<StackHandle>, kGcPhases> gc_stacks_;  // by GcPhase
    std::map<CapNo, CapabilityTrack> caps_;
    std::vector<ThreadHandle> capability_order_;
    std::vector<PerThread> threads_;  // by the census's thread ordinal
    std::vector<OwnThread> own_;      // threads with a track of their own, in creation order
    std::optional<ThreadHandle> folded_;
    std::vector<FoldedSample> folded_buffer_;
    std::map<std::pair<std::uint32_t, int>, MomentStream> moment_streams_;
    // Where time-profile ticks replace virtual samples (known from the census, before any sample).
    const profiling::TickCoverage& ticks_ = census_.tick_coverage;
};

}  // namespace

Categories declare_categories(Profile& profile) {
    Categories c;
    c.other = Profile::default_category();
    c.idle = profile.handle_for_category("Idle", CategoryColor::transparent);
    c.running = profile.handle_for_category("Running", CategoryColor::green);
    c.gc = profile.handle_for_category("GC", CategoryColor::orange);
    c.gc_wait = profile.handle_for_category("GC wait", CategoryColor::darkgrey);
    c.waiting_for_gc = profile.handle_for_category("Waiting for GC", CategoryColor::brown);
    c.runnable = profile.handle_for_category("Runnable", CategoryColor::grey);
    c.foreign_call = profile.handle_for_category("Foreign call", CategoryColor::magenta);
    c.blocked = profile.handle_for_category("Blocked", CategoryColor::lightblue);
    c.user = profile.handle_for_category("User", CategoryColor::yellow);
    c.memory = profile.handle_for_category("Memory", CategoryColor::purple);
    c.warning = profile.handle_for_category("Warning", CategoryColor::red);
    return c;
}

struct ThreadingMapper::Impl : Mapper {
    using Mapper::Mapper;
};

ThreadingMapper::ThreadingMapper(ProfileContext& context, const run::RunCensus& census, const Diagnostics& diagnostics)
    : impl_(std::make_unique<Impl>(context, census, diagnostics)) {}
ThreadingMapper::~ThreadingMapper() = default;

void ThreadingMapper::begin() { impl_->begin(); }
MappingSummary ThreadingMapper::finish(const std::vector<DiagnosticMoment>& diagnostic_moments) {
    return impl_->finish(diagnostic_moments);
}
void ThreadingMapper::capability_started(CapNo, std::uint64_t) {}  // its track exists from begin()
void ThreadingMapper::capability_span(CapNo cap, const analysis::CapabilitySpan& span) { impl_->capability_span(cap, span); }
void ThreadingMapper::capability_sample(CapNo cap, const analysis::Sample<CapabilityActivity>& sample) {
    impl_->capability_sample(cap, sample);
}
void ThreadingMapper::thread_span(ThreadId thread, const analysis::ThreadStateSpan& span) { impl_->thread_span(thread, span); }
void ThreadingMapper::thread_sample(ThreadId thread, const analysis::Sample<ThreadActivity>& sample) {
    impl_->thread_sample(thread, sample);
}
void ThreadingMapper::moment(const run::ThreadMoment& m) { impl_->moment(m); }

}  // namespace el2fx::convert
