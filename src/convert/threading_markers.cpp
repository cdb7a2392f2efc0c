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
      stopped_categories_(context.categories.off_cpu()) {
    for (std::size_t status = 0; status < off_cpu_kinds_.size(); ++status)
        off_cpu_kinds_[status] = analysis::off_cpu_kind(static_cast<std::uint16_t>(status));
}

void ThreadingMarkers::declare() {
    names_ = intern_threading_marker_names(p_);
    ctx_.eventlog_warning_name = names_.warning;
}

void ThreadingMarkers::begin() {
    for (const auto& [cap, t] : layout_.capability_tracks()) caps_.emplace(cap, CapabilityTrack{t});
    merger_.emplace(ctx_.span_detail);
    const SpanDetailFilter<run::ThreadMoment> moments(ctx_.span_detail);
    for (const ThreadTrackLayout::OwnTrack& t : layout_.own_tracks())
        own_.push_back(OwnThread{t.handle, analysis::ThreadSpanFilters(ctx_.span_detail), {moments, moments}});
    // own_ has its tracks now: no answer from before stands. Room for each own thread's.
    recent_own_.reset(util::recent_slots_for(own_.size()));
}

// A capability's mutator spans: a marker naming the thread that ran.
struct ThreadingMarkers::MutatorSink {
    ThreadingMarkers& m;
    ThreadHandle t;
    void span(std::uint64_t start, std::uint64_t end, ThreadId id) {
        StringHandle name = m.p_.handle_for_string(m.ctx_.thread_name(id));
        m.p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), m.names_.mutator, m.running_,
                        MutatorMarker{.thread = name, .thread_id = id});
    }
    void merged(const MergedSpans& group) { add_merged_marker(m.p_, t, m.names_.mutator, m.running_, group); }
};
// A thread's running spans: a marker naming the capability it ran on.
struct ThreadingMarkers::RunningSink {
    ThreadingMarkers& m;
    ThreadHandle t;
    void span(std::uint64_t start, std::uint64_t end, CapNo cap) {
        m.p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), m.names_.running, m.running_,
                        RunningMarker{.cap = cap});
    }
    void merged(const MergedSpans& group) { add_merged_marker(m.p_, t, m.names_.running, m.running_, group); }
};
// A thread's stopped spans: a marker named by why it stopped ("Waiting for GC", "Blocked on
// an MVar"), a merged group by the status that took most of its time.
struct ThreadingMarkers::StoppedSink {
    ThreadingMarkers& m;
    ThreadHandle t;
    void span(std::uint64_t start, std::uint64_t end, const ThreadActivity& a) {
        const StringHandle reason = m.reason_text(a.reason);
        m.p_.add_marker(t, MarkerTiming::interval(at(start), at(end)), m.stopped_name(a.reason.status),
                        m.stopped_category(a.reason.status),
                        ThreadStoppedMarker{.reason = reason, .status = a.reason.status, .blocker = a.reason.blocker});
    }
    void merged(const MergedSpans& group, const analysis::StoppedTally& tally) {
        merged(group, tally.by_status.dominant());
    }
    void merged(const MergedSpans& group, std::uint16_t status) {
        add_merged_marker(m.p_, t, m.stopped_name(status), m.stopped_category(status), group);
    }
};
void ThreadingMarkers::MomentSink::span(std::uint64_t, std::uint64_t, const run::ThreadMoment& moment) {
    m.add_moment(t, moment);
}
void ThreadingMarkers::MomentSink::merged(const MergedSpans& group) {
    add_merged_marker(m.p_, t, m.moment_name(kind), m.other_, group);
}

