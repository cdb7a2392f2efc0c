#include "analysis/threading/threading_sink.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace el2fx::analysis {

CapabilityTimeline& ThreadingResultCollector::capability(eventlog::CapNo cap) {
    if (cap >= capabilities_.size()) {
        capabilities_.resize(std::size_t{cap} + 1);
        started_.resize(std::size_t{cap} + 1, false);
    }
    return capabilities_[cap];
}

ThreadTimeline& ThreadingResultCollector::thread(eventlog::ThreadId id) {
    auto [index, added] = thread_index_.try_emplace(id, threads_.size());
    if (added) threads_.push_back(ThreadTimeline{id, {}, {}});
    return threads_[index];
}

void ThreadingResultCollector::capability_started(eventlog::CapNo cap, std::uint64_t time) {
    CapabilityTimeline& c = capability(cap);
    c.cap = cap;
    c.start = time;
    started_[cap] = true;
}

void ThreadingResultCollector::capability_span(eventlog::CapNo cap, const CapabilitySpan& span) {
    capability(cap).spans.push_back(span);
}

void ThreadingResultCollector::capability_sample(eventlog::CapNo cap, const Sample<CapabilityActivity>& sample) {
    capability(cap).samples.push_back(sample);
}

void ThreadingResultCollector::thread_span(eventlog::ThreadId id, const ThreadStateSpan& span) {
    thread(id).spans.push_back(span);
}

void ThreadingResultCollector::thread_sample(eventlog::ThreadId id, const Sample<ThreadActivity>& sample) {
    thread(id).samples.push_back(sample);
}

ThreadingResult ThreadingResultCollector::take(std::uint64_t end_time) {
    ThreadingResult result;
    result.end_time = end_time;
    for (std::size_t cap = 0; cap < capabilities_.size(); ++cap) {
        if (!started_[cap]) continue;
        capabilities_[cap].end = end_time;
        result.capabilities.push_back(std::move(capabilities_[cap]));
    }
    result.threads = std::move(threads_);
    std::sort(result.threads.begin(), result.threads.end(),
              [](const ThreadTimeline& a, const ThreadTimeline& b) { return a.thread < b.thread; });
    capabilities_.clear();
    started_.clear();
    threads_.clear();
    thread_index_ = util::IdMap<std::size_t>();
    return result;
}

}  // namespace el2fx::analysis
