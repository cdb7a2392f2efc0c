#include "analysis/threading/thread_lives.hpp"

#include <algorithm>
#include <vector>

namespace el2fx::analysis {

ThreadLives::ThreadLives(Diagnostics& diagnostics, std::uint64_t sampling_interval_ns, ThreadingSink& sink,
                         std::size_t recent_slots)
    : diagnostics_(diagnostics), sampling_interval_ns_(sampling_interval_ns), sink_(sink), recent_(recent_slots) {}

void ThreadLives::run_thread(eventlog::ThreadId id, eventlog::CapNo cap, std::uint64_t time) {
    if (ThreadTrack* t = thread(id)) record(*t, time, t->state.run_thread(time, cap));
}

void ThreadLives::stop_thread(eventlog::ThreadId id, std::uint64_t time, std::uint16_t status, std::uint32_t blocker,
                              bool at_start) {
    if (ThreadTrack* t = thread(id))
        record(
            *t, time,
            at_start ? t->state.stopped_at_start(time, status, blocker) : t->state.stop_thread(time, status, blocker));
}

void ThreadLives::wakeup_thread(eventlog::ThreadId id) {
    if (ThreadTrack* t = live_thread(id))
        t->state.wakeup_thread();
    else if (finished_.contains(id))
        diagnostics_.add(Diagnostic::event_after_thread_finished);
}

ThreadLives::ThreadTrack* ThreadLives::live_in_map(eventlog::ThreadId id) {
    auto it = threads_.find(id);
    if (it == threads_.end()) return nullptr;
    return recent_.note(id, &it->second);
}

ThreadLives::ThreadTrack* ThreadLives::thread_not_recent(eventlog::ThreadId id) {
    if (ThreadTrack* t = live_in_map(id)) return t;
    if (finished_.contains(id)) {
        diagnostics_.add(Diagnostic::event_after_thread_finished);
        return nullptr;
    }
    // Noted as recent at once: a new thread's next events follow closely.
    return recent_.note(id,
                        &threads_
                             .emplace(id, ThreadTrack{id, ThreadStateAnalysis(diagnostics_),
                                                      UnbufferedSamplingTimer<ThreadActivity>(sampling_interval_ns_)})
                             .first->second);
}

void ThreadLives::record(ThreadTrack& track, std::uint64_t time, const std::optional<ThreadStateSpan>& span) {
    if (span) sink_.thread_span(track.id, *span);
    if (track.state.finished()) {
        track.timer.finish(time, samples_);
        drain(track.id);
        finished_.insert(track.id);
        recent_.forget(track.id);
        threads_.erase(track.id);  // `track` is gone from here on
        return;
    }
    if (const ThreadActivity* activity = track.state.activity()) track.timer.enter(time, *activity, samples_);
    drain(track.id);
}

void ThreadLives::drain(eventlog::ThreadId id) {
    for (const Sample<ThreadActivity>& s : samples_) sink_.thread_sample(id, s);
    samples_.clear();
}

void ThreadLives::finish(std::uint64_t now, const std::function<void(eventlog::ThreadId)>& before_thread) {
    std::vector<ThreadTrack*> threads;
    threads.reserve(threads_.size());
    for (auto& [id, track] : threads_) threads.push_back(&track);
    std::sort(threads.begin(), threads.end(), [](const ThreadTrack* a, const ThreadTrack* b) { return a->id < b->id; });
    for (ThreadTrack* track : threads) {
        if (before_thread) before_thread(track->id);
        if (auto span = track->state.finish(now)) sink_.thread_span(track->id, *span);
        track->timer.finish(now, samples_);
        drain(track->id);
    }
    threads_.clear();
    recent_.clear();
    finished_ = util::IdSet();
}

}  // namespace el2fx::analysis
