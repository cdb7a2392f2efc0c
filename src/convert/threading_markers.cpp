#include "convert/threading_markers.hpp"

#include <algorithm>

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using analysis::CapabilityState;
using analysis::ThreadActivity;
using analysis::ThreadState;
using eventlog::CapNo;
using eventlog::ThreadId;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

}  // namespace

ThreadingMarkers::ThreadingMarkers(ProfileContext& context, const ThreadTrackLayout& layout)
    : ctx_(context),
      p_(context.profile),
      layout_(layout),
      other_(context.categories.other),
      idle_(context.categories.idle),
      running_(context.categories.running),
      stopped_categories_(context.categories.off_cpu()) {}

void ThreadingMarkers::declare() {
    names_ = intern_threading_marker_names(p_);
    ctx_.eventlog_warning_name = names_.warning;
}

void ThreadingMarkers::begin() {
    for (const auto& [cap, t] : layout_.capability_tracks())
        caps_.emplace(cap, CapabilityTrack{t, SpanDetailFilter<ThreadId>(ctx_.span_detail),
                                           SpanDetailFilter<Idle>(ctx_.span_detail)});
    const StoppedFilter stopped(ctx_.span_detail);
    const SpanDetailFilter<run::ThreadMoment> moments(ctx_.span_detail);
    for (const ThreadTrackLayout::OwnTrack& t : layout_.own_tracks())
        own_.push_back(OwnThread{t.handle,
                                 SpanDetailFilter<CapNo>(ctx_.span_detail),
                                 {stopped, stopped, stopped, stopped},
                                 {moments, moments}});
}

auto ThreadingMarkers::mutator_sink(ThreadHandle t) {
    return MarkerSink{p_, t, names_.mutator, running_, [this, t](std::uint64_t start, std::uint64_t end, ThreadId id) {
                          StringHandle name = p_.handle_for_string(ctx_.thread_name(id));
                          p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), names_.mutator, running_,
                                        MutatorMarker{.thread = name, .thread_id = id});
                      }};
}
auto ThreadingMarkers::idle_sink(ThreadHandle t) {
    return MarkerSink{p_, t, names_.idle, idle_, [this, t](std::uint64_t start, std::uint64_t end, Idle) {
                          p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), names_.idle, idle_,
                                        IdleMarker{});
                      }};
}
auto ThreadingMarkers::running_sink(ThreadHandle t) {
    return MarkerSink{p_, t, names_.running, running_, [this, t](std::uint64_t start, std::uint64_t end, CapNo cap) {
                          p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), names_.running, running_,
                                        RunningMarker{.cap = cap});
                      }};
}
// A thread's stopped spans: a marker named by why it stopped ("Waiting for GC", "Blocked on
// an MVar"), a merged group by the status that took most of its time.
struct ThreadingMarkers::StoppedSink {
    ThreadingMarkers& m;
    ThreadHandle t;
    void span(std::uint64_t start, std::uint64_t end, const ThreadActivity& a) {
        StringHandle reason = m.p_.handle_for_string(analysis::block_reason_text(a.reason));
        m.p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), m.stopped_name(a.reason.status),
                        m.stopped_category(a.reason.status),
                        ThreadStoppedMarker{.reason = reason, .status = a.reason.status, .blocker = a.reason.blocker});
    }
    void merged(const MergedSpans& group, const StoppedTally& tally) {
        const std::uint16_t status = tally.by_status.dominant();
        add_merged_marker(m.p_, t, m.stopped_name(status), m.stopped_category(status), group);
    }
};
ThreadingMarkers::StoppedSink ThreadingMarkers::stopped_sink(ThreadHandle t) { return StoppedSink{*this, t}; }

StringHandle ThreadingMarkers::stopped_name(std::uint16_t status) {
    std::size_t slot = std::min<std::size_t>(status, stopped_names_.size() - 1);
    if (slot == stopped_names_.size() - 1) return p_.handle_for_string(analysis::off_cpu_marker_name(status));
    if (!stopped_names_[slot]) stopped_names_[slot] = p_.handle_for_string(analysis::off_cpu_marker_name(status));
    return *stopped_names_[slot];
}
CategoryHandle ThreadingMarkers::stopped_category(std::uint16_t status) const {
    return stopped_categories_[static_cast<std::size_t>(analysis::off_cpu_kind(status))];
}
auto ThreadingMarkers::moment_sink(ThreadHandle t, run::ThreadMoment::Kind kind) {
    return MarkerSink{p_, t, moment_name(kind), other_,
                      [this, t](std::uint64_t, std::uint64_t, const run::ThreadMoment& m) { add_moment(t, m); }};
}

void ThreadingMarkers::finish() {
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
    // Last, track by track (own_ is in track order), migrations before wake-ups.
    for (OwnThread& track : own_)
        for (std::size_t k = 0; k < kMergedMoments.size(); ++k) {
            auto sink = moment_sink(track.handle, kMergedMoments[k]);
            track.moments[k].finish(sink);
        }
}

void ThreadingMarkers::capability_span(CapNo cap, const analysis::CapabilitySpan& span) {
    auto it = caps_.find(cap);
    if (it == caps_.end()) return;
    CapabilityTrack* track = &it->second;
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

void ThreadingMarkers::thread_span(ThreadId id, const analysis::ThreadStateSpan& span) {
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

void ThreadingMarkers::moment(const run::ThreadMoment& m) {
    using Kind = run::ThreadMoment::Kind;
    OwnThread* own = own_thread(m.thread);
    if (!own) return;  // folded threads: samples only
    ThreadHandle t = own->handle;
    if (m.kind != Kind::woken && m.kind != Kind::migrated) {
        add_moment(t, m);  // at most a few per thread: each keeps its marker
        return;
    }
    // Wake-ups and migrations are merged where they crowd (a thread woken thousands of times).
    const std::size_t k = m.kind == kMergedMoments[0] ? 0 : 1;
    auto sink = moment_sink(t, m.kind);
    own->moments[k].offer(m.time, m.time, m, sink);
}

StringHandle ThreadingMarkers::moment_name(run::ThreadMoment::Kind kind) const {
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

void ThreadingMarkers::add_moment(ThreadHandle t, const run::ThreadMoment& m) {
    using Kind = run::ThreadMoment::Kind;
    MarkerTiming timing = MarkerTiming::instant(at(m.time));
    switch (m.kind) {
        case Kind::created: p_.add_marker(t, timing, names_.created, other_, ThreadCreatedMarker{.cap = m.cap}); break;
        case Kind::migrated:
            p_.add_marker(t, timing, names_.migrated, other_, ThreadMigratedMarker{.from = m.cap, .to = m.other_cap});
            break;
        case Kind::woken:
            p_.add_marker(t, timing, names_.woken, other_, ThreadWokenMarker{.by = m.cap, .on = m.other_cap});
            break;
        case Kind::labelled: {
            const run::ThreadFacts* f = ctx_.threads.find(m.thread);
            if (!f) break;
            StringHandle label = p_.handle_for_string(ctx_.threads.nth_label(*f, m.label_index));
            p_.add_marker(t, timing, names_.labelled, other_, ThreadLabelledMarker{.label = label});
            break;
        }
        case Kind::finished:
            p_.add_marker(t, timing, names_.finished, other_, ThreadFinishedMarker{.cap = m.cap});
            break;
    }
}

}  // namespace el2fx::convert
