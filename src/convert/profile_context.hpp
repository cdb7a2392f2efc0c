// What every part of the conversion shares while it adds to the profile: the
// profile itself, the process and its tracks, the categories, and the facts the
// first pass collected. Contributors (profile_contributor.hpp) receive it.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/threading/off_cpu_state.hpp"
#include "analysis/threading/running_threads.hpp"
#include "analysis/threading/threading_result.hpp"
#include "convert/convert_options.hpp"
#include "convert/diagnostic_moment.hpp"
#include "analysis/run/run_info.hpp"
#include "convert/output_budget.hpp"
#include "convert/span_detail.hpp"
#include "analysis/run/thread_catalog.hpp"
#include "eventlog/event_clock.hpp"
#include "eventlog/stream.hpp"
#include "fxprof/profile.hpp"
#include "analysis/ghc_profiling/time_profile.hpp"

namespace el2fx::run {
struct RunCensus;
class ForgottenLabels;
}

namespace el2fx::convert {

class SampledStacks;

// Categories with one meaning everywhere (colours in the activity graph and charts).
struct Categories {
    fxprof::CategoryHandle other{0};    // grey, the default
    fxprof::CategoryHandle idle{0};     // transparent: counts as idle for the profiler
    fxprof::CategoryHandle running{0};  // green: Haskell code runs
    fxprof::CategoryHandle gc{0};       // orange: garbage collection
    fxprof::CategoryHandle gc_wait{0};  // dark grey: a capability waits within a collection
    // Why a Haskell thread does not run (analysis/off_cpu_state.hpp):
    fxprof::CategoryHandle waiting_for_gc{0};  // brown: stopped so that the GC can run
    fxprof::CategoryHandle runnable{0};        // grey: ready, waiting for its capability
    fxprof::CategoryHandle foreign_call{0};    // magenta: in C code outside the RTS
    fxprof::CategoryHandle blocked{0};         // light blue: blocked on an MVar, STM, I/O, …
    fxprof::CategoryHandle user{0};            // yellow: the program's own events (traceEvent, traceMarker)
    fxprof::CategoryHandle memory{0};          // purple: heap, allocation, heap profiles
    fxprof::CategoryHandle warning{0};         // red: something odd in the eventlog

    // The kinds of stop's categories, by analysis::OffCpuKind.
    std::array<fxprof::CategoryHandle, analysis::kOffCpuKinds> off_cpu() const {
        return {waiting_for_gc, runnable, foreign_call, blocked};
    }
};

// Declares the shared categories in the profile.
Categories declare_categories(fxprof::Profile& profile);

class ProfileContext {
public:
    ProfileContext(fxprof::Profile& profile, const ConvertOptions& options, const run::RunInfo& run,
                   const run::ThreadCatalog& threads, const analysis::ThreadingResult& threading)
        : profile(profile), options(options), run(run), threads(threads), threading(threading) {}

    fxprof::Profile& profile;
    const ConvertOptions& options;
    const run::RunInfo& run;
    const run::ThreadCatalog& threads;
    // Every span and sample, kept only for a log with time-profile ticks (the cost-centre
    // contributor needs them); otherwise empty: the threading mapper streamed them.
    const analysis::ThreadingResult& threading;
    // What the first pass learnt (run_census.hpp); its tick coverage says where time-profile
    // ticks stand in for virtual samples.
    const run::RunCensus* census = nullptr;
    const profiling::TickCoverage* tick_coverage = nullptr;
    // Real stack samples that extend the virtual samples' stacks (sampled_stacks.hpp), if any.
    SampledStacks* sampled_stacks = nullptr;
    // The count and time range of every event the second pass handed to the contributors
    // (for the parts that want only these of most events); set before contribute().
    const eventlog::EventClock* event_clock = nullptr;
    Categories categories;
    // How the decoding ended: truncation, corrupt stretches skipped (data_loss.hpp).
    const eventlog::StreamEnd* stream_end = nullptr;
    // How much span detail markers keep (span_detail.hpp), the same for every contributor.
    SpanDetail span_detail{};
    // The detail the output budget chose and the one wanted without it (output_budget.hpp).
    const DetailChoice* detail_choice = nullptr;
    const Detail* wanted_detail = nullptr;
    // The name of "the eventlog did something unexpected here" markers (EventlogWarningMarker):
    // the threading mapper interns it with its own marker names, the run info's problems use it too.
    fxprof::StringHandle eventlog_warning_name{0};
    // Where the analyses found the eventlog odd (converter.cpp), complete after the last event.
    const std::vector<DiagnosticMoment>* diagnostic_moments = nullptr;
    // What the run's times were shifted by (several runs in one profile), set after the last event.
    std::uint64_t time_shift = 0;

