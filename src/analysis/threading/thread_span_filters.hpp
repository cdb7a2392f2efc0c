// The filters of one Haskell thread's spans for its track's markers (span_detail.hpp): its
// running spans, by the capability they ran on, and its stopped spans, one stream per kind of
// stop (each a row of its own), merged below the marker resolution. The threading markers
// keep one per own track (convert/threading_markers.hpp), or a ReaderThreadLives does, on the
// reader's thread, and hands back what they keep.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "analysis/threading/activity.hpp"
#include "analysis/threading/off_cpu_state.hpp"
#include "analysis/threading/span_detail.hpp"
#include "analysis/threading/thread_state_analysis.hpp"
#include "eventlog/event_types.hpp"

namespace el2fx::analysis {

// A group of merged stopped spans is named by the stop status that took most of its time.
struct StoppedTally {
    StopStatusTally by_status;
    void add(const ThreadActivity& a, std::uint64_t duration) { by_status.add(a.reason.status, duration); }
    void reset() { by_status.reset(); }
};

struct ThreadSpanFilters {
    using Stopped = SpanDetailFilter<ThreadActivity, StoppedTally>;

    explicit ThreadSpanFilters(SpanDetail detail)
        : running(detail), stopped{Stopped(detail), Stopped(detail), Stopped(detail), Stopped(detail)} {}

    SpanDetailFilter<eventlog::CapNo> running;
    std::array<Stopped, kOffCpuKinds> stopped;  // by OffCpuKind

    // Running spans to `running_sink`, stopped ones of `kind` to `stopped_sink`.
    template <class RunningSink, class StoppedSink>
    void offer(const ThreadStateSpan& span, OffCpuKind kind, RunningSink& running_sink, StoppedSink& stopped_sink) {
        if (span.activity.state == ThreadState::running)
            running.offer(span.start, span.end, span.activity.cap, running_sink);
        else
            stopped[static_cast<std::size_t>(kind)].offer(span.start, span.end, span.activity, stopped_sink);
    }
    // The pending groups: the running one first, then each kind's in order.
    template <class RunningSink, class StoppedSink>
    void finish(RunningSink& running_sink, StoppedSink& stopped_sink) {
        running.finish(running_sink);
        for (Stopped& filter : stopped) filter.finish(stopped_sink);
    }
};
static_assert(kOffCpuKinds == 4);

}  // namespace el2fx::analysis
