// The lives of the threads that get no track of their own, kept on the reader's thread
// (eventlog::WorkerPart): in a log of many threads most are folded into one shared track, and
// their state machines and timers are a large share of the consumer's work, while what they
// give (samples only: no track draws a folded thread's spans) is far smaller. The threading
// analysis follows the other threads (ThreadingOptions::followed_threads); the samples and
// diagnostics found here reach its sink at the events that caused them, and those of the
// threads still live at the end in id order among its own (deliver_finished_before()), so
// the sink sees what it would have seen had one analysis followed every thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/threading/thread_lives.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "eventlog/worker_part.hpp"
#include "util/diagnostics.hpp"
#include "util/fixed_id_set.hpp"

namespace el2fx::analysis {

// Where the folded threads' samples go, summed as the shared track keeps them (its samples on
// the timer's grid, one per time and stack, in chunks of kChunkSamples samples taken).
class FoldedSampleSink {
public:
    static constexpr std::size_t kChunkSamples = std::size_t{1} << 16;
    virtual ~FoldedSampleSink() = default;
    // The first sample of `key`, before any of its sums (its stack is made now).
    virtual void folded_activity(const ThreadActivity& key) = 0;
    // The chunk's samples of one time and key, summed.
    virtual void folded_sum(std::uint64_t time, const ThreadActivity& key, std::uint64_t weight) = 0;
    // The chunk took kChunkSamples samples: it is added to the track.
    virtual void folded_chunk_full() = 0;
};

// A sample's time on the timer's grid (the shared track's samples sit there: an off-CPU
// group's ends move by less than half an interval).
constexpr std::uint64_t on_sampling_grid(std::uint64_t time, std::uint64_t interval) {
    return (time + interval / 2) / interval * interval;
}

class FoldedThreadLives final : public eventlog::WorkerPart {
public:
    // The threads `followed` does not hold. `sink` and `diagnostics` are the consumer's; all
    // must outlive it.
    FoldedThreadLives(const util::FixedIdSet& followed, std::uint64_t sampling_interval_ns, FoldedSampleSink& sink,
                      Diagnostics& diagnostics);

    const eventlog::TagSet& tags() const override;
    std::unique_ptr<eventlog::WorkerOutput> make_output() const override;
    // Room for more while the output holds fewer than kRoomyItems: one event adds at most two
    // chunks' sums (a thread's samples between two of its events are at most kMaxSamplesPerGap).
    static constexpr std::size_t kRoomyItems = std::size_t{1} << 16;
    bool handle(const eventlog::Event& event, std::uint64_t now, std::size_t index,
                eventlog::WorkerOutput& out) override;
    void finish(std::uint64_t now, std::size_t index, eventlog::WorkerOutput& out) override;
    std::size_t deliver(const eventlog::WorkerOutput& out, std::size_t end, bool from_start) override;

    // On the consumer, once the last batch was delivered to the end (WorkerPart::deliver() with
    // `end` past its events): the samples of the threads live at the end whose ids are below
    // `id` (everything left for nullopt), not delivered yet.
    void deliver_finished_before(std::optional<eventlog::ThreadId> id);

private:
    enum class Kind : std::uint8_t { diagnostic, activity, sum, chunk_full };
    struct Item {
        std::uint32_t index;        // in its batch: delivered once the consumer took that event
        eventlog::ThreadId thread;  // whose sample made it (the end's are delivered in id order)
        Kind kind;
        bool at_end;  // found by finish(): held until deliver_finished_before()
        Diagnostic diagnostic;
        ThreadActivity key;
        std::uint64_t time;
        std::uint64_t count;  // the diagnostic's, or the sum's weight
    };
    struct Output final : eventlog::WorkerOutput {
        std::vector<Item> items;
        void clear() override { items.clear(); }
    };
    // The worker's sink: a folded thread's samples summed into the chunk; its spans dropped.
    struct ToChunk final : ThreadingSink {
        FoldedThreadLives& owner;
        explicit ToChunk(FoldedThreadLives& o) : owner(o) {}
        void capability_started(eventlog::CapNo, std::uint64_t) override {}
        void capability_span(eventlog::CapNo, const CapabilitySpan&) override {}
        void capability_sample(eventlog::CapNo, const Sample<CapabilityActivity>&) override {}
        void thread_span(eventlog::ThreadId, const ThreadStateSpan&) override {}
        void thread_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) override {
            owner.take(thread, sample);
        }
    };
    struct SumKey {
        std::uint64_t time;
        ThreadActivity key;
        bool operator==(const SumKey&) const = default;
    };
    struct SumKeyHash {
        std::size_t operator()(const SumKey& k) const;
    };
    struct ActivityHash {
        std::size_t operator()(const ThreadActivity& a) const;
    };
    void take(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample);
    void push(Item item) {
        item.index = index_;
        item.at_end = ending_;
        out_->items.push_back(item);
    }
    void push_sums(eventlog::ThreadId thread);   // the chunk's, which it forgets
    std::uint32_t& sum_slot(const SumKey& key);  // its row's slot, or the empty one for it
    // The row (from 1) of `key`, made if new, with `weight` added.
    std::uint32_t add_to_row(eventlog::ThreadId thread, const SumKey& key, std::uint64_t weight);
    void note_diagnostics();  // what lives_ counted since the last note, as items
    void deliver(const Item& item);

    const util::FixedIdSet& followed_;
    // The worker's, on cache lines of their own.
    alignas(128) Diagnostics found_;
    Diagnostics noted_;
    const std::uint64_t interval_;
    ToChunk to_chunk_{*this};
    ThreadLives lives_;
    std::unordered_set<ThreadActivity, ActivityHash> seen_;  // keys with a sample so far
    std::vector<SumKey> sum_keys_;                           // the chunk's, in the order they came
    std::vector<std::uint64_t> sum_weights_;
    // Open addressing: row + 1 by hash, 0 for none; at most half full.
    std::vector<std::uint32_t> sum_slots_ = std::vector<std::uint32_t>(1024);
    std::size_t taken_ = 0;
    std::uint32_t last_row_ = 0;  // the row (from 1) of the last sample
    Output* out_ = nullptr;
    std::uint32_t index_ = 0;
    bool ending_ = false;
    // The consumer's, on cache lines of their own (two, as Intel fetches lines in pairs).
    alignas(128) std::size_t delivered_ = 0;  // items of the output being delivered
    FoldedSampleSink& sink_;
    Diagnostics& diagnostics_;
    std::vector<Item> finishing_;  // the end's, by thread id
    std::size_t finishing_at_ = 0;
};

}  // namespace el2fx::analysis