template <class Text>
StringHandle ThreadingMarkers::by_status(StatusStrings& kept, std::uint16_t status, bool kept_for_status, Text&& text) {
    const std::size_t slot = std::min<std::size_t>(status, kept.size() - 1);
    if (slot == kept.size() - 1 || !kept_for_status) return p_.handle_for_string(text());
    if (!kept[slot]) kept[slot] = p_.handle_for_string(text());
    return *kept[slot];
}
StringHandle ThreadingMarkers::stopped_name(std::uint16_t status) {
    return by_status(stopped_names_, status, true, [&] { return analysis::off_cpu_marker_name(status); });
}
StringHandle ThreadingMarkers::reason_text(const analysis::BlockReason& reason) {
    return by_status(reason_texts_, reason.status, !analysis::block_reason_names_blocker(reason),
                     [&] { return analysis::block_reason_text(reason); });
}
CategoryHandle ThreadingMarkers::stopped_category(std::uint16_t status) const {
    return stopped_categories_[static_cast<std::size_t>(off_cpu_kind(status))];
}

void ThreadingMarkers::finish(const std::function<void(std::size_t)>& flush_elsewhere) {
    merger_->finish([this](CapNo cap, const analysis::KeptCapabilitySpan& kept) { capability_marker(cap, kept); });
    for (std::size_t i = 0; i < own_.size(); ++i) {
        OwnThread& track = own_[i];
        if (flush_elsewhere) flush_elsewhere(i);
        RunningSink running{*this, track.handle};
        StoppedSink stopped{*this, track.handle};
        track.spans.finish(running, stopped);
    }
    // Last, track by track (own_ is in track order), migrations before wake-ups.
    for (OwnThread& track : own_)
        for (std::size_t k = 0; k < kMergedMoments.size(); ++k) {
            MomentSink sink{*this, track.handle, kMergedMoments[k]};
            track.moments[k].finish(sink);
        }
}

// "Mutator" (naming the thread that ran) and "Idle"; the GC contributor marks the collections
// ("GC pause").
void ThreadingMarkers::capability_marker(CapNo cap, const analysis::KeptCapabilitySpan& kept) {
    CapabilityTrack* track = caps_.find(cap);
    if (!track) return;
    const MergedSpans& span = kept.merged;
    switch (kept.state) {
        case CapabilityState::idle:
            if (kept.kept_as_is())
                p_.add_marker(track->handle, MarkerTiming::interval(at(span.start), at(span.end)), names_.idle, idle_,
                              IdleMarker{});
            else
                add_merged_marker(p_, track->handle, names_.idle, idle_, span);
            break;
        case CapabilityState::mutator:
            if (kept.kept_as_is())
                MutatorSink{*this, track->handle}.span(span.start, span.end, kept.thread);
            else
                MutatorSink{*this, track->handle}.merged(span);
            break;
        case CapabilityState::gc: break;
    }
}

void ThreadingMarkers::thread_span(ThreadId id, const analysis::ThreadStateSpan& span) {
    OwnThread* own = own_thread(id);
    if (!own) return;  // folded threads: samples only
    RunningSink running{*this, own->handle};
    StoppedSink stopped{*this, own->handle};
    own->spans.offer(span, off_cpu_kind(span.activity.reason.status), running, stopped);
}

void ThreadingMarkers::running_span(std::size_t track, std::uint64_t start, std::uint64_t end, CapNo cap) {
    RunningSink{*this, own_[track].handle}.span(start, end, cap);
}
void ThreadingMarkers::running_merged(std::size_t track, const MergedSpans& group) {
    RunningSink{*this, own_[track].handle}.merged(group);
}
void ThreadingMarkers::stopped_span(std::size_t track, std::uint64_t start, std::uint64_t end,
                                    const analysis::ThreadActivity& a) {
    StoppedSink{*this, own_[track].handle}.span(start, end, a);
}
void ThreadingMarkers::stopped_merged(std::size_t track, const MergedSpans& group, std::uint16_t status) {
    StoppedSink{*this, own_[track].handle}.merged(group, status);
}

void ThreadingMarkers::rare_moment(const run::ThreadMoment& m) {
    OwnThread* own = own_thread(m.thread);
    if (!own) return;            // folded threads: samples only
    add_moment(own->handle, m);  // at most a few per thread: each keeps its marker
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
