// The Haskell threads' lives kept on the reader's thread (eventlog::WorkerPart): each thread's
// state machine and timer were a large share of the events pass's consumer, while what they
// give a profile is far smaller once filtered as the profile keeps it. Each thread's life
// depends on its own events only, so the threading analysis on the consumer follows the
// others (ThreadingOptions::lives_elsewhere) and its capabilities see every event.
//
// Kept here, one group or the other: the threads with a track of their own, their spans
// through the markers' filters (thread_span_filters.hpp) and their samples as they are; or,
// where the budget folds the others into one track without their names (their stacks then do
// not depend on the thread), those, their samples summed by time on the grid and activity in
// chunks of as many samples as the shared track's (convert/folded_chunk.hpp). Not both: the
// reader's thread has room for one (with millions of threads folded, the folded ones alone
// keep it busier than the consumer: then a share of them goes back to the consumer while the
// reader's thread is measured the slower, folded_share.hpp). What they give reaches the sink at
// the events that made them; at the end, the lives' ends in id order among the consumer's
// (deliver_ends_before()) and each track's pending filter groups where the markers flush
// theirs (deliver_flush_of()): the sink sees what it would have seen had one analysis and the
// markers' filters run on the consumer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/threading/folded_share.hpp"
#include "analysis/threading/span_detail.hpp"
#include "analysis/threading/thread_lives.hpp"
#include "analysis/threading/thread_span_filters.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "eventlog/worker_part.hpp"
#include "util/diagnostics.hpp"
#include "util/fixed_id_set.hpp"
#include "util/recent_ids.hpp"

namespace el2fx::analysis {

// Where what the lives kept here give goes, on the consumer.
class ReaderLivesSink {
public:
    static constexpr std::size_t kChunkSamples = std::size_t{1} << 16;
    virtual ~ReaderLivesSink() = default;
    // A sample of a thread with a track of its own.
    virtual void own_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) = 0;
    // What the span filters of own track `track` (its index among them) kept.
    virtual void running_span(std::size_t track, std::uint64_t start, std::uint64_t end, eventlog::CapNo cap) = 0;
    virtual void running_merged(std::size_t track, const MergedSpans& group) = 0;
    virtual void stopped_span(std::size_t track, std::uint64_t start, std::uint64_t end, const ThreadActivity& a) = 0;
    virtual void stopped_merged(std::size_t track, const MergedSpans& group, std::uint16_t status) = 0;
    // The folded threads' samples: the first of `key`, before any of its sums (its stack is
    // made now); a chunk's samples of one time and key, summed; the chunk took kChunkSamples
    // samples (it is added to the shared track).
    virtual void folded_activity(const ThreadActivity& key) = 0;
    virtual void folded_sum(std::uint64_t time, const ThreadActivity& key, std::uint64_t weight) = 0;
    virtual void folded_chunk_full() = 0;
};

// A sample's time on the timer's grid (the shared track's samples sit there: an off-CPU
// group's ends move by less than half an interval).
constexpr std::uint64_t on_sampling_grid(std::uint64_t time, std::uint64_t interval) {
    return (time + interval / 2) / interval * interval;
}

class ReaderThreadLives final : public eventlog::WorkerPart {
public:
    struct Setup {
        std::vector<eventlog::ThreadId> own;  // the threads with a track of their own, in track order
        bool folded = false;                  // the lives of the others (their samples summed), not of those
        std::uint64_t sampling_interval_ns = 0;
        SpanDetail span_detail;  // the markers' (context.span_detail)
        // With `folded`: of the others, those the consumer follows instead, which this sets as
        // it goes (none without it). Shared with the consumer's analysis; must outlive this.
        FoldedShare* folded_share = nullptr;
    };
    // `sink` and `diagnostics` are the consumer's; both must outlive it.
    ReaderThreadLives(Setup setup, ReaderLivesSink& sink, Diagnostics& diagnostics);

    // The threads with a track of their own.
    const util::FixedIdSet& own() const { return own_; }

