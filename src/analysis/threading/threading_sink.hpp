// Where ThreadingAnalysis delivers what it finds, as soon as it is final: spans when they
// close, samples when the virtual timer takes them. Per capability and per Haskell thread the
// calls come in time order; across them, not (a thread's ticks arrive when it stops running).
// ThreadingResultCollector keeps everything (tests, `dump --spans`); the converter streams.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/threading/threading_result.hpp"
#include "util/id_map.hpp"

namespace el2fx::analysis {

class ThreadingSink {
public:
    virtual ~ThreadingSink() = default;
    // The capability's first event: its life (and its spans) start here.
    virtual void capability_started(eventlog::CapNo cap, std::uint64_t time) = 0;
    virtual void capability_span(eventlog::CapNo cap, const CapabilitySpan& span) = 0;
    virtual void capability_sample(eventlog::CapNo cap, const Sample<CapabilityActivity>& sample) = 0;
    virtual void thread_span(eventlog::ThreadId thread, const ThreadStateSpan& span) = 0;
    virtual void thread_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) = 0;
};

// Keeps every span and sample: finish() assembles the ThreadingResult.
class ThreadingResultCollector final : public ThreadingSink {
public:
    void capability_started(eventlog::CapNo cap, std::uint64_t time) override;
    void capability_span(eventlog::CapNo cap, const CapabilitySpan& span) override;
    void capability_sample(eventlog::CapNo cap, const Sample<CapabilityActivity>& sample) override;
    void thread_span(eventlog::ThreadId thread, const ThreadStateSpan& span) override;
    void thread_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) override;

    // Capabilities by number, threads by id; every capability's timeline ends at `end_time`.
    ThreadingResult take(std::uint64_t end_time);

private:
    CapabilityTimeline& capability(eventlog::CapNo cap);
    ThreadTimeline& thread(eventlog::ThreadId thread);

    std::vector<CapabilityTimeline> capabilities_;  // by capability number; cap == number once started
    std::vector<bool> started_;
    std::vector<ThreadTimeline> threads_;
    util::IdMap<std::size_t> thread_index_;  // index in threads_
};

// Hands everything to two sinks, first `a` then `b`.
class ThreadingTee final : public ThreadingSink {
public:
    ThreadingTee(ThreadingSink& a, ThreadingSink& b) : a_(a), b_(b) {}
    void capability_started(eventlog::CapNo cap, std::uint64_t time) override {
        a_.capability_started(cap, time);
        b_.capability_started(cap, time);
    }
    void capability_span(eventlog::CapNo cap, const CapabilitySpan& span) override {
        a_.capability_span(cap, span);
        b_.capability_span(cap, span);
    }
    void capability_sample(eventlog::CapNo cap, const Sample<CapabilityActivity>& sample) override {
        a_.capability_sample(cap, sample);
        b_.capability_sample(cap, sample);
    }
    void thread_span(eventlog::ThreadId thread, const ThreadStateSpan& span) override {
        a_.thread_span(thread, span);
        b_.thread_span(thread, span);
    }
    void thread_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) override {
        a_.thread_sample(thread, sample);
        b_.thread_sample(thread, sample);
    }

private:
    ThreadingSink& a_;
    ThreadingSink& b_;
};

}  // namespace el2fx::analysis
