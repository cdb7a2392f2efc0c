// The markers of capabilities and Haskell threads, as the threading analysis hands over their
// spans: "Mutator" and "Idle" on a capability's track (collections are the GC contributor's),
// "Running" and why a thread stopped ("Waiting for GC", "Blocked on an MVar", …) on a
// thread's own track, and its moments (created, migrated, woken, labelled, finished). Spans
// shorter than the marker resolution are merged (span_detail.hpp); folded threads get none.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/run/thread_catalog.hpp"
#include "analysis/threading/off_cpu_state.hpp"
#include "analysis/threading/stop_status_text.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "convert/merged_markers.hpp"
#include "convert/profile_context.hpp"
#include "convert/thread_track_layout.hpp"
#include "convert/threading_marker_types.hpp"

namespace el2fx::convert {

class ThreadingMarkers {
public:
    ThreadingMarkers(ProfileContext& context, const ThreadTrackLayout& layout);

    // Declares the marker types: before the layout, whose thread names come after their strings.
    void declare();
    // After the layout: a span filter for each track.
    void begin();
    void capability_span(eventlog::CapNo cap, const analysis::CapabilitySpan& span);
    void thread_span(eventlog::ThreadId id, const analysis::ThreadStateSpan& span);
    // Created, migrated, woken, labelled, finished (run::ThreadCatalog), as they happen.
    void moment(const run::ThreadMoment& m);
    // Adds the markers the filters still hold.
    void finish();

private:
    struct Idle {};
    struct CapabilityTrack {
        fxprof::ThreadHandle handle;
        SpanDetailFilter<eventlog::ThreadId> mutators;
        SpanDetailFilter<Idle> idles;
    };
    // A group of merged stopped spans is named by the stop status that took most of its time.
    struct StoppedTally {
        analysis::StopStatusTally by_status;
        void add(const analysis::ThreadActivity& a, std::uint64_t duration) {
            by_status.add(a.reason.status, duration);
        }
        void reset() { by_status.reset(); }
    };
    using StoppedFilter = SpanDetailFilter<analysis::ThreadActivity, StoppedTally>;
    // By the layout's own track index.
    struct OwnThread {
        fxprof::ThreadHandle handle;
        SpanDetailFilter<eventlog::CapNo> running;
        // One stream per kind of stop (waiting for GC, runnable, …): each is a row of its own.
        std::array<StoppedFilter, analysis::kOffCpuKinds> stopped;
        // Its migrations and wake-ups (kMergedMoments), merged where they crowd.
        std::array<SpanDetailFilter<run::ThreadMoment>, 2> moments;
    };
    // The moment kinds that come often enough to be merged, by their place in OwnThread::moments.
    static constexpr std::array<run::ThreadMoment::Kind, 2> kMergedMoments = {run::ThreadMoment::Kind::migrated,
                                                                               run::ThreadMoment::Kind::woken};
    struct StoppedSink;

    OwnThread* own_thread(eventlog::ThreadId id) {
        std::optional<std::uint32_t> i = layout_.own_track_index(id);
        return i ? &own_[*i] : nullptr;
    }
    auto mutator_sink(fxprof::ThreadHandle t);
    auto idle_sink(fxprof::ThreadHandle t);
    auto running_sink(fxprof::ThreadHandle t);
    StoppedSink stopped_sink(fxprof::ThreadHandle t);
    auto moment_sink(fxprof::ThreadHandle t, run::ThreadMoment::Kind kind);
    fxprof::StringHandle stopped_name(std::uint16_t status);
    fxprof::CategoryHandle stopped_category(std::uint16_t status) const;
    fxprof::StringHandle moment_name(run::ThreadMoment::Kind kind) const;
    void add_moment(fxprof::ThreadHandle t, const run::ThreadMoment& m);

    ProfileContext& ctx_;
    fxprof::Profile& p_;
    const ThreadTrackLayout& layout_;
    fxprof::CategoryHandle other_{0}, idle_{0}, running_{0};
    std::array<fxprof::CategoryHandle, analysis::kOffCpuKinds> stopped_categories_;  // by OffCpuKind
    std::array<std::optional<fxprof::StringHandle>, 32>
        stopped_names_;  // marker names by stop status; the last: others
    ThreadingMarkerNames names_;
    std::map<eventlog::CapNo, CapabilityTrack> caps_;
    std::vector<OwnThread> own_;  // by the layout's own track index
};

}  // namespace el2fx::convert