    const eventlog::TagSet& tags() const override;
    std::unique_ptr<eventlog::WorkerOutput> make_output() const override;
    // With a FoldedShare: a quarter of the next folded threads to the consumer while the
    // worker is clearly the slower side, none while the consumer is.
    void batch_begins(const eventlog::Pace& pace) override;
    // Room for more while the output holds fewer than kRoomyItems items and as many sums' rows:
    // one event adds at most two chunks' sums (a thread's samples between two of its events
    // are at most kMaxSamplesPerGap), or as many own samples.
    static constexpr std::size_t kRoomyItems = std::size_t{1} << 14;
    bool handle(const eventlog::WorkerEvent& event, std::uint64_t now, std::size_t index,
                eventlog::WorkerOutput& out) override;
    void finish(std::uint64_t now, std::size_t index, eventlog::WorkerOutput& out) override;
    std::size_t deliver(const eventlog::WorkerOutput& out, std::size_t end, bool from_start) override;

    // On the consumer, once the last batch was delivered to the end (WorkerPart::deliver() with
    // `end` past its events): what the ends of the lives kept here gave for the threads whose
    // ids are below `id` (everything left for nullopt), not delivered yet.
    void deliver_ends_before(std::optional<eventlog::ThreadId> id);
    // Then, where the markers flush own track `track`'s filters: what its filters held.
    void deliver_flush_of(std::size_t track);

private:
    enum class Kind : std::uint8_t {
        diagnostic,
        own_sample,
        running_span,
        running_merged,
        stopped_span,
        stopped_merged,
        folded_activity,
        folded_sums,  // `count` rows of the output's sums from `time`
        folded_chunk_full,
    };
    // What crosses the cores; the fields a kind uses (the others 0).
    struct Item {
        std::uint32_t index = 0;   // in its batch: delivered once the consumer took that event
        std::uint32_t thread = 0;  // whose life gave it (the ends' are delivered in id order)
        std::uint32_t track = 0;   // a span's own track
        Kind kind = Kind::diagnostic;
        bool at_end = false;  // given by finish(): held until deliver_ends_before()
        bool flush = false;   // a filter's pending group at the end: held until deliver_flush_of()
        Diagnostic diagnostic{};
        std::uint16_t status = 0;  // stopped_merged's
        ThreadActivity key;        // a sample's activity, a span's (a running one's capability)
        std::uint64_t time = 0;    // a sample's; a span's start
        std::uint64_t end = 0;     // a span's
        std::uint64_t count = 0;   // a diagnostic's, a sample's or sum's weight
        std::uint64_t cpu_delta_ns = 0;
        MergedSpans merged;
    };
    // A folded_sums item's rows, apart: a chunk's sums come at once, by the ten thousand.
    struct SumRow {
        std::uint64_t time;
        std::uint64_t weight;
        std::uint32_t key;  // its place among the activities in the order they were told
    };
    struct Output final : eventlog::WorkerOutput {
        std::vector<Item> items;
        std::vector<SumRow> sums;
        // Memory a chunk's sums took is given back, not kept by each batch.
        void clear() override {
            items.clear();
            if (sums.capacity() > kRoomyItems)
                sums = std::vector<SumRow>();
            else
                sums.clear();
        }
    };
    // The lives' sink, on the worker: own threads' spans through their filters and samples as
    // items; the folded threads' samples summed, their spans dropped (no track draws them).
    struct ToItems final : ThreadingSink {
        ReaderThreadLives& owner;
        explicit ToItems(ReaderThreadLives& o) : owner(o) {}
        void capability_started(eventlog::CapNo, std::uint64_t) override {}
        void capability_span(eventlog::CapNo, const CapabilitySpan&) override {}
        void capability_sample(eventlog::CapNo, const Sample<CapabilityActivity>&) override {}
        void thread_span(eventlog::ThreadId thread, const ThreadStateSpan& span) override;
        void thread_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) override;
    };
    // A filter's sinks (thread_span_filters.hpp), for own track `track`.
    struct RunningItems {
        ReaderThreadLives& owner;
        eventlog::ThreadId thread;
        std::uint32_t track;
        void span(std::uint64_t start, std::uint64_t end, eventlog::CapNo cap);
        void merged(const MergedSpans& group);
    };
    struct StoppedItems {
        ReaderThreadLives& owner;
        eventlog::ThreadId thread;
        std::uint32_t track;
        void span(std::uint64_t start, std::uint64_t end, const ThreadActivity& a);
        void merged(const MergedSpans& group, const StoppedTally& tally);
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
    // The own track of `thread`, if it has one (through recent answers first).
    std::optional<std::uint32_t> own_track(eventlog::ThreadId thread) {
        if (const std::optional<std::uint32_t>* t = recent_tracks_.find(thread)) return *t;
        const auto it = track_of_.find(thread);
        return recent_tracks_.note(thread, it == track_of_.end() ? std::nullopt : std::optional(it->second));
    }
    // Every thread the lives' events name passes here first (the next threads' share is set
    // from above the highest).
    bool keeps(eventlog::ThreadId thread) {
        if (thread >= next_thread_) next_thread_ = std::uint64_t{thread} + 1;
        if (!setup_.folded) return own_.contains(thread);
        return !own_.contains(thread) && !(setup_.folded_share && setup_.folded_share->on_consumer(thread));
    }
    // The recent threads' slots of the lives kept here: room for each own thread, a few for
    // the folded ones (any of millions).
    static std::size_t recent_slots(const Setup& setup) {
        return setup.folded ? util::kFewRecentSlots : util::recent_slots_for(setup.own.size());
    }
    void take_folded(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample);
    void push(Item item) {
        item.index = index_;
        item.at_end = ending_;
        item.flush = flushing_;
        out_->items.push_back(item);
    }
    void push_sums(eventlog::ThreadId thread);   // the chunk's, which it forgets
    std::uint32_t& sum_slot(const SumKey& key);  // its row's slot, or the empty one for it
    // The row (from 1) of `key`, made if new, with `weight` added.
    std::uint32_t add_to_row(eventlog::ThreadId thread, const SumKey& key, std::uint64_t weight);
    void note_diagnostics();  // what lives_ counted since the last note, as items
    void deliver(const Item& item, const std::vector<SumRow>& sums);

    const Setup setup_;
    const util::FixedIdSet own_;
    // The worker's, on cache lines of their own (two, as Intel fetches lines in pairs).
    alignas(128) Diagnostics found_;
    Diagnostics noted_;
    ToItems to_items_{*this};
    ThreadLives lives_;
    std::unordered_map<eventlog::ThreadId, std::uint32_t> track_of_;
    util::RecentIds<std::optional<std::uint32_t>> recent_tracks_;
    std::vector<ThreadSpanFilters> filters_;                                // by own track
    std::unordered_map<ThreadActivity, std::uint32_t, ActivityHash> seen_;  // folded keys so far, by place
    std::vector<SumKey> sum_keys_;                                          // the chunk's, in the order they came
    std::vector<std::uint64_t> sum_weights_;
    // Open addressing: row + 1 by hash, 0 for none; at most half full.
    std::vector<std::uint32_t> sum_slots_ = std::vector<std::uint32_t>(1024);
    std::size_t taken_ = 0;
    std::uint32_t last_row_ = 0;     // the row (from 1) of the last folded sample
    std::uint64_t next_thread_ = 0;  // above every thread id seen
    // batch_begins()'s: each side's time per event summed over the batches since the last look;
    // where the worker's is more than kUneven above the consumer's, a quarter of the folded
    // threads go to the consumer (src/README.md, Performance notes), until it is as far below.
    static constexpr int kPaceBatches = 8;
    static constexpr double kUneven = 0.1;
    static constexpr unsigned kShareWhereUneven = FoldedShare::kSteps / 4;
    struct Paced {
        double worker_ns = 0, consumer_ns = 0;
        int batches = 0;
    } paced_;
    Output* out_ = nullptr;
    std::uint32_t index_ = 0;
    bool ending_ = false, flushing_ = false;
    // The consumer's, on cache lines of their own.
    alignas(128) std::size_t delivered_ = 0;  // items of the output being delivered
    ReaderLivesSink& sink_;
    Diagnostics& diagnostics_;
    std::vector<Item> ends_;            // the ends', by thread id
    std::vector<SumRow> end_sums_;      // their folded_sums items' rows
    std::vector<ThreadActivity> keys_;  // the folded activities in the order they were told
    std::size_t ends_at_ = 0;
    std::vector<Item> flushes_;  // the filters' pending groups, by track
    std::size_t flushes_at_ = 0;
};

}  // namespace el2fx::analysis
