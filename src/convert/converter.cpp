#include "convert/converter.hpp"

#include <algorithm>
#include <chrono>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "analysis/threading/reader_thread_lives.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "convert/contributors.hpp"
#include "convert/run_comparison.hpp"
#include "redaction/event_rewriter.hpp"
#include "analysis/run/block_census.hpp"
#include "analysis/run/forgotten_labels.hpp"
#include "analysis/run/run_census.hpp"
#include "analysis/run/thread_catalog.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/split_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "fxprof/output_file.hpp"
#include "pass/pass_plan.hpp"
#include "util/error.hpp"
#include "util/progress.hpp"
#include "util/thread_cpu.hpp"
#include "window/event_window.hpp"

namespace el2fx::convert {
namespace {

// Seconds since the last call (or construction): the phases of --timings.
class Stopwatch {
public:
    double lap() {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - last_).count();
        last_ = now;
        return s;
    }

private:
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// Notices which diagnostics an event caused, to show where the eventlog was odd.
class DiagnosticWatcher {
public:
    explicit DiagnosticWatcher(const Diagnostics& diagnostics) : diagnostics_(diagnostics), seen_(diagnostics) {}

    void after(const eventlog::Event& event, std::vector<DiagnosticMoment>& out) {
        if (diagnostics_.total() == seen_.total()) return;
        for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
            auto d = static_cast<Diagnostic>(i);
            if (diagnostics_.count(d) != seen_.count(d) && out.size() < kMaxMoments)
                out.push_back(DiagnosticMoment{event.time, event.cap, d, event.tag});
        }
        seen_ = diagnostics_;
    }

private:
    static constexpr std::size_t kMaxMoments = 10000;  // enough to see a pattern; counts stay exact
    const Diagnostics& diagnostics_;
    Diagnostics seen_;
};

// Where one run goes in a profile of one or several runs (ProfileContext).
struct RunPlacement {
    std::string process_name;
    std::size_t index = 0;
    std::size_t count = 1;
};

// What the census may forget (run_census.hpp): threads that cannot get a track of their own, once finished.
run::CensusLimits census_limits(const ConvertOptions& options) {
    return {.thread_tracks = options.all_threads ? std::nullopt : std::optional(options.max_threads)};
}

// The census without a pass of its own, learnt from the blocks as the index checks them
// (block_census.hpp), where the census pass would read every event as the log has it: no
// window (which adds events before its start), no shifted clock (several runs in one
// profile), and a planned pass (the naive one is the differential tests' reference).
// `rewriter`: the census pass's (redaction), outliving the census.
std::optional<run::BlockCensus> block_census_for(const ConvertOptions& options,
                                                 const redaction::RewriteOptions& rewriting,
                                                 redaction::EventRewriter& rewriter) {
    if (options.pass_mode == pass::PassMode::naive || options.window.spec.active() || rewriting.shift_to_zero)
        return std::nullopt;
    return std::optional<run::BlockCensus>(
        std::in_place, options.include_env, census_limits(options),
        [&rewriter](const eventlog::Event& e) -> const eventlog::Event& { return rewriter.apply(e); },
        rewriting.redact_paths);
}

// The first pass (add_run). It may leave the events it only counts to the reader's thread
// (run_census.hpp): where the reader gives them in time order, and the census sees them as the
// reader gives them (no window, which adds events before its start; no shifted clock, for
// several runs in one profile). In a log with few threads, the wake-ups too, but for each
// thread's earliest; should the census have to forget threads after all, it is taken again
// without counting them. Should a pass that counts meet any problem after all, the census is
// taken again of every event. A pass that counts is bound by the reading, which two workers
// then share (SplitPrefetcher), unless `census_bound`: where threads are made every few records
// the census's own work matches the reading, and two workers beside the consumer (three
// threads on two cores) made that pass slower, not faster. Of a window, it sets the bounds and
// where the second pass starts.
[[gnu::noinline]] run::RunCensus take_census(eventlog::TimeOrderedReader& reader, ConvertOptions& options,
                                             const redaction::RewriteOptions& rewriting, ConversionReport& report,
                                             std::optional<window::WindowStart>& window_start, bool census_bound) {
    // Threads that cannot get a track of their own are forgotten once finished (run_census.hpp).
    const run::CensusLimits limits = census_limits(options);
    enum class Counting { gc_and_wakeups, gc, none };
    // A window reads what its parts do not (its prelude, the markers' texts): all is decoded.
    const bool planned = options.pass_mode != pass::PassMode::naive && !options.window.spec.active();
    const bool count_on_reader = planned && reader.in_order() && !rewriting.shift_to_zero;
    const pass::Interests asked = run::RunCensusCollector::interests();
    const pass::PassPlan plan = pass::plan_pass({&asked, 1}, options.pass_mode);
    const bool few_threads = reader.thread_creations() && *reader.thread_creations() < limits.forget_above / 2;
    run::RunCensus census;
    for (const Counting counting : {Counting::gc_and_wakeups, Counting::gc, Counting::none}) {
        if (counting != Counting::none && !count_on_reader) continue;
        if (counting == Counting::gc_and_wakeups && !few_threads) continue;
        Diagnostics first_pass;  // the second pass reports the eventlog's problems
        double reader_cpu = 0;   // before the prefetcher, which writes it when destroyed (also by an error)
        try {
            run::RunCensusCollector collector(options.include_env, limits);
            if (counting == Counting::gc_and_wakeups) collector.counts_wakeups_elsewhere();
            redaction::EventRewriter rewriter(rewriting);
            window::EventWindow window(options.window.spec);  // both passes: the same window (src/window)
            const auto take = [&](auto& events) {
                events.report_worker_cpu(&reader_cpu);
                if (planned) events.leave_undecoded(~plan.decoded);
                while (const eventlog::Event* next = window.next(events)) collector.handle(rewriter.apply(*next));
                census = collector.finish(events.counted());
            };
            // Not movable: made in place.
            std::optional<eventlog::SplitPrefetcher> split;
            std::optional<eventlog::EventPrefetcher> prefetcher;
            if (counting != Counting::none && !census_bound && eventlog::SplitPrefetcher::worthwhile(reader))
                take(split.emplace(reader, first_pass, plan.counted_only,
                                   std::array{collector.repeats(), collector.repeats()}));
            else if (counting != Counting::none)
                take(prefetcher.emplace(reader, first_pass,
                                        eventlog::EventPrefetcher::CountOnly{&plan.counted_only, collector.repeats()}));
            else
                take(prefetcher.emplace(reader, first_pass));
            split.reset();  // the workers' CPU time is reported once they stopped (and a part's problems)
            prefetcher.reset();
            if (options.window.spec.active()) {
                options.window.bounds = window.bounds();
                // Skipping to the start by (time, offset) gives what this pass read only if the
                // merge was exact.
                if (first_pass.count(Diagnostic::reorder_window_exceeded) == 0 &&
                    report.diagnostics.count(Diagnostic::reorder_window_exceeded) == 0)
                    window_start = window.take_start_state();
            }
        } catch (const run::CensusNeedsEveryWakeup&) {
            report.timings.census_cpu.reader += reader_cpu;
            continue;  // counting the GC events only
        }
        report.timings.census_cpu.reader += reader_cpu;
        if (counting == Counting::none || first_pass.total() == 0) break;
    }
    return census;
}

// One eventlog into `profile`: its own process and tracks, in two passes over the events.
// The first (a census) learns what the layout needs: the threads and how long each ran, the
// capabilities, the run's facts, where time-profile ticks are. The second streams: analyses
// hand spans and samples to the threading mapper, which adds them to their tracks at once;
// every contributor sees the events its interests hold (pass_plan.hpp), then adds what it kept. Of a
// window, only the first pass reads what comes before it: the second begins at its start
// (window/window_start.hpp).
void add_run(fxprof::Profile& profile, const std::string& input, const ConvertOptions& given,
             const RunPlacement& placement, ConversionReport& report) {
    ConvertOptions options = given;
    // The eventlog's name only, never its path (with or without --redact-paths): it names the
    // profile when the log has no program arguments, and profiles get shared.
    options.input_name = std::string(redaction::file_name(options.input_name));
    const redaction::RewriteOptions rewriting{
        .shift_to_zero = placement.count > 1, .redact_args = options.redact_args, .redact_paths = options.redact_paths};
    Stopwatch stopwatch;
    eventlog::InputFile file(input);
    // Each pass reads the input about once: its bytes read measure how far it has got.
    util::Progress* const progress = options.progress;
    auto begin_phase = [&](const char* phase) {
        if (progress) progress->begin(phase, file.size().value_or(0));
    };
    file.count_reads(progress);
    begin_phase("index");

    // The reader indexes the eventlog once (its problems are reported); both passes merge,
    // each on a second thread beside its consumer (EventPrefetcher).
    // The index may learn the census on the way (block_census.hpp); else a pass takes it.
    redaction::EventRewriter block_rewriter(rewriting);
    std::optional<run::BlockCensus> blocks = block_census_for(options, rewriting, block_rewriter);
    eventlog::TimeOrderedReader reader(file, report.diagnostics, blocks ? &blocks->reading() : nullptr);
    report.stream_end = reader.stream_end();
    report.timings.index = stopwatch.lap();
    begin_phase("census");
    double cpu_mark = util::thread_cpu_seconds();
    std::optional<run::RunCensus> learnt;
    if (blocks && reader.in_order()) {
        learnt = blocks->finish();
        report.timings.census_from_blocks = learnt.has_value();
        report.timings.blocks_declined = blocks->declined_why();
    } else if (blocks) {
        report.timings.blocks_declined = "the index needed decoding";
    }
    const bool census_bound = blocks && blocks->threads_made_often();
    blocks.reset();  // its shares' memory
#ifdef __GLIBC__
    // Given back now, not kept by the arena of the index's helper thread, which no later phase
    // uses: the index's, and the census's shares where it was learnt from the blocks.
    malloc_trim(0);
#endif
    std::optional<window::WindowStart> window_start;  // the second pass begins there
    run::RunCensus census =
        learnt ? std::move(*learnt) : take_census(reader, options, rewriting, report, window_start, census_bound);
    report.run = census.run;
    report.timings.census = stopwatch.lap();
    report.timings.census_cpu.analyses = util::thread_cpu_seconds() - cpu_mark;
    cpu_mark = util::thread_cpu_seconds();
    begin_phase("events");
    analysis::ThreadingResult kept_result;  // only with time-profile ticks (below)
    // The output budget chooses the detail from the census, before anything is added.
    const std::uint64_t first = census.run.first_time, last = census.run.last_time;
    report.duration_ns = last > first ? last - first : 0;
    report.wanted_detail = Detail{
        .spans = options.marker_resolution_ns ? span_detail_for(*options.marker_resolution_ns)
                                              : default_span_detail(report.duration_ns, options.sampling_interval_ns),
        .sampling_interval_ns = options.sampling_interval_ns,
        .thread_tracks = options.all_threads ? census.threads.threads().size() : options.max_threads};
    report.max_profile_bytes = options.max_profile_bytes / placement.count;
    report.detail = choose_detail(census.detail, report.duration_ns,
                                  {.max_bytes = report.max_profile_bytes,
                                   .wanted = report.wanted_detail,
                                   .resolution_fixed = options.marker_resolution_ns.has_value(),
                                   .interval_fixed = options.sampling_interval_fixed,
                                   .threads_fixed = options.all_threads});
    options.sampling_interval_ns = report.detail.detail.sampling_interval_ns;
    if (!options.all_threads) options.max_threads = report.detail.detail.thread_tracks;
    options.folded_thread_names = report.detail.detail.folded_names;
    ProfileContext context(profile, options, report.run, census.threads, kept_result);
    context.process_name = placement.process_name;
    context.run_index = placement.index;
    context.run_count = placement.count;
    context.census = &census;
    context.stream_end = &report.stream_end;
    context.tick_coverage = &census.tick_coverage;
    context.categories = declare_categories(profile);
    context.span_detail = report.detail.detail.spans;
    context.detail_choice = &report.detail;
    context.wanted_detail = &report.wanted_detail;
    // Counters follow the same detail: samples closer than the resolution merge (exact totals).
    profile.set_counter_resolution(
        fxprof::Duration::from_nanos(static_cast<std::int64_t>(context.span_detail.resolution)));
    std::vector<DiagnosticMoment> diagnostic_moments;
    context.diagnostic_moments = &diagnostic_moments;
    DiagnosticWatcher watcher(report.diagnostics);
    // The threading mapper first: it lays out the tracks (contributors.hpp).
    Contributors parts = make_contributors(options, report.diagnostics);
    for (auto& part : parts.all) part->begin(context);

    // Time-profile ticks take over the CPU time of the virtual samples they replace (the
    // cost-centre contributor), which needs every span and sample: a profiled log keeps them.
    analysis::ThreadingResultCollector collector;
    analysis::ThreadingTee tee(*parts.threading, collector);
    const bool keep_threading = census.ticks > 0;
    analysis::ThreadingSink& threading_sink =
        keep_threading ? static_cast<analysis::ThreadingSink&>(tee) : *parts.threading;
    const bool planned = options.pass_mode != pass::PassMode::naive && !options.window.spec.active();
    analysis::ThreadingOptions threading_options;
    threading_options.sampling_interval_ns = options.sampling_interval_ns;
    // The threads' lives on the reader's thread (reader_thread_lives.hpp): the folded ones
    // where they go without their names, else those with a track of their own; the consumer's
    // analysis follows the others. Not where the sink needs every span and sample (ticks).
    std::unique_ptr<analysis::FoldedShare> folded_share;  // where the folded lives are beside: their share
    std::optional<analysis::ReaderThreadLives> beside;
    const bool folded = !options.folded_thread_names && parts.threading->folds_threads();
    std::vector<eventlog::ThreadId> own_ids = parts.threading->own_thread_ids();
    if (planned && !keep_threading && !rewriting.shift_to_zero && (folded || !own_ids.empty())) {
        if (folded) folded_share = std::make_unique<analysis::FoldedShare>();
        beside.emplace(analysis::ReaderThreadLives::Setup{std::move(own_ids), folded, options.sampling_interval_ns,
                                                          context.span_detail, folded_share.get()},
                       *parts.threading, report.diagnostics);
        using LivesElsewhere = analysis::ThreadingOptions::LivesElsewhere;
        threading_options.lives_elsewhere = folded ? LivesElsewhere::others : LivesElsewhere::own;
        threading_options.own_threads = &beside->own();
        threading_options.folded_share = folded_share.get();
        if (!folded) parts.threading->flush_elsewhere([&beside](std::size_t track) { beside->deliver_flush_of(track); });
        report.timings.lives_beside_reader = true;
    }
    analysis::ThreadingAnalysis threading(report.diagnostics, threading_options, &threading_sink);

    run::ForgottenLabels forgotten_labels(census.threads, run::forgotten_grace_ns(options.sampling_interval_ns));
    context.forgotten_labels = &forgotten_labels;
    analysis::RunningThreads running_threads;  // for every contributor that notes who wrote an event
    context.running_threads = &running_threads;
    redaction::EventRewriter rewriter(rewriting);
    eventlog::EventPrefetcher events(reader, report.diagnostics,
                                     window_start ? std::optional(window_start->first) : std::nullopt,
                                     beside ? &*beside : nullptr);
    events.report_worker_cpu(&report.timings.events_cpu.reader);  // when it is destroyed, below
    // Every contributor gets the events its interests hold; what no part on this thread reads
    // comes undecoded.
    std::vector<pass::PassPart*> dispatched;
    for (auto& part : parts.all) dispatched.push_back(part.get());
    const pass::PartDispatch dispatch(dispatched);
    std::vector<pass::Interests> asked = dispatch.interests();
    asked.push_back(analysis::ThreadingAnalysis::interests());
    asked.push_back(run::ForgottenLabels::interests());
    asked.push_back(analysis::RunningThreads::interests());
    if (planned) events.leave_undecoded(~pass::plan_pass(asked).decoded);
    window::EventWindow window(options.window.spec, std::move(window_start));
    eventlog::EventClock clock;
    while (const eventlog::Event* next = window.next(events)) {
        const eventlog::Event* event = &rewriter.apply(*next);
        forgotten_labels.handle(*event);
        running_threads.handle(*event);
        threading.handle(*event);
        if (beside) events.deliver_worker_outputs();
        clock.add(event->time);
        dispatch.handle(*event);
        watcher.after(*event, diagnostic_moments);
    }
    context.event_clock = &clock;
    analysis::ThreadingResult lives;
    if (beside) {
        events.deliver_worker_outputs_to_end();
        lives = threading.finish([&](eventlog::ThreadId id) { beside->deliver_ends_before(id); });
        beside->deliver_ends_before(std::nullopt);
    } else {
        lives = threading.finish();
    }
    if (keep_threading) kept_result = collector.take(lives.end_time);
    context.time_shift = rewriter.shift();
    std::uint64_t end = std::max(lives.end_time, report.run.last_time);
    for (auto& part : parts.all) part->contribute(context, end);
    report.mapping = parts.threading->summary();
    report.timings.events = stopwatch.lap();
    report.timings.events_cpu.analyses = util::thread_cpu_seconds() - cpu_mark;
}

std::string run_name(const RunInput& input) {
    if (!input.name.empty()) return input.name;
    if (input.path == "-") return "stdin";
    std::string name(redaction::file_name(input.path));
    const std::string ext = ".eventlog";
    if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0)
        name.resize(name.size() - ext.size());
    return name;
}

}  // namespace

