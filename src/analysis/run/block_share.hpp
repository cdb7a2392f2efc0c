// The pieces of the census learnt from the blocks (block_census.hpp) that its readers
// (block_reader.cpp: one per checking thread, a share per block) and its combiner
// (block_combiner.hpp: the shares put together) share: where a record stands in the log's
// order, a thread's mentions and run/stop segments in one block, what a block tells the thread
// catalog, the records kept to decode again, and the share itself. Internal to BlockCensus.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/run/block_census.hpp"
#include "analysis/runtime/spark_counters.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/payload_decoder.hpp"

namespace el2fx::run::blocks {

using eventlog::CapNo;
using eventlog::Event;
using eventlog::ThreadId;

// Where an event stands in the order of the whole log (the merge's): by time, then offset.
struct Key {
    std::uint64_t time = 0, offset = 0;
    friend bool operator<(const Key& a, const Key& b) {
        return a.time < b.time || (a.time == b.time && a.offset < b.offset);
    }
    friend bool operator==(const Key& a, const Key& b) { return a.time == b.time && a.offset == b.offset; }
};

constexpr std::uint16_t kFinished = static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished);
constexpr std::size_t kTags = eventlog::CountedRecords::kTags;

// A record finish() decodes again, in the log's order: the run's facts, creations, labels.
// Its payload is kept with the others' (no allocation per record): `at` in their bytes.
struct KeptRecord {
    Key key;
    std::uint16_t tag = 0;
    std::optional<CapNo> cap;
    std::uint32_t size = 0;
    std::size_t at = 0;
};
struct KeptRecords {
    std::vector<KeptRecord> records;
    std::vector<std::uint8_t> bytes;
    void keep(const Key& key, std::uint16_t tag, std::optional<CapNo> cap, const std::uint8_t* payload,
              std::uint32_t size) {
        records.push_back({key, tag, cap, size, bytes.size()});
        bytes.insert(bytes.end(), payload, payload + size);
    }
    void append(const KeptRecords& other) {
        for (KeptRecord r : other.records) {
            r.at += bytes.size();
            records.push_back(r);
        }
        bytes.insert(bytes.end(), other.bytes.begin(), other.bytes.end());
    }
    std::size_t held_bytes() const { return records.size() * sizeof(KeptRecord) + bytes.size(); }
};

// A thread's mentions in one block.
struct ThreadEntry {
    ThreadId id = 0;
    Key first, last;                               // its first and last events of any kind
    std::optional<Key> finished;                   // its first finishing stop
    std::optional<std::uint64_t> stop_before_run;  // its first stop before the block's first run
    std::uint64_t running_ns = 0;                  // its runs that ended in the block (the census's)
    std::int32_t open_segment = -1;                // its segment the block's next run or stop joins
    bool scheduled = false;                        // it ran or stopped in the block (a capability's)
};

// A thread as the shares put together follow it, until the catalog is told its finish.
struct ThreadSum {
    Key last;                     // its latest event so far
    std::optional<Key> finished;  // its first finishing stop so far
    std::uint64_t running_ns = 0;
    // The detail's thread (DetailCensusCollector::ThreadState), over the folded segments.
    std::uint64_t stopped_since = 0;
    std::uint32_t runs = 0;
    bool running = false, live = false, entered = false;
    std::optional<Key> folded_last;  // the last folded segment's last event
};

// A thread's runs and stops in one block, until it migrates away (the file's comment).
struct Segment {
    ThreadId id = 0;
    Key first, last;
    bool first_run = false, last_run = false;
    bool last_finished = false;  // its last event is the thread's finish
    bool after_finish = false;   // an event came after a finish: the blocks cannot tell the census
    std::uint32_t runs = 0;
};

// What a block tells the thread catalog, as ThreadCatalog's entry points take it: a thread's
// first mention in the block (seen), its creation, a label, its first finishing stop. The
// catalog is told them in the log's order, by key, and at one key in this order.
struct CatalogItem {
    enum Kind : std::uint8_t { seen, created, labelled, finished };
    Key key;
    Kind kind = seen;
    ThreadId id = 0;
    std::uint32_t label = 0;  // labelled: its record among the block's labels
    friend bool operator<(const CatalogItem& a, const CatalogItem& b) {
        return a.key != b.key ? a.key < b.key : a.kind < b.kind;
    }
};

