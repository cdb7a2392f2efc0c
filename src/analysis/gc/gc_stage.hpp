// GcAnalysis on the prefetcher's worker (eventlog/worker_stage.hpp), beside the merge: in the
// conversion's second pass of a log with many collections it is a fifth of the consumer's
// work, while the worker waits half the time. What the analysis completes (collections, heap
// samples) is recorded with the event that completed it and handed to the consumer's sink
// when the consumer reaches that event: the same calls, in the same order, at the same events,
// as running the analysis there. It counts no diagnostics.
//
// Only for a stream that reaches the analysis as the reader gives it: no window (it adds
// events) and no shifted clock (several runs in one profile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/gc/gc_analysis.hpp"
#include "eventlog/worker_stage.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::gc {

class GcStage final : public eventlog::WorkerStage {
public:
    GcStage();

    // The worker's side (WorkerStage): the events GcAnalysis::concerns(), each to
    // handle_without_clock() (the consumer keeps the clock of every event).
    std::unique_ptr<eventlog::StageOutput> make_output() const override;
    const Tags& wanted_tags() const override { return tags_; }
    void handle(const eventlog::Event& event, std::size_t index, std::uint64_t latest,
                eventlog::StageOutput& out) override;
    void end(std::size_t /*index*/, std::uint64_t /*latest*/, eventlog::StageOutput& /*out*/) override {}
    const Diagnostics& counted() const override { return diagnostics_; }

    // The consumer's side: hands `sink` what the analysis completed with the events before the
    // `given`-th of the batch whose output is `out` (EventPrefetcher::stage_output(),
    // given_in_batch()).
    // Inline: it is asked at every GC event of the pass, and nearly always has nothing to hand.
    static void deliver(eventlog::StageOutput& out, std::size_t given, GcRecordSink& sink) {
        auto& o = static_cast<Output&>(out);
        if (o.delivered < o.records.size() && o.records[o.delivered].index < given) deliver_due(o, given, sink);
    }
    // Nothing is due in `out` while `given` is at most this (SIZE_MAX: nothing is left): the
    // consumer may skip deliver() until then (a batch's output is final once handed over).
    static std::size_t nothing_due_until(eventlog::StageOutput& out) {
        const auto& o = static_cast<const Output&>(out);
        return o.delivered < o.records.size() ? o.records[o.delivered].index : SIZE_MAX;
    }
    // Also the consumer's: collections delivered and done with go back in the batch whose
    // output is `out`, for the worker to free or to fill again (GcAnalysis::recycle). Memory
    // allocated on one thread and freed on the other goes through a malloc arena both lock:
    // that contention doubled the pass.
    static void give_back(eventlog::StageOutput& out, std::vector<GcCollection>& spent);
    // The consumer's, once the prefetcher gave its last event (the worker is done with the
    // analysis): GcAnalysis::set_clock() and finish(), what finish() completes going straight
    // to `sink`.
    GcAnalysisResult finish(const SummaryEnd& end, const eventlog::EventClock* clock, GcRecordSink& sink);

private:
    class Output;
    static void deliver_due(Output& out, std::size_t given, GcRecordSink& sink);

    // One output, in the order the analysis made them: a collection or a heap sample (kept
    // apart: a collection is five times larger, and most outputs are samples).
    struct Record {
        std::uint32_t index;  // of the event in its batch
        std::uint32_t slot;   // in collections or samples
        bool collection;
    };
    // One batch's outputs; `delivered` is the consumer's place.
    class Output final : public eventlog::StageOutput {
    public:
        void clear() override {  // `returned` is the worker's next handle()'s to recycle
            records.clear();
            collections.clear();
            samples.clear();
            delivered = 0;
        }
        std::vector<Record> records;
        std::vector<GcCollection> collections;
        std::vector<HeapSample> samples;
        std::size_t delivered = 0;
        std::vector<GcCollection> returned;  // by the consumer
    };
    // Records the analysis' output in the current event's batch; at the end, hands it on.
    class Recorder final : public GcRecordSink {
    public:
        void collection(GcCollection&& collection) override {
            if (to) return to->collection(std::move(collection));
            out->records.push_back(Record{index, static_cast<std::uint32_t>(out->collections.size()), true});
            out->collections.push_back(std::move(collection));
        }
        void heap_sample(const HeapSample& sample) override {
            if (to) return to->heap_sample(sample);
            out->records.push_back(Record{index, static_cast<std::uint32_t>(out->samples.size()), false});
            out->samples.push_back(sample);
        }

        Output* out = nullptr;
        std::uint32_t index = 0;
        GcRecordSink* to = nullptr;  // finish()'s sink
    };

    Tags tags_;
    Diagnostics diagnostics_;  // stays empty: GcAnalysis counts none
    Recorder recorder_;
    GcAnalysis analysis_;
};

}  // namespace el2fx::gc