fxprof::Profile build_profile(const std::string& input, const ConvertOptions& options, ConversionReport& report) {
    const sources::SourceRoots roots(options.source_dirs);  // first: a bad directory fails before the work
    fxprof::Profile profile("GHC program");                 // the mapper names it
    add_run(profile, input, options, {}, report);
    if (!roots.empty()) report.sources = embed_sources(profile, roots);
    return profile;
}

fxprof::Profile build_profile(const std::vector<RunInput>& inputs, const ConvertOptions& options,
                              std::vector<ConversionReport>& reports) {
    if (inputs.empty()) throw Error("no eventlog to convert");
    const sources::SourceRoots roots(options.source_dirs);  // first: a bad directory fails before the work
    // Names tell the runs apart: a repeated one gets " (2)", " (3)". A single run is named
    // only when asked for (else after its program).
    std::vector<std::string> names;
    for (const RunInput& input : inputs) {
        if (inputs.size() == 1) {
            names.push_back(input.name);
            break;
        }
        std::string name = run_name(input), unique = name;
        for (int n = 2; std::find(names.begin(), names.end(), unique) != names.end(); ++n)
            unique = name + " (" + std::to_string(n) + ")";
        names.push_back(unique);
    }
    fxprof::Profile profile("GHC programs");
    reports.clear();
    reports.resize(inputs.size());
    fxprof::WallClock start{};
    std::int64_t end = 0;
    std::string arguments;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        ConvertOptions run_options = options;
        if (inputs.size() > 1 || run_options.input_name.empty())
            run_options.input_name = inputs[i].path == "-" ? "stdin" : inputs[i].path;
        add_run(profile, inputs[i].path, run_options, {names[i], i, inputs.size()}, reports[i]);
        // The meta is the first run's; every run starts at 0, the range covers the longest.
        if (i == 0) start = profile.meta().start_time;
        end = std::max(end, profile.profiling_range().second.nanos());
        std::string args;
        for (const std::string& a : reports[i].run.args) args += (args.empty() ? "" : " ") + a;
        if (!args.empty()) arguments += (arguments.empty() ? "" : "; ") + names[i] + ": " + args;
    }
    if (inputs.size() > 1) {
        std::string product;
        for (const std::string& name : names) product += (product.empty() ? "" : " vs ") + name;
        profile.set_product(product);
        profile.set_start_time(start);
        profile.set_arguments(arguments);
        profile.set_profiling_range(fxprof::Timestamp{}, fxprof::Timestamp::from_nanos(std::max<std::int64_t>(end, 1)));
        add_run_comparison(profile, inputs, names, options);  // issue 37: the runs' heaps on one scale, the comparison
    }
    if (!roots.empty()) reports.front().sources = embed_sources(profile, roots);
    return profile;
}