// A block's segments or catalog items not yet folded in, in order.
template <class T>
struct Run {
    using Item = T;
    explicit Run(std::vector<T> items) : items(std::move(items)) {}
    std::vector<T> items;
    std::size_t next = 0;
    const T* head() const { return next < items.size() ? &items[next] : nullptr; }
    // Bytes of what is still to fold in.
    std::size_t held_bytes() const { return (items.size() - next) * sizeof(T); }
};
// A block's catalog items, with its labels' records (a labelled item points to one).
struct ItemRun : Run<CatalogItem> {
    ItemRun(std::vector<CatalogItem> items, KeptRecords labels) : Run(std::move(items)), labels(std::move(labels)) {}
    KeptRecords labels;
    std::size_t held_bytes() const { return Run::held_bytes() + labels.held_bytes(); }
};
inline const Key& key_of(const Segment& g) { return g.first; }
inline const Key& key_of(const CatalogItem& i) { return i.key; }
inline bool before(const Segment& a, const Segment& b) { return a.first < b.first; }
inline bool before(const CatalogItem& a, const CatalogItem& b) { return a < b; }

// Takes the items of several runs in their merged order, those that come before `frontier`:
// take(run) takes the run's head, until it returns false. Few runs are in flight (the blocks
// that overlap in time), and a run's items come in stretches: each stretch up to the other
// runs' next item is taken without looking at them again.
// `retire(run)` is given each run taken to its end, before it goes.
template <class R, class Take, class Retire>
void merge_runs(std::vector<std::unique_ptr<R>>& runs, std::uint64_t frontier, Take take, Retire retire) {
    using T = typename R::Item;
    for (;;) {
        R* first = nullptr;  // the run whose next item comes first
        for (const std::unique_ptr<R>& r : runs)
            if (r->head() && (!first || before(*r->head(), *first->head()))) first = r.get();
        if (!first || key_of(*first->head()).time >= frontier) break;
        const T* other = nullptr;  // the next item of the other runs
        for (const std::unique_ptr<R>& r : runs)
            if (r.get() != first && r->head() && (!other || before(*r->head(), *other))) other = r->head();
        do {
            if (!take(*first)) return;
        } while (first->head() && key_of(*first->head()).time < frontier && (!other || before(*first->head(), *other)));
    }
    std::erase_if(runs, [&](const std::unique_ptr<R>& r) {
        if (r->head()) return false;
        retire(*r);
        return true;
    });
}

// The first run or stop of a block's capability, which meets what the blocks before it left.
struct Lead {
    bool run = false;
    ThreadId thread = 0;
    std::uint64_t time = 0;
};

inline Event decoded(const KeptRecord& r, const KeptRecords& kept) {
    Event e;
    e.time = r.key.time;
    e.offset = r.key.offset;
    e.tag = r.tag;
    e.cap = r.cap;
    eventlog::decode_payload_into(r.tag, kept.bytes.data() + r.at, r.size, e.payload);
    return e;
}

// The vectors that readers fill with a block's share and the combiner empties, kept for the
// blocks to come. Each block's would otherwise be new memory: the allocator maps it page by
// page (a fault each), grows it by copying and unmaps it once the share is put together.
// Blocks are alike, so a few kept vectors of each kind serve them all; what is kept is
// bounded in bytes (a vector beyond the bound is freed).
class SpareVectors {
public:
    // An empty vector for about `want` elements: of those given back, the smallest that holds
    // them, else the largest (grown, it is kept larger); none if none was given back. A share
    // in a vector larger than it needs holds memory that others' would not.
    template <class T>
    std::vector<T> take(std::size_t want) {
        std::lock_guard lock(mutex_);
        auto& kept = std::get<Kept<T>>(kept_);
        if (kept.empty()) return {};
        auto best = kept.begin();
        for (auto v = kept.begin(); v != kept.end(); ++v) {
            const bool fits = v->capacity() >= want, best_fits = best->capacity() >= want;
            if (fits ? !best_fits || v->capacity() < best->capacity() : !best_fits && v->capacity() > best->capacity())
                best = v;
        }
        std::vector<T> v = std::move(*best);
        *best = std::move(kept.back());
        kept.pop_back();
        bytes_ -= v.capacity() * sizeof(T);
        return v;
    }
    template <class T>
    void give(std::vector<T>& v) {
        const std::size_t bytes = v.capacity() * sizeof(T);
        if (bytes == 0) return;
        v.clear();
        std::lock_guard lock(mutex_);
        auto& kept = std::get<Kept<T>>(kept_);
        if (kept.size() >= kPerKind || bytes_ + bytes > kMaxBytes) return;  // freed with `v`
        bytes_ += bytes;
        kept.push_back(std::move(v));
    }
    KeptRecords take_records() { return {take<KeptRecord>(0), take<std::uint8_t>(0)}; }
    void give(KeptRecords& r) {
        give(r.records);
        give(r.bytes);
    }
    // Frees what is kept (the blocks are read).
    void release() {
        std::lock_guard lock(mutex_);
        kept_ = {};
        bytes_ = 0;
    }

