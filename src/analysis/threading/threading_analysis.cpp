#include "analysis/threading/threading_analysis.hpp"

#include <algorithm>
#include <vector>

#include "analysis/threading/sampling_interval.hpp"

namespace el2fx::analysis {
namespace {

bool is_scheduler_event(const eventlog::Event& event) {
    return event.as<eventlog::RunThread>() || event.as<eventlog::StopThread>() || event.as<eventlog::StartGC>() ||
           event.as<eventlog::EndGC>() || event.as<eventlog::WakeupThread>();
}

}  // namespace

ThreadingAnalysis::ThreadingAnalysis(Diagnostics& diagnostics, ThreadingOptions options, ThreadingSink* sink)
    : diagnostics_(diagnostics),
      options_(options),
      sink_(sink ? *sink : collector_),
      own_sink_(sink == nullptr),
      lives_(diagnostics, options.sampling_interval_ns, sink_, recent_slots(options)) {
    check_sampling_interval(options_.sampling_interval_ns);
}

pass::Interests ThreadingAnalysis::interests() {
    using namespace eventlog;
    return pass::Interests::every_event({RunThread::tag, StopThread::tag, StartGC::tag, EndGC::tag, GCWork::tag,
                                         GCIdle::tag, GCDone::tag, WakeupThread::tag, HeapProfSampleBegin::tag});
}

void ThreadingAnalysis::handle(const eventlog::Event& event) {
    // The reader's order is exact unless it counted reorder_window_exceeded; a
    // clock that never goes back keeps every span and CPU delta well-formed even then.
    now_ = std::max(now_, event.time);
    if (!event.cap) {
        // Thread and GC events are always written to a capability's buffer.
        if (is_scheduler_event(event)) diagnostics_.add(Diagnostic::scheduler_event_without_capability);
        if (event.as<eventlog::HeapProfSampleBegin>()) settle_census_candidate(GcPhase::census);
        return;
    }
    handle_capability_event(event, *event.cap, now_);
}

void ThreadingAnalysis::handle_capability_event(const eventlog::Event& event, eventlog::CapNo cap, std::uint64_t time) {
    // The capability's sink calls come before the thread's for each event.
    if (census_candidate_ && census_candidate_->cap == cap) settle_census_candidate(GcPhase::done);
    CapabilityTrack* const c = &capability(cap, time);
    // By tag (a payload has one tag), then its payload: one jump instead of a test per kind.
    switch (event.tag) {
        case eventlog::RunThread::tag:
            if (const auto* run = event.as<eventlog::RunThread>()) {
                record(*c, time, c->usage.run_thread(time, run->thread));
                if (follows(run->thread)) lives_.run_thread(run->thread, cap, time);
            }
            break;
        case eventlog::StopThread::tag:
            if (const auto* stop = event.as<eventlog::StopThread>()) {
                record(*c, time, c->usage.stop_thread(time, stop->thread, stop->status));
                if (follows(stop->thread))
                    lives_.stop_thread(stop->thread, time, stop->status, stop->blocker.value_or(0), event.synthetic);
            }
            break;
        case eventlog::StartGC::tag:
            if (event.as<eventlog::StartGC>()) record(*c, time, c->usage.start_gc(time));
            break;
        case eventlog::EndGC::tag:
            if (event.as<eventlog::EndGC>()) record(*c, time, c->usage.end_gc(time));
            break;
        case eventlog::GCWork::tag:
            if (event.as<eventlog::GCWork>()) gc_phase_event(*c, time, GcPhase::working);
            break;
        case eventlog::GCIdle::tag:
            if (event.as<eventlog::GCIdle>()) gc_phase_event(*c, time, GcPhase::idle);
            break;
        case eventlog::GCDone::tag:
            if (event.as<eventlog::GCDone>()) gc_phase_event(*c, time, GcPhase::done);
            break;
        case eventlog::WakeupThread::tag:
            if (const auto* wakeup = event.as<eventlog::WakeupThread>())
                if (follows(wakeup->thread)) lives_.wakeup_thread(wakeup->thread);
            break;
        default: break;
    }
}

ThreadingAnalysis::CapabilityTrack& ThreadingAnalysis::start_capability(eventlog::CapNo cap, std::uint64_t time) {
    if (cap >= capabilities_.size()) capabilities_.resize(std::size_t{cap} + 1);
    std::optional<CapabilityTrack>& slot = capabilities_[cap];
    if (!slot) {
        slot.emplace(CapabilityTrack{cap, CapabilityUsageAnalysis(time, diagnostics_),
                                     VirtualSamplingTimer<CapabilityActivity>(options_.sampling_interval_ns)});
        sink_.capability_started(cap, time);
        slot->timer.enter(time, slot->usage.sample_activity());
        drain(*slot);
    }
    return *slot;
}

void ThreadingAnalysis::record(CapabilityTrack& track, std::uint64_t time, const std::optional<CapabilitySpan>& span) {
    if (span) sink_.capability_span(track.cap, *span);
    track.timer.enter(time, track.usage.sample_activity());
    drain(track);
}

void ThreadingAnalysis::gc_phase_event(CapabilityTrack& track, std::uint64_t time, GcPhase phase) {
    if (!track.usage.in_gc()) return;  // a phase outside a collection changes nothing
    if (phase == GcPhase::done) {
        settle_census_candidate(GcPhase::done);  // an earlier one, on another capability
        census_candidate_ = PendingDone{track.cap, time};
        return;
    }
    track.usage.gc_phase(phase);
    record(track, time, std::nullopt);
}

void ThreadingAnalysis::settle_census_candidate(GcPhase phase) {
    if (!census_candidate_) return;
    const PendingDone pending = *census_candidate_;
    census_candidate_.reset();
    CapabilityTrack& track = *capabilities_[pending.cap];
    track.usage.gc_phase(phase);
    record(track, pending.time, std::nullopt);
}

void ThreadingAnalysis::drain(CapabilityTrack& track) {
    track.timer.drain([&](const Sample<CapabilityActivity>& s) { sink_.capability_sample(track.cap, s); });
}

ThreadingResult ThreadingAnalysis::finish(const std::function<void(eventlog::ThreadId)>& before_thread) {
    settle_census_candidate(GcPhase::done);
    ThreadingResult lives;
    lives.end_time = now_;
    for (std::optional<CapabilityTrack>& track : capabilities_) {
        if (!track) continue;
        if (auto span = track->usage.finish(now_)) sink_.capability_span(track->cap, *span);
        track->timer.finish(now_);
        drain(*track);
        lives.capabilities.push_back(CapabilityTimeline{track->cap, track->usage.start_time(), now_, {}, {}});
    }
    capabilities_.clear();
    lives_.finish(now_, before_thread);
    if (!own_sink_) return lives;
    ThreadingResult result = collector_.take(now_);
    // Capabilities whose life started: the collector knows their start too.
    return result;
}

ThreadingResult analyse_threading(eventlog::TimeOrderedReader& reader, Diagnostics& diagnostics,
                                  ThreadingOptions options) {
    ThreadingAnalysis analysis(diagnostics, options);
    while (const eventlog::Event* event = reader.next()) analysis.handle(*event);
    return analysis.finish();
}

}  // namespace el2fx::analysis
