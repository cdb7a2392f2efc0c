// The markers of capabilities and Haskell threads, as the threading analysis hands over their
// spans: "Mutator" and "Idle" on a capability's track (collections are the GC contributor's),
// "Running" and why a thread stopped ("Waiting for GC", "Blocked on an MVar", …) on a
// thread's own track, and its moments (created, migrated, woken, labelled, finished). Spans
// shorter than the marker resolution are merged (span_detail.hpp); folded threads get none.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/run/thread_catalog.hpp"
#include "analysis/threading/capability_span_merger.hpp"
#include "analysis/threading/off_cpu_state.hpp"
#include "analysis/threading/stop_status_text.hpp"
#include "analysis/threading/thread_span_filters.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "convert/capability_table.hpp"
#include "convert/merged_markers.hpp"
#include "convert/profile_context.hpp"
#include "convert/thread_track_layout.hpp"
#include "convert/threading_marker_types.hpp"
#include "util/recent_ids.hpp"

namespace el2fx::convert {

class ThreadingMarkers {
public:
    ThreadingMarkers(ProfileContext& context, const ThreadTrackLayout& layout);

    // Declares the marker types: before the layout, whose thread names come after their strings.
    void declare();
    // After the layout: a span filter for each track.
    void begin();
    void capability_span(eventlog::CapNo cap, const analysis::CapabilitySpan& span) {
        merger_->offer(cap, span, [this](eventlog::CapNo c, const analysis::KeptCapabilitySpan& kept) {
            capability_marker(c, kept);
        });
    }
    void thread_span(eventlog::ThreadId id, const analysis::ThreadStateSpan& span);
    // Created, migrated, woken, labelled, finished (run::ThreadCatalog), as they happen.
    // Inline: wake-ups and migrations come by the million.
    void moment(const run::ThreadMoment& m) {
        using Kind = run::ThreadMoment::Kind;
        if (m.kind != Kind::woken && m.kind != Kind::migrated) return rare_moment(m);
        OwnThread* own = own_thread(m.thread);
        if (!own) return;  // folded threads: samples only
        // Merged where they crowd (a thread woken thousands of times).
        SpanDetailFilter<run::ThreadMoment>& filter = own->moments[m.kind == kMergedMoments[0] ? 0 : 1];
        MomentSink sink{*this, own->handle, m.kind};
        filter.offer(m.time, m.time, m, sink);
    }
    // What the span filters of own track `track` (the layout's own track index) kept where they
    // ran elsewhere (analysis/threading/reader_thread_lives.hpp): the markers their sinks add.
    void running_span(std::size_t track, std::uint64_t start, std::uint64_t end, eventlog::CapNo cap);
    void running_merged(std::size_t track, const MergedSpans& group);
    void stopped_span(std::size_t track, std::uint64_t start, std::uint64_t end, const analysis::ThreadActivity& a);
    void stopped_merged(std::size_t track, const MergedSpans& group, std::uint16_t status);
    // Adds the markers the filters still hold. `flush_elsewhere`, if any, is called with each
    // own track's index where its span filters are flushed: for those that ran elsewhere.
    void finish(const std::function<void(std::size_t)>& flush_elsewhere = {});

private:
    void capability_marker(eventlog::CapNo cap, const analysis::KeptCapabilitySpan& kept);
    struct CapabilityTrack {
        fxprof::ThreadHandle handle;
    };
    // By the layout's own track index.
    struct OwnThread {
        fxprof::ThreadHandle handle;
        analysis::ThreadSpanFilters spans;
        // Its migrations and wake-ups (kMergedMoments), merged where they crowd.
        std::array<SpanDetailFilter<run::ThreadMoment>, 2> moments;
    };
    // The moment kinds that come often enough to be merged, by their place in OwnThread::moments.
    static constexpr std::array<run::ThreadMoment::Kind, 2> kMergedMoments = {run::ThreadMoment::Kind::migrated,
                                                                              run::ThreadMoment::Kind::woken};
    // The sinks of the filters: a track and what to call back (two words to make); the
    // markers' names are looked up only when one is added.
    struct MutatorSink;
    struct RunningSink;
    struct StoppedSink;
    // A thread's migrations or wake-ups: a marker each, a merged group named by their kind.
    struct MomentSink {
        ThreadingMarkers& m;
        fxprof::ThreadHandle t;
        run::ThreadMoment::Kind kind;
        void span(std::uint64_t start, std::uint64_t end, const run::ThreadMoment& moment);
        void merged(const MergedSpans& group);
    };

    // Asked for every span and wake-up: recent answers are kept as the track itself (own_ is
    // fixed after begin()), which spares the layout's lookup and the index arithmetic.
    OwnThread* own_thread(eventlog::ThreadId id) {
        if (OwnThread** own = recent_own_.find(id)) return *own;
        std::optional<std::uint32_t> i = layout_.own_track_index(id);
        return recent_own_.note(id, i ? &own_[*i] : nullptr);
    }
    // analysis::off_cpu_kind, from a table for the statuses GHC has.
    analysis::OffCpuKind off_cpu_kind(std::uint16_t status) const {
        return status < off_cpu_kinds_.size() ? off_cpu_kinds_[status] : analysis::off_cpu_kind(status);
    }
    // Strings kept by stop status, the last for all others (not kept).
    using StatusStrings = std::array<std::optional<fxprof::StringHandle>, 32>;
    // The interned text(), kept for `status` where kept_for_status says the status alone words it.
    template <class Text>
    fxprof::StringHandle by_status(StatusStrings& kept, std::uint16_t status, bool kept_for_status, Text&& text);
    fxprof::StringHandle stopped_name(std::uint16_t status);
    fxprof::StringHandle reason_text(const analysis::BlockReason& reason);
    fxprof::CategoryHandle stopped_category(std::uint16_t status) const;
    fxprof::StringHandle moment_name(run::ThreadMoment::Kind kind) const;
    void rare_moment(const run::ThreadMoment& m);  // created, labelled, finished
    void add_moment(fxprof::ThreadHandle t, const run::ThreadMoment& m);

    ProfileContext& ctx_;
    fxprof::Profile& p_;
    const ThreadTrackLayout& layout_;
    fxprof::CategoryHandle other_{0}, idle_{0}, running_{0};
    std::array<fxprof::CategoryHandle, analysis::kOffCpuKinds> stopped_categories_;  // by OffCpuKind
    StatusStrings stopped_names_;                                                    // marker names by stop status
    StatusStrings reason_texts_;  // stopped markers' reasons, where the status alone words them
    ThreadingMarkerNames names_;
    std::array<analysis::OffCpuKind, 32> off_cpu_kinds_{};  // by stop status
    CapabilityTable<CapabilityTrack> caps_;
    // The capabilities' spans, merged for their markers (made by begin()).
    std::optional<analysis::CapabilitySpanMerger> merger_;
    std::vector<OwnThread> own_;  // by the layout's own track index
    util::RecentIds<OwnThread*> recent_own_;
};

}  // namespace el2fx::convert