    static constexpr std::size_t kPerKind = 6;         // a share for each reader, a few to spare
    static constexpr std::size_t kMaxBytes = 8 << 20;  // kept at most, all kinds together

private:
    template <class T>
    using Kept = std::vector<std::vector<T>>;
    std::mutex mutex_;
    std::tuple<Kept<ThreadEntry>, Kept<Segment>, Kept<CatalogItem>, Kept<KeptRecord>, Kept<std::uint8_t>> kept_;
    std::size_t bytes_ = 0;
};

// How many threads, segments and catalog items a share held (the next one of its
// capability's blocks likely holds about as many).
struct ShareSizes {
    std::size_t threads = 0, segments = 0, items = 0;
};

struct Share {
    // Its vectors, kept ones if there are, for about `likely` elements.
    Share(SpareVectors& spares, const ShareSizes& likely)
        : threads(spares.take<ThreadEntry>(likely.threads)),
          segments(spares.take<Segment>(likely.segments)),
          items(spares.take<CatalogItem>(likely.items)),
          labels(spares.take_records()),
          kept(spares.take_records()) {}
    ShareSizes sizes() const { return {threads.size(), segments.size(), items.size()}; }
    // Its vectors, to be kept for the next blocks (those not moved on).
    void give_back(SpareVectors& spares) {
        spares.give(threads);
        spares.give(segments);
        spares.give(items);
        spares.give(labels);
        spares.give(kept);
    }

    std::size_t block = 0;
    std::optional<CapNo> cap;
    std::uint64_t min_time = 0, max_time = 0;  // its records' earliest and latest
    // A block need not be in time order (GHC stamps a collection's end before the heap's
    // figures it writes first), but the events whose order the census follows must be, each
    // kind among themselves, in the block and from one of the capability's blocks to the next:
    // runs, stops and migrations; the collections' starts and ends.
    std::optional<Key> sched_first, sched_last, gc_first, gc_last;
    std::array<std::uint64_t, kTags> by_tag{};
    bool ticks = false;  // time-profile ticks, which the blocks cannot place (declines)

    // The detail's spans inside the block, and its messages.
    LengthHistogram running, idle, gc, stopped;
    std::uint64_t message_bytes = 0;

    // The capability as the detail follows it (DetailCensusCollector::Capability): `scheduled`
    // once a run or stop set its idle and running state, `gc_known` once a GC event set its
    // collection's; before that, the capability's blocks before it decide (lead, lead_end_gc).
    bool scheduled = false, gc_known = false, detail_cap = false;
    std::optional<std::uint64_t> idle_since, gc_since;
    std::optional<ThreadId> running_thread;
    std::uint64_t running_since = 0;
    std::optional<Lead> lead;
    std::optional<std::uint64_t> lead_end_gc;
    // The capability's running thread as the census counts running time (RunCensusCollector):
    // `known` once a run came.
    bool run_known = false, run_on = false;
    ThreadId run_thread = 0;
    std::uint64_t run_since = 0;

    std::optional<std::array<bool, runtime::kSparkCounterCount>> sparks;  // non-zero series
    std::vector<ThreadEntry> threads;
    std::vector<Segment> segments;
    std::vector<CatalogItem> items;  // in order (end_block())
    KeptRecords labels;              // the labels' records
    KeptRecords kept;                // the run's facts; the messages, to rewrite

    // What it holds that grows with its block's records (held_back_bytes).
    std::size_t held_bytes() const {
        return threads.size() * sizeof(ThreadEntry) + segments.size() * sizeof(Segment) +
               items.size() * sizeof(CatalogItem) + labels.held_bytes() + kept.held_bytes();
    }
};

// A reader for one checking thread (block_reader.cpp).
std::unique_ptr<eventlog::BlockReader> make_reader(BlockCensus& census);

}  // namespace el2fx::run::blocks
