// ThreadingAnalysis on the prefetcher's worker (eventlog/worker_stage.hpp), beside the merge:
// in the conversion's second pass it is a third of the consumer's work. What the analysis hands
// its sink is recorded with the event that caused it and replayed on the consumer, into the
// real sink, as the consumer takes that event: the same calls in the same order, with the
// same events before them, as running the analysis there. Its diagnostics arrive with their
// events (EventPrefetcher).
//
// Only for a stream that reaches the analysis as the reader gives it: no window (it adds
// events) and no shifted clock (several runs in one profile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include "analysis/threading/threading_analysis.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/worker_stage.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::analysis {

class ThreadingStage final : public eventlog::WorkerStage {
public:
    // Throws el2fx::Error for a sampling interval of 0, as ThreadingAnalysis does.
    explicit ThreadingStage(ThreadingOptions options);

    // The worker's side (WorkerStage).
    std::unique_ptr<eventlog::StageOutput> make_output() const override;
    const Tags& decoded_tags() const override { return tags_; }
    void handle(const eventlog::Event& event, std::size_t index, eventlog::StageOutput& out) override;
    void end(std::size_t index, eventlog::StageOutput& out) override;
    const Diagnostics& counted() const override { return diagnostics_; }

    // The consumer's side: after each event taken from `events`, hands `sink` what the analysis
    // delivered up to it. Inline: most events deliver nothing.
    void deliver(eventlog::EventPrefetcher& events, ThreadingSink& sink) {
        Output& out = static_cast<Output&>(events.stage_output());
        if (out.replayed < out.calls.size() && out.calls[out.replayed].index < events.given_in_batch())
            replay_before(out, events.given_in_batch(), sink);
    }
    // After the last event (next() gave nullptr): the rest, what ThreadingAnalysis::finish()
    // closed, into `sink`; returns what finish() returned.
    ThreadingResult finish(eventlog::EventPrefetcher& events, ThreadingSink& sink);

private:
    // One sink call: the capability's or thread's number and what was handed over.
    struct Call {
        std::uint32_t index;  // of the event in its batch
        std::uint32_t id;     // capability or thread
        std::variant<std::uint64_t /* capability started at */, CapabilitySpan, Sample<CapabilityActivity>,
                     ThreadStateSpan, Sample<ThreadActivity>>
            what;
    };
    // One batch's calls, in the order the analysis made them; `replayed` is the consumer's place.
    class Output final : public eventlog::StageOutput {
    public:
        void clear() override {
            calls.clear();
            replayed = 0;
        }
        std::vector<Call> calls;
        std::size_t replayed = 0;
    };
    // Records the analysis' calls in the current event's batch.
    class Recorder final : public ThreadingSink {
    public:
        void capability_started(eventlog::CapNo cap, std::uint64_t time) override { add(cap, time); }
        void capability_span(eventlog::CapNo cap, const CapabilitySpan& span) override { add(cap, span); }
        void capability_sample(eventlog::CapNo cap, const Sample<CapabilityActivity>& sample) override {
            add(cap, sample);
        }
        void thread_span(eventlog::ThreadId thread, const ThreadStateSpan& span) override { add(thread, span); }
        void thread_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) override {
            add(thread, sample);
        }

        std::vector<Call>* calls = nullptr;
        std::uint32_t index = 0;

    private:
        template <typename T>
        void add(std::uint32_t id, const T& what) {
            calls->push_back(Call{index, id, what});
        }
    };
    // Replays the calls of the events before `given`.
    static void replay_before(Output& out, std::size_t given, ThreadingSink& sink);
    static void replay(const Call& call, ThreadingSink& sink);

    Tags tags_;
    Diagnostics diagnostics_;  // the worker's
    Recorder recorder_;
    ThreadingAnalysis analysis_;
    ThreadingResult lives_;  // from finish(), at the end
};

}  // namespace el2fx::analysis