RunsReport convert_eventlogs(const std::vector<RunInput>& inputs, const std::string& output,
                             const ConvertOptions& options) {
    RunsReport report;
    fxprof::OutputFile out(output);  // first: a bad output path fails before the work
    fxprof::Profile profile = build_profile(inputs, options, report.runs);
    if (options.progress) options.progress->begin("write", 0);
    Stopwatch writing;
    report.written = fxprof::write_profile_gz(profile, out);
    report.write_seconds = writing.lap();
    report.output_bytes = out.bytes_written();
    if (options.progress) options.progress->end();
    return report;
}

std::string default_output_path(const std::vector<RunInput>& inputs) {
    if (inputs.size() == 1) return default_output_path(inputs[0].path);
    std::string dir;
    if (inputs[0].path != "-") {
        std::size_t slash = inputs[0].path.find_last_of('/');
        if (slash != std::string::npos) dir = inputs[0].path.substr(0, slash + 1);
    }
    std::string name;
    for (const RunInput& input : inputs) {
        RunInput unnamed{input.path, {}};
        name += (name.empty() ? "" : "-vs-") + run_name(unnamed);
    }
    return dir + name + ".json.gz";
}

ConversionReport convert_eventlog(const std::string& input, const std::string& output, const ConvertOptions& options) {
    ConversionReport report;
    fxprof::OutputFile out(output);  // first: a bad output path fails before the work
    fxprof::Profile profile = build_profile(input, options, report);
    if (options.progress) options.progress->begin("write", 0);
    Stopwatch writing;
    report.written = fxprof::write_profile_gz(profile, out);
    report.timings.write = writing.lap();
    report.output_bytes = out.bytes_written();
    if (options.progress) options.progress->end();
    return report;
}

std::string default_output_path(const std::string& input) {
    std::string base = input;
    const std::string ext = ".eventlog";
    if (base.size() > ext.size() && base.compare(base.size() - ext.size(), ext.size(), ext) == 0)
        base.resize(base.size() - ext.size());
    return base + ".json.gz";
}

}  // namespace el2fx::convert
