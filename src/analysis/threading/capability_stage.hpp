// The capabilities' part of the threading analysis (ThreadingPart::capabilities) on the
// prefetcher's worker (eventlog/worker_stage.hpp), beside the merge: in a conversion's second
// pass it is a quarter of the consumer's work, while the worker waits half the time. What the
// part hands its sink is recorded with the event that caused it and replayed on the consumer,
// into the real sink, just before the threads' part (ThreadingPart::threads) takes that event
// there: for each event the capabilities' calls come first (threading_analysis.hpp), so the
// sink gets the same calls in the same order as from one analysis of both parts. Its
// diagnostics arrive with their events (EventPrefetcher).
//
// It sees the scheduler and GC events, and every event of a capability it watches (one not
// started yet, one a census candidate waits on); the clock of all events comes with them.
// Only for a stream that reaches the analysis as the reader gives it: no window (it adds
// events) and no shifted clock (several runs in one profile).
//
// With a marker detail, its spans are merged there too (capability_span_merger.hpp): the sink
// gets kept_capability_span() for what the merger keeps, where it would have got the spans,
// and the merger's pending groups stay with the stage (span_merger(), after the pass).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "analysis/threading/capability_span_merger.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "eventlog/worker_stage.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::analysis {

class CapabilityStage final : public eventlog::WorkerStage {
public:
    // Throws el2fx::Error for a sampling interval of 0, as ThreadingAnalysis does. The part is
    // the capabilities', whatever `options` says.
    explicit CapabilityStage(ThreadingOptions options, std::optional<SpanDetail> merge_spans = std::nullopt);

    // The tags it takes whatever their capability (the scheduler's and the collections').
    static constexpr std::array<std::uint16_t, 8> kTags = {
        eventlog::RunThread::tag, eventlog::StopThread::tag, eventlog::StartGC::tag, eventlog::EndGC::tag,
        eventlog::GCWork::tag,    eventlog::GCIdle::tag,     eventlog::GCDone::tag,  eventlog::HeapProfSampleBegin::tag};

    // The worker's side (WorkerStage).
    std::unique_ptr<eventlog::StageOutput> make_output() const override;
    const Tags& wanted_tags() const override { return tags_; }
    const std::vector<std::uint8_t>* watched_caps() const override { return &analysis_.watched_caps(); }
    void handle(const eventlog::Event& event, std::size_t index, std::uint64_t latest,
                eventlog::StageOutput& out) override;
    void end(std::size_t index, std::uint64_t latest, eventlog::StageOutput& out) override;
    const Diagnostics& counted() const override { return diagnostics_; }

    // The consumer's side: hands `sink` the calls made for the events before the `given`-th
    // of the batch whose output is `out` (EventPrefetcher::stage_output(), given_in_batch()
    // after next()). Call it before the threads' part takes the event. Inline: most events
    // have none left.
    static void deliver(eventlog::StageOutput& out, std::size_t given, ThreadingSink& sink) {
        auto& o = static_cast<Output&>(out);
        if (o.replayed < o.calls.size() && o.calls[o.replayed].index < given) replay_before(o, given, sink);
    }
    // After the last event (next() gave nullptr), before the threads' part finishes: what the
    // capabilities' finish() closed.
    static void finish(eventlog::StageOutput& out, ThreadingSink& sink);
    // With a marker detail: the merger, whose pending groups are the consumer's once the pass
    // is over (the worker is done with it then); none without.
    CapabilitySpanMerger* span_merger() { return merger_ ? &*merger_ : nullptr; }

private:
    // One sink call: the capability and what was handed over.
    struct Call {
        std::uint32_t index;  // of the event in its batch
        eventlog::CapNo cap;
        std::variant<std::uint64_t /* started at */, CapabilitySpan, Sample<CapabilityActivity>, KeptCapabilitySpan> what;
    };
    // One batch's calls, in the order the part made them; `replayed` is the consumer's place.
    class Output final : public eventlog::StageOutput {
    public:
        void clear() override {
            calls.clear();
            replayed = 0;
        }
        std::vector<Call> calls;
        std::size_t replayed = 0;
    };
    // Records the part's calls in the current event's batch.
    class Recorder final : public ThreadingSink {
    public:
        void capability_started(eventlog::CapNo cap, std::uint64_t time) override { add(cap, time); }
        void capability_span(eventlog::CapNo cap, const CapabilitySpan& span) override {
            if (!merger) return add(cap, span);
            merger->offer(cap, span, [this](eventlog::CapNo c, const KeptCapabilitySpan& kept) { add(c, kept); });
        }
        void capability_sample(eventlog::CapNo cap, const Sample<CapabilityActivity>& sample) override {
            add(cap, sample);
        }
        // The capabilities' part makes no thread calls.
        void thread_span(eventlog::ThreadId, const ThreadStateSpan&) override {}
        void thread_sample(eventlog::ThreadId, const Sample<ThreadActivity>&) override {}

        std::vector<Call>* calls = nullptr;
        std::uint32_t index = 0;
        CapabilitySpanMerger* merger = nullptr;

    private:
        template <typename T>
        void add(eventlog::CapNo cap, const T& what) {
            calls->push_back(Call{index, cap, what});
        }
    };
    static void replay_before(Output& out, std::size_t given, ThreadingSink& sink);
    static void replay(const Call& call, ThreadingSink& sink);

    Tags tags_;
    Diagnostics diagnostics_;  // the worker's
    std::optional<CapabilitySpanMerger> merger_;  // before the recorder, which uses it
    Recorder recorder_;
    ThreadingAnalysis analysis_;
};

}  // namespace el2fx::analysis