    // Several eventlogs in one profile (`eventlog2fxprof a.eventlog b.eventlog`): each run is
    // its own process, named here, and its events reach everyone shifted so that its first
    // event is at time 0 (converter.cpp). A single run: no name of its own, index 0 of 1.
    std::string process_name;  // empty: the program's name
    std::size_t run_index = 0;
    std::size_t run_count = 1;
    // A Profile Info section's label, kept apart per run when there are several:
    // "GHC run" → "GHC run: before". Contributors adding sections use it too.
    std::string section_label(std::string_view label) const {
        return run_count > 1 && !process_name.empty() ? std::string(label) + ": " + process_name : std::string(label);
    }

    fxprof::ProcessHandle process{0};
    // The process's own track (its global track): process-wide markers go here.
    fxprof::ThreadHandle process_track{0};

    static fxprof::Timestamp at(std::uint64_t ns) {
        return fxprof::Timestamp::from_nanos(static_cast<std::int64_t>(ns));
    }

    std::optional<fxprof::ThreadHandle> capability_track(eventlog::CapNo cap) const;
    // The track showing a Haskell thread: its own, or the shared "other threads" one.
    std::optional<fxprof::ThreadHandle> thread_track(eventlog::ThreadId thread) const;
    bool thread_is_folded(eventlog::ThreadId thread) const;
    // The Haskell thread running on a capability at a time (from the capability's
    // mutator spans, so only where `threading` is kept); none when it was idle or
    // collecting garbage. Streaming contributors note it as events come (RunningThreads).
    std::optional<eventlog::ThreadId> running_thread(eventlog::CapNo cap, std::uint64_t time) const;
    // "12 worker" for a labelled thread, "thread 12" otherwise.
    std::string thread_name(eventlog::ThreadId thread) const;

    // Set by the threading mapper, which lays out the tracks (thread_track_layout.hpp).
    std::map<eventlog::CapNo, fxprof::ThreadHandle> capability_tracks;
    // The shared track of the folded threads, if any: also the one of the threads the census
    // forgot (unknown to `threads`, so they cost nothing here).
    std::optional<fxprof::ThreadHandle> folded_track;
    // Their labels as the events go (converter.cpp).
    const run::ForgottenLabels* forgotten_labels = nullptr;
    // The thread each capability runs as the pass reaches each event, kept once for every
    // part (converter.cpp: before the event goes to them).
    const analysis::RunningThreads* running_threads = nullptr;
    void set_thread_track(eventlog::ThreadId thread, fxprof::ThreadHandle track, bool folded);

private:
    // 4 bytes, as there is one per Haskell thread.
    struct ThreadTrack {
        std::uint32_t handle_plus_one : 31 = 0;  // 0: none assigned
        std::uint32_t folded : 1 = 0;
    };
    const ThreadTrack* track_of(eventlog::ThreadId thread) const;
    bool forgotten(eventlog::ThreadId thread) const;
    std::vector<ThreadTrack> thread_tracks_;  // by threads.ordinal()
};

}  // namespace el2fx::convert
