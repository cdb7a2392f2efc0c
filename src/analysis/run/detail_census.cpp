#include "analysis/run/detail_census.hpp"

#include <algorithm>
#include <bit>
#include <functional>

#include "eventlog/event_types.hpp"

namespace el2fx::run {

double LengthHistogram::at_least(std::uint64_t length_ns) const {
    if (length_ns == 0) return static_cast<double>(count_);
    const std::size_t straddling = static_cast<std::size_t>(std::bit_width(length_ns));
    double n = 0;
    for (std::size_t b = straddling + 1; b < buckets_.size(); ++b) n += static_cast<double>(buckets_[b]);
    // Bucket b holds [2^(b-1), 2^b): the part of it at or above length_ns.
    const double low = static_cast<double>(std::uint64_t{1} << (straddling - 1));
    const double high = low * 2;
    const double share = std::clamp((high - static_cast<double>(length_ns)) / (high - low), 0.0, 1.0);
    return n + share * static_cast<double>(buckets_[straddling]);
}

double DetailCensus::run_share_of_busiest(std::size_t n) const {
    std::uint64_t all = other_runs, busiest = 0;
    for (std::size_t i = 0; i < runs_by_thread.size(); ++i) {
        all += runs_by_thread[i];
        if (i < n) busiest += runs_by_thread[i];
    }
    return all == 0 ? 1.0 : static_cast<double>(busiest) / static_cast<double>(all);
}

// A new one is not live: run() or stop() starts it.
DetailCensusCollector::ThreadState& DetailCensusCollector::live_thread(eventlog::ThreadId id) {
    return *recent_.note(id, &live_[id]);
}

void DetailCensusCollector::finished(ThreadState& t) {
    finished_runs_.add(census_, t.runs);
    t.live = false;
}

void DetailCensusCollector::forget(eventlog::ThreadId id) {
    recent_.forget(id);
    live_.erase(id);
}

void DetailCensusCollector::handle(const eventlog::Event& event) {
    using namespace eventlog;
    now_ = std::max(now_, event.time);
    switch (event.tag) {
        case RunThread::tag:
            if (const auto* p = event.as<RunThread>(); p && event.cap) run(*event.cap, p->thread, now_);
            return;
        case StopThread::tag:
            if (const auto* p = event.as<StopThread>(); p && event.cap)
                stop(*event.cap, p->thread, p->status, now_);
            return;
        case MigrateThread::tag:
        case WakeupThread::tag: moment(now_); return;
        case StartGC::tag:
            if (event.cap) capability(*event.cap).gc_since = now_;
            return;
        case EndGC::tag:
            if (event.cap) {
                Capability& c = capability(*event.cap);
                if (c.gc_since) census_.gc.add(now_ - *c.gc_since);
                c.gc_since.reset();
            }
            return;
        case UserMessage::tag:
            if (const auto* p = event.as<UserMessage>()) {
                ++census_.messages;
                census_.message_bytes += p->message.bytes.size();
            }
            return;
        case UserMarker::tag:
            if (const auto* p = event.as<UserMarker>()) {
                ++census_.messages;
                census_.message_bytes += p->marker.bytes.size();
            }
            return;
        case CreateThread::tag:
        case ThreadLabel::tag: ++census_.thread_events; return;
        default: ++census_.other_events; return;
    }
}

void DetailCensus::keep_busiest_runs(std::size_t n) {
    const std::size_t keep = std::min(n, runs_by_thread.size());
    const auto cut = runs_by_thread.begin() + static_cast<std::ptrdiff_t>(keep);
    std::nth_element(runs_by_thread.begin(), cut, runs_by_thread.end(), std::greater<>());
    for (auto it = cut; it != runs_by_thread.end(); ++it) other_runs += *it;
    runs_by_thread.resize(keep);
}

bool DetailCensusCollector::tells_apart(std::uint16_t tag) {
    using namespace eventlog;
    switch (tag) {
        case RunThread::tag:
        case StopThread::tag:
        case MigrateThread::tag:
        case WakeupThread::tag:
        case StartGC::tag:
        case EndGC::tag:
        case UserMessage::tag:
        case UserMarker::tag:
        case CreateThread::tag:
        case ThreadLabel::tag: return true;
        default: return false;
    }
}

DetailCensus DetailCensusCollector::finish(std::span<const ThreadState> states) {
    for (Capability& c : caps_) {  // spans still open at the end of the log
        if (c.running) census_.running.add(now_ - c.running_since);
        if (c.idle_since) census_.idle.add(now_ - *c.idle_since);
        if (c.gc_since) census_.gc.add(now_ - *c.gc_since);
    }
    const auto still_live = [&](const ThreadState& t) {  // stopped to the end
        if (!t.live) return;
        if (!t.running) census_.stopped.add(now_ - t.stopped_since);
        census_.runs_by_thread.push_back(t.runs);
    };
    for (const auto& [id, t] : live_) still_live(t);
    for (const ThreadState& t : states) still_live(t);
    std::sort(census_.runs_by_thread.begin(), census_.runs_by_thread.end(), std::greater<>());
    census_.capabilities = caps_.size();
    caps_.clear();
    recent_.clear();
    live_.clear();
    return std::move(census_);
}

}  // namespace el2fx::run
