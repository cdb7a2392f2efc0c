#include "analysis/run/block_census.hpp"

#include <algorithm>
#include <array>
#include <memory_resource>
#include <span>
#include <unordered_map>
#include <utility>

#include "analysis/runtime/spark_counters.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/payload_decoder.hpp"
#include "util/id_map.hpp"
#include "util/recycling_memory.hpp"

namespace el2fx::run {
namespace {

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
    void keep(const Key& key, std::uint16_t tag, std::optional<CapNo> cap, const std::uint8_t* payload, std::uint32_t size) {
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
    std::uint32_t entry = 0;  // its thread's in the block
    ThreadSum* sum = nullptr;  // its thread's, once the block is put in
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
    std::uint32_t label = 0;  // labelled: its record among the block's labels; finished: its thread's entry
    ThreadSum* sum = nullptr;  // finished: its thread's, once the block is put in
    friend bool operator<(const CatalogItem& a, const CatalogItem& b) {
        return a.key != b.key ? a.key < b.key : a.kind < b.kind;
    }
};

// A block's segments or catalog items not yet folded in, in order.
template <class T>
struct Run {
    std::vector<T> items;
    std::size_t next = 0;
    KeptRecords labels;  // the labelled items' records
    const T* head() const { return next < items.size() ? &items[next] : nullptr; }
};
inline const Key& key_of(const Segment& g) { return g.first; }
inline const Key& key_of(const CatalogItem& i) { return i.key; }
inline bool before(const Segment& a, const Segment& b) { return a.first < b.first; }
inline bool before(const CatalogItem& a, const CatalogItem& b) { return a < b; }

// Takes the items of several runs in their merged order, those that come before `frontier`:
// take(run) takes the run's head, until it returns false. Few runs are in flight (the blocks
// that overlap in time), and a run's items come in stretches: each stretch up to the other
// runs' next item is taken without looking at them again.
template <class T, class Take>
void merge_runs(std::vector<std::unique_ptr<Run<T>>>& runs, std::uint64_t frontier, Take take) {
    for (;;) {
        Run<T>* first = nullptr;  // the run whose next item comes first
        for (const std::unique_ptr<Run<T>>& r : runs)
            if (r->head() && (!first || before(*r->head(), *first->head()))) first = r.get();
        if (!first || key_of(*first->head()).time >= frontier) break;
        const T* other = nullptr;  // the next item of the other runs
        for (const std::unique_ptr<Run<T>>& r : runs)
            if (r.get() != first && r->head() && (!other || before(*r->head(), *other))) other = r->head();
        do {
            if (!take(*first)) return;
        } while (first->head() && key_of(*first->head()).time < frontier && (!other || before(*first->head(), *other)));
    }
    std::erase_if(runs, [](const std::unique_ptr<Run<T>>& r) { return !r->head(); });
}

// The first run or stop of a block's capability, which meets what the blocks before it left.
struct Lead {
    bool run = false;
    ThreadId thread = 0;
    std::uint64_t time = 0;
};

}  // namespace

struct BlockCensus::Share {
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
};

// A thread created in fewer of the records the census reads than this, on average, and the
// census pass is quicker (logs of short-lived threads create one in a few records, busy
// programs in dozens or more); judged once this many are read.
constexpr std::uint64_t kRecordsPerThread = 16;
constexpr std::uint64_t kJudgedAfter = 1 << 14;

// One checking thread's: a share per block it checks.
class BlockCensus::Reader final : public eventlog::BlockReader {
public:
    explicit Reader(BlockCensus& census) : census_(census) {}

    bool begin_block(std::size_t block, std::optional<CapNo> cap) override {
        share_.reset();
        if (census_.declined_) return false;
        share_ = std::make_unique<Share>();
        std::fill(slots_.begin(), slots_.end(), 0);  // the table, empty again (whatever ended the last block)
        recent_ = {};
        share_->block = block;
        share_->cap = cap;
        return true;
    }

    void records(std::span<const eventlog::BlockRecord> records) override {
        if (!share_) return;
        for (const eventlog::BlockRecord& r : records) record(r);
        // Each thread costs the blocks' census more than it costs the census pass: its state is
        // put together from several blocks, and told to the catalog in the log's order on one
        // core. Where threads are created often (short-lived ones, a log of them), that costs
        // more than a pass saves: judged on the records so far, once there are enough to tell,
        // and early, before a block's share holds much (freed, it would leave the heap in
        // pieces that the later phases' peak sits on).
        const std::uint64_t read = census_.records_ += records.size();
        const std::uint64_t made = census_.creations_ += std::exchange(creations_, 0);
        if (read >= kJudgedAfter && made * kRecordsPerThread > read)
            census_.decline("threads so many that a pass is quicker");
        if (census_.declined_) share_.reset();
    }

    void record(const eventlog::BlockRecord& r) {
        using namespace eventlog;
        using eventlog::decode_as;
        Share& s = *share_;
        const Key key{r.time, r.offset};
        switch (r.tag) {
            case WakeupThread::tag:  // first: most of a busy service's records
                if (WakeupThread p; decode_as(r.payload, r.payload_size, p)) seen(p.thread, key);
                return;
            case RunThread::tag:
                if (RunThread p; decode_as(r.payload, r.payload_size, p)) run(p.thread, key);
                return;
            case StopThread::tag:
                if (StopThread p; decode_as(r.payload, r.payload_size, p)) stop(p.thread, p.status, key);
                return;
            case MigrateThread::tag:
                if (MigrateThread p; decode_as(r.payload, r.payload_size, p)) {
                    if (s.cap) in_order(s.sched_first, s.sched_last, key);
                    ThreadEntry& t = seen(p.thread, key);
                    t.open_segment = -1;  // it runs elsewhere next: a new segment if it comes back
                }
                return;
            case CreateThread::tag:
                if (CreateThread p; decode_as(r.payload, r.payload_size, p)) {
                    ++creations_;
                    thread(p.thread, key);
                    s.items.push_back({key, CatalogItem::created, p.thread});
                }
                return;
            case ThreadLabel::tag:
                if (ThreadLabel p; decode_as(r.payload, r.payload_size, p)) {
                    thread(p.thread, key);
                    s.items.push_back({key, CatalogItem::labelled, p.thread,
                                       static_cast<std::uint32_t>(s.labels.records.size())});
                    s.labels.keep(key, r.tag, s.cap, r.payload, r.payload_size);
                }
                return;
            case StartGC::tag:
                if (s.cap) {
                    in_order(s.gc_first, s.gc_last, key);
                    s.detail_cap = true;
                    s.gc_since = r.time;
                    s.gc_known = true;
                }
                return;
            case EndGC::tag:
                if (s.cap) {
                    in_order(s.gc_first, s.gc_last, key);
                    s.detail_cap = true;
                    if (!s.gc_known) {
                        s.lead_end_gc = r.time;
                    } else if (s.gc_since) {
                        s.gc.add(r.time - *s.gc_since);
                    }
                    s.gc_since.reset();
                    s.gc_known = true;
                }
                return;
            case UserMessage::tag:
                if (UserMessage p; decode_as(r.payload, r.payload_size, p)) message(r, p.message.bytes.size());
                return;
            case UserMarker::tag:
                if (UserMarker p; decode_as(r.payload, r.payload_size, p)) message(r, p.marker.bytes.size());
                return;
            case SparkCounters::tag:
                if (SparkCounters p; s.cap && decode_as(r.payload, r.payload_size, p)) {
                    if (!s.sparks) s.sparks.emplace();  // all false at first
                    const runtime::SparkCounts counts = runtime::spark_counts(p);
                    for (std::size_t i = 0; i < counts.size(); ++i) (*s.sparks)[i] = (*s.sparks)[i] || counts[i] != 0;
                }
                return;
            case ProfBegin::tag:
            case ProfSampleCostCentre::tag: s.ticks = true; return;
            default:
                if (RunInfoCollector::tells(r.tag)) keep(r);
                return;
        }
    }

    void end_block(const eventlog::BlockTotals& totals) override {
        if (!share_) return;  // declined on the way
        Share& s = *share_;
        s.by_tag = totals.by_tag;
        s.min_time = totals.min_time;
        s.max_time = totals.max_time;
        if (s.ticks) census_.decline("time-profile ticks");
        // Made in the records' order, which is the log's where the block is in time order.
        if (!std::is_sorted(s.items.begin(), s.items.end())) std::sort(s.items.begin(), s.items.end());
        const auto by_first = [](const Segment& a, const Segment& b) { return a.first < b.first; };
        if (!std::is_sorted(s.segments.begin(), s.segments.end(), by_first))
            std::stable_sort(s.segments.begin(), s.segments.end(), by_first);
        if (census_.declined_) {
            share_.reset();
            return;
        }
        census_.put(std::move(share_));
    }

private:
    // An event of a kind whose order the census follows (Share::sched_first).
    void in_order(std::optional<Key>& first, std::optional<Key>& last, const Key& key) {
        if (last && key < *last) census_.decline("a capability's runs, stops or collections out of time order");
        if (!first) first = key;
        last = key;
    }

    void keep(const eventlog::BlockRecord& r) {
        share_->kept.keep({r.time, r.offset}, r.tag, share_->cap, r.payload, r.payload_size);
    }

    void message(const eventlog::BlockRecord& r, std::size_t bytes) {
        if (census_.rewrites_texts_) return keep(r);  // its size once rewritten
        share_->message_bytes += bytes;
    }

    // The thread's entry, and the catalog's item where this is its earliest mention in the
    // block so far (an item of another kind tells the catalog that it was seen, too).
    ThreadEntry& seen(ThreadId id, const Key& key) {
        ThreadEntry& t = thread(id, key);
        if (first_now_) share_->items.push_back({key, CatalogItem::seen, id});
        return t;
    }

    // The thread's entry in this block, made at its first mention; first_now_: whether this
    // is its earliest so far. Its recent entries first: the scheduler's events name the same
    // few threads again and again.
    ThreadEntry& thread(ThreadId id, const Key& key) {
        Recent& r = recent_[id % recent_.size()];
        if (r.id_plus_one == std::uint64_t{id} + 1) {
            ThreadEntry& t = share_->threads[r.index];
            mention(t, key);
            return t;
        }
        ThreadEntry& t = lookup(id, key);
        r = Recent{std::uint64_t{id} + 1, static_cast<std::uint32_t>(&t - share_->threads.data())};
        return t;
    }
    ThreadEntry& lookup(ThreadId id, const Key& key) {
        if (slots_.size() < 2 * (share_->threads.size() + 1)) grow();
        for (std::size_t i = slot_of(id);; i = (i + 1) & (slots_.size() - 1)) {
            const std::uint32_t at = slots_[i];
            if (at == 0) {
                slots_[i] = static_cast<std::uint32_t>(share_->threads.size() + 1);
                ThreadEntry& t = share_->threads.emplace_back();
                t.id = id;
                t.first = t.last = key;
                first_now_ = true;
                return share_->threads.back();
            }
            if (ThreadEntry& t = share_->threads[at - 1]; t.id == id) {
                mention(t, key);
                return t;
            }
        }
    }
    void mention(ThreadEntry& t, const Key& key) {
        first_now_ = key < t.first;  // a block's records need not be in time order
        if (first_now_) t.first = key;
        if (t.last < key) t.last = key;
    }
    std::size_t slot_of(ThreadId id) const {
        return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
    }
    void grow() {
        slots_.assign(std::max<std::size_t>(64, slots_.size() * 2), 0);
        for (std::size_t n = 0; n < share_->threads.size(); ++n) {
            std::size_t i = slot_of(share_->threads[n].id);
            while (slots_[i] != 0) i = (i + 1) & (slots_.size() - 1);
            slots_[i] = static_cast<std::uint32_t>(n + 1);
        }
    }

    Segment& segment(ThreadEntry& t, const Key& key, bool run) {
        Share& s = *share_;
        t.scheduled = true;
        if (t.open_segment < 0) {
            t.open_segment = static_cast<std::int32_t>(s.segments.size());
            s.segments.push_back(Segment{.id = t.id,
                                         .entry = static_cast<std::uint32_t>(&t - s.threads.data()),
                                         .first = key,
                                         .last = key,
                                         .first_run = run,
                                         .last_run = run});
            return s.segments.back();
        }
        Segment& g = s.segments[static_cast<std::size_t>(t.open_segment)];
        if (g.last_finished) g.after_finish = true;
        // A stopped span inside the segment: its stop, then this run (DetailCensusCollector::run()).
        if (run && !g.last_run) s.stopped.add(key.time - g.last.time);
        g.last = key;
        g.last_run = run;
        return g;
    }

    void run(ThreadId id, const Key& key) {
        Share& s = *share_;
        ThreadEntry& t = seen(id, key);
        if (!s.cap) return;  // the catalog's only
        in_order(s.sched_first, s.sched_last, key);
        Segment& g = segment(t, key, true);
        ++g.runs;
        // The detail's capability.
        s.detail_cap = true;
        if (!s.scheduled) {
            s.lead = Lead{true, id, key.time};
        } else if (s.idle_since) {
            s.idle.add(key.time - *s.idle_since);
        }
        s.scheduled = true;
        s.idle_since.reset();
        s.running_thread = id;
        s.running_since = key.time;
        // The census's running time.
        s.run_known = true;
        s.run_on = true;
        s.run_thread = id;
        s.run_since = key.time;
    }

    void stop(ThreadId id, std::uint16_t status, const Key& key) {
        Share& s = *share_;
        ThreadEntry& t = thread(id, key);
        if (status == kFinished && (!t.finished || key < *t.finished)) {
            t.finished = key;
            s.items.push_back({key, CatalogItem::finished, id, static_cast<std::uint32_t>(&t - s.threads.data())});  // seen too
        } else if (first_now_) {
            s.items.push_back({key, CatalogItem::seen, id});
        }
        if (!s.cap) {
            // The detail follows a capability's stops only, the catalog every one: the two
            // would part where a thread's state is dropped at its finish (Combiner::retire()).
            if (status == kFinished) census_.decline("a thread's finish outside a capability's block");
            return;
        }
        in_order(s.sched_first, s.sched_last, key);
        Segment& g = segment(t, key, false);
        if (status == kFinished) g.last_finished = true;
        s.detail_cap = true;
        if (!s.scheduled) {
            s.lead = Lead{false, id, key.time};
        } else if (s.running_thread == id) {
            s.running.add(key.time - s.running_since);
        }
        s.scheduled = true;
        s.running_thread.reset();
        s.idle_since = key.time;
        if (!s.run_known) {
            if (!t.stop_before_run) t.stop_before_run = key.time;
        } else if (s.run_on && s.run_thread == id) {
            t.running_ns += key.time - s.run_since;
            s.run_on = false;
        }
    }

    BlockCensus& census_;
    std::unique_ptr<Share> share_;
    std::vector<std::uint32_t> slots_;  // the block's threads by id: index + 1 into share_->threads, 0: free
    struct Recent {
        std::uint64_t id_plus_one = 0;  // 0: none
        std::uint32_t index = 0;        // into share_->threads
    };
    std::array<Recent, 256> recent_{};
    bool first_now_ = false;  // set by thread()
    std::uint64_t creations_ = 0;  // in the records() at hand
};

namespace {

Event decoded(const KeptRecord& r, const KeptRecords& kept) {
    Event e;
    e.time = r.key.time;
    e.offset = r.key.offset;
    e.tag = r.tag;
    e.cap = r.cap;
    eventlog::decode_payload_into(r.tag, kept.bytes.data() + r.at, r.size, e.payload);
    return e;
}

}  // namespace

// The shares put together, in file order as they come (a block's share waits for the ones
// before it): each capability's spans, each thread's segments in time order, the catalog told
// what the blocks say of threads in the log's order. What a block holds is folded in once no
// block still to come can hold anything earlier (the frontier: the earliest start of the
// blocks to come), so memory follows the blocks in flight and the live threads, not the log: a
// thread's state is dropped at its finish, and the catalog forgets finished threads as the
// census pass's does (RunCensusCollector), at the same events.
struct BlockCensus::Combiner {
    Combiner(const CensusLimits& limits, const Rewrite& rewrite)
        : limits(limits),
          rewrite(rewrite),
          forget_at(limits.thread_tracks ? limits.forget_above : SIZE_MAX),
          next_prune(limits.forget_above) {}

    struct CapState {
        std::uint64_t start = ~std::uint64_t{0};  // its earliest record
        std::optional<Key> sched_seen, gc_seen;    // its latest run, stop or migration; collection event
        std::optional<std::uint64_t> idle_since, gc_since;
        std::optional<ThreadId> running_thread;
        std::uint64_t running_since = 0;
        bool run_on = false;
        ThreadId run_thread = 0;
        std::uint64_t run_since = 0;
    };
    using ItemRun = Run<CatalogItem>;

    const CensusLimits& limits;
    const Rewrite& rewrite;
    std::vector<std::uint64_t> frontier_after;  // by block: the earliest start of it and the blocks after it
    std::vector<std::uint64_t> starts;          // by block: its marker's start time
    std::map<std::size_t, std::unique_ptr<Share>> waiting;
    std::size_t next = 0;  // the next block to put in
    std::map<CapNo, CapState> caps;
    // Until the catalog is told their finish; millions of short-lived ones reuse their nodes' memory.
    util::RecyclingMemory thread_nodes;
    std::pmr::unordered_map<ThreadId, ThreadSum> threads{&thread_nodes};
    std::vector<ThreadSum*> sums;  // by the entries of the share being put in
    util::IdSet gone;                                   // the threads dropped at their finish
    util::IdSet forgotten;                              // by the catalog (of the gone ones)
    // The dropped threads mentioned after their finish (a label, say): their latest mention,
    // while the catalog may still forget them before it (to the census pass, the mention
    // would then make the thread a new one: declined).
    std::unordered_map<ThreadId, Key> late;
    // The segments not yet foldable, of every thread, by block: folded in the log's order.
    std::vector<std::unique_ptr<Run<Segment>>> pending;
    std::vector<std::unique_ptr<ItemRun>> runs;  // the catalog's items still to tell, by block
    std::uint64_t told_below = 0;                // every item earlier than this is told
    ThreadCatalog catalog;
    std::vector<std::uint64_t> running_by_ordinal;  // the dropped threads' running time, by the catalog's ordinal
    std::size_t forget_at;                          // the catalog's size past which it forgets (RunCensusCollector)
    std::size_t next_prune;                         // runs_by_thread's size past which it is pruned (DetailCensusCollector)
    KeptRecords kept;
    std::array<std::uint64_t, kTags> by_tag{};
    std::uint64_t min_time = ~std::uint64_t{0}, max_time = 0;
    std::uint16_t first_tag = 0;  // a tag of the block holding the earliest record
    DetailCensus detail;
    std::uint32_t detail_caps = 0;
    std::uint64_t message_bytes = 0;
    std::map<CapNo, std::array<bool, runtime::kSparkCounterCount>> spark_series;
    const char* failed = nullptr;

    void put(std::unique_ptr<Share> share) {
        const std::size_t block = share->block;
        waiting.emplace(block, std::move(share));
        while (!failed && !waiting.empty() && waiting.begin()->first == next) {
            put_in_order(*waiting.begin()->second);
            waiting.erase(waiting.begin());
            ++next;
            const std::uint64_t frontier = next < frontier_after.size() ? frontier_after[next] : ~std::uint64_t{0};
            fold(frontier);
            tell_catalog(frontier);
            if (held_back() > limits.held_back_bytes) failed = "blocks held back too long (a block spanning much of the log)";
        }
    }

    void put_in_order(Share& s) {
        // The frontier holds if no segment begins before its block's start. Other records may
        // (GHC stamps some of a collection's events before the block it writes them in began).
        if (s.block < starts.size() && s.sched_first && s.sched_first->time < starts[s.block]) {
            failed = "a run or stop before its block's start";
            return;
        }
        sums.assign(s.threads.size(), nullptr);
        for (std::size_t n = 0; n < s.threads.size(); ++n) {
            const ThreadEntry& t = s.threads[n];
            if (t.first.time < told_below) {  // the catalog was told later events already
                failed = "a thread's event before its block's start";
                return;
            }
            if (gone.contains(t.id)) {  // a mention after its finish: the catalog's only
                if (forgotten.contains(t.id)) {
                    failed = "a forgotten thread's later event";
                    return;
                }
                if (t.scheduled || t.finished) {
                    failed = "a thread's events after its finish";
                    return;
                }
                Key& l = late[t.id];
                if (l < t.last) l = t.last;
                continue;
            }
            auto [it, added] = threads.try_emplace(t.id);
            ThreadSum& sum = it->second;
            if (added || sum.last < t.last) sum.last = t.last;
            if (t.finished && (!sum.finished || *t.finished < *sum.finished)) sum.finished = t.finished;
            sum.running_ns += t.running_ns;
            sums[n] = &sum;  // its node stays put until erased
        }
        for (Segment& g : s.segments) g.sum = sums[g.entry];
        for (CatalogItem& i : s.items)
            if (i.kind == CatalogItem::finished) i.sum = sums[i.label];
        for (std::size_t t = 0; t < kTags; ++t) by_tag[t] += s.by_tag[t];
        if (s.min_time < min_time) {
            min_time = s.min_time;
            for (std::size_t t = 0; t < kTags; ++t)
                if (s.by_tag[t] > 0) {
                    first_tag = static_cast<std::uint16_t>(t);
                    break;
                }
        }
        max_time = std::max(max_time, s.max_time);
        message_bytes += s.message_bytes;
        kept.append(s.kept);
        if (!s.segments.empty()) pending.push_back(std::make_unique<Run<Segment>>(std::move(s.segments)));
        if (!s.items.empty()) runs.push_back(std::make_unique<ItemRun>(std::move(s.items), 0, std::move(s.labels)));
        detail.running.add(s.running);
        detail.idle.add(s.idle);
        detail.gc.add(s.gc);
        detail.stopped.add(s.stopped);
        if (s.cap) put_capability(*s.cap, s);
    }

    void put_capability(CapNo cap, const Share& s) {
        CapState& c = caps[cap];
        c.start = std::min(c.start, s.min_time);
        // Its runs, stops and collections in order across its blocks.
        if ((c.sched_seen && s.sched_first && *s.sched_first < *c.sched_seen) ||
            (c.gc_seen && s.gc_first && *s.gc_first < *c.gc_seen)) {
            failed = "a capability's runs, stops or collections out of time order";
            return;
        }
        if (s.sched_last) c.sched_seen = s.sched_last;
        if (s.gc_last) c.gc_seen = s.gc_last;
        if (s.detail_cap) detail_caps = std::max<std::uint32_t>(detail_caps, std::uint32_t{cap} + 1);
        if (s.lead) {
            if (s.lead->run && c.idle_since) detail.idle.add(s.lead->time - *c.idle_since);
            if (!s.lead->run && c.running_thread == s.lead->thread) detail.running.add(s.lead->time - c.running_since);
        }
        if (s.lead_end_gc && c.gc_since) detail.gc.add(*s.lead_end_gc - *c.gc_since);
        if (s.scheduled) {
            c.idle_since = s.idle_since;
            c.running_thread = s.running_thread;
            c.running_since = s.running_since;
        }
        if (s.gc_known) c.gc_since = s.gc_since;
        if (c.run_on)  // the stops before the block's first run: the running thread's closes its run
            for (const ThreadEntry& t : s.threads)
                if (t.id == c.run_thread && t.stop_before_run) {
                    threads[t.id].running_ns += *t.stop_before_run - c.run_since;
                    c.run_on = false;
                }
        if (s.run_known) {
            c.run_on = s.run_on;
            c.run_thread = s.run_thread;
            c.run_since = s.run_since;
        }
        if (s.sparks) {
            auto& nonzero = spark_series.try_emplace(cap).first->second;
            for (std::size_t i = 0; i < nonzero.size(); ++i) nonzero[i] = nonzero[i] || (*s.sparks)[i];
        }
    }

    // What waits behind the frontier: segments and catalog items.
    std::size_t held_back() const {
        std::size_t bytes = 0;
        for (const std::unique_ptr<Run<Segment>>& r : pending) bytes += (r->items.size() - r->next) * sizeof(Segment);
        for (const std::unique_ptr<ItemRun>& r : runs)
            bytes += (r->items.size() - r->next) * sizeof(CatalogItem) + r->labels.bytes.size();
        return bytes;
    }

    // Folds the pending segments that begin before `frontier`.
    void fold(std::uint64_t frontier) {
        merge_runs(pending, frontier, [&](Run<Segment>& run) {
            const Segment& g = run.items[run.next++];
            if (gone.contains(g.id)) {  // dropped at its finish, which this segment follows
                failed = "a thread's events after its finish";
                return false;
            }
            fold(*g.sum, g);
            return !failed;
        });
    }

    // The detail's thread over one more segment, as DetailCensusCollector::run() and stop()
    // would have followed its events.
    void fold(ThreadSum& t, const Segment& g) {
        if (g.after_finish || (t.entered && !t.live)) {
            failed = "a thread's events after its finish";
            return;
        }
        if (t.folded_last && !(*t.folded_last < g.first)) {
            failed = "a thread's runs on two capabilities overlap";
            return;
        }
        t.folded_last = g.last;
        if (!t.entered) {  // its first run or stop
            t.entered = t.live = true;
            t.stopped_since = g.first.time;
            ++detail.threads;
        }
        if (g.first_run) {
            if (t.runs > 0 && !t.running) detail.stopped.add(g.first.time - t.stopped_since);
            t.running = true;
        } else {
            t.stopped_since = g.first.time;
            t.running = false;
            t.runs = std::max<std::uint32_t>(t.runs, 1);
        }
        t.runs += g.runs;
        if (!(g.first == g.last)) {
            t.running = g.last_run;
            if (!g.last_run) {
                t.stopped_since = g.last.time;
                t.runs = std::max<std::uint32_t>(t.runs, 1);
            }
        }
        if (g.last_finished) t.live = false;  // its runs are counted when the catalog is told its finish
    }

    // Tells the catalog the items earlier than `frontier`, in the log's order.
    void tell_catalog(std::uint64_t frontier) {
        told_below = std::max(told_below, frontier);
        merge_runs(runs, frontier, [&](ItemRun& run) {
            const CatalogItem& item = run.items[run.next++];
            tell(item, run);
            // After each event, as the census pass: its items at one key are told together.
            const CatalogItem* after = run.head();
            if (!after || after->key != item.key)
                if (catalog.threads().size() > forget_at) forget(item.key);
            return !failed;
        });
        // Mentions told already: no later forgetting precedes them.
        if (!late.empty()) std::erase_if(late, [&](const auto& l) { return l.second.time < told_below; });
    }

    void tell(const CatalogItem& item, const ItemRun& run) {
        switch (item.kind) {
            case CatalogItem::seen: catalog.seen(item.id, item.key.time); break;
            case CatalogItem::created: catalog.created(item.id, item.key.time); break;
            case CatalogItem::labelled: {
                const Event e = decoded(run.labels.records[item.label], run.labels);
                catalog.handle(rewrite ? rewrite(e) : e);
                break;
            }
            case CatalogItem::finished:
                catalog.stopped(item.id, kFinished, item.key.time);
                drop(item);
                break;
        }
    }

    // A thread the catalog was told the finish of: every run and stop of it is in (any later
    // event of it declines), its state goes, its running time to the catalog's side.
    void drop(const CatalogItem& item) {
        const ThreadId id = item.id;
        if (gone.contains(id)) {  // finished twice
            failed = "a thread's events after its finish";
            return;
        }
        if (!item.sum || item.sum->live) {  // the detail did not see the finish (not expected)
            failed = "a thread's finish the detail did not see";
            return;
        }
        const ThreadSum& t = *item.sum;
        if (t.finished && *t.finished < t.last) late[id] = t.last;
        const std::uint32_t ordinal = *catalog.ordinal(id);
        if (ordinal >= running_by_ordinal.size()) running_by_ordinal.resize(catalog.threads().size(), 0);
        running_by_ordinal[ordinal] = t.running_ns;
        if (t.entered) {  // as DetailCensusCollector::finished()
            detail.runs_by_thread.push_back(t.runs);
            if (limits.thread_tracks && detail.runs_by_thread.size() > next_prune) {
                detail.keep_busiest_runs(*limits.thread_tracks);
                next_prune = std::max(limits.forget_above, 2 * detail.runs_by_thread.size());
            }
        }
        threads.erase(id);
        gone.insert(id);
    }

    // As RunCensusCollector::forget_finished_threads(), after the event at `key`: the finished
    // threads that cannot win a track go, then the catalog may double again.
    void forget(const Key& key) {
        running_by_ordinal.resize(catalog.threads().size(), 0);
        const std::vector<bool> keep = threads_to_keep(catalog, running_by_ordinal, *limits.thread_tracks);
        for (std::size_t i = 0; i < keep.size(); ++i)
            if (!keep[i]) {
                const ThreadId id = catalog.threads()[i].id;
                forgotten.insert(id);
                if (auto l = late.find(id); l != late.end() && key < l->second) failed = "a forgotten thread's later event";
            }
        catalog.forget_unless(keep);
        std::size_t kept = 0;
        for (std::size_t i = 0; i < keep.size(); ++i)
            if (keep[i]) running_by_ordinal[kept++] = running_by_ordinal[i];
        running_by_ordinal.resize(kept);
        forget_at = std::max(limits.forget_above, 2 * kept);
    }

    // Running time added at the end of the log: to the thread's state, or the catalog's side
    // once dropped (nothing if forgotten, as the census pass).
    void add_running(ThreadId id, std::uint64_t ns) {
        if (auto it = threads.find(id); it != threads.end()) {
            it->second.running_ns += ns;
        } else if (std::optional<std::uint32_t> i = catalog.ordinal(id)) {
            if (*i >= running_by_ordinal.size()) running_by_ordinal.resize(catalog.threads().size(), 0);
            running_by_ordinal[*i] += ns;
        }
    }
};

BlockCensus::BlockCensus(bool include_env, CensusLimits limits, Rewrite rewrite, bool rewrites_texts)
    : include_env_(include_env),
      limits_(limits),
      rewrite_(rewrite ? std::move(rewrite) : Rewrite([](const Event& e) -> const Event& { return e; })),
      rewrites_texts_(rewrites_texts),
      combiner_(std::make_unique<Combiner>(limits_, rewrite_)) {
    // The records of what the census pass handles, as it declares them; the rest only counted.
    reading_.given = RunCensusCollector::interests().handles;
    // Only a capability's blocks hold segments: the global block, which the RTS writes last
    // but began first, holds the frontier back for none.
    reading_.found = [this](std::span<const eventlog::BlockReading::Start> starts) {
        Combiner& c = *combiner_;
        c.starts.clear();
        for (const eventlog::BlockReading::Start& s : starts) c.starts.push_back(s.cap ? s.time : 0);
        c.frontier_after.assign(starts.size(), 0);
        std::uint64_t earliest = ~std::uint64_t{0};
        for (std::size_t i = starts.size(); i-- > 0;) {
            if (starts[i].cap) earliest = std::min(earliest, starts[i].time);
            c.frontier_after[i] = earliest;
        }
    };
    reading_.reader = [this] { return std::make_unique<Reader>(*this); };
}

BlockCensus::~BlockCensus() = default;

void BlockCensus::put(std::unique_ptr<Share> share) {
    std::lock_guard lock(mutex_);
    combiner_->put(std::move(share));
    if (combiner_->failed) decline(combiner_->failed);
}

std::optional<RunCensus> BlockCensus::finish() {
    using namespace eventlog;
    Combiner& c = *combiner_;
    if (declined_) return std::nullopt;
    if (c.next == 0 || !c.waiting.empty()) return declined("blocks missing");
    c.fold(~std::uint64_t{0});
    c.tell_catalog(~std::uint64_t{0});
    if (c.failed) return declined(c.failed);

    RunCensus census;
    DetailCensus& detail = census.detail;
    detail = std::move(c.detail);

    // The run's facts: every record counted, the first one's time, the facts' records in order.
    RunInfoCollector run(include_env_);
    CountedRecords counted;
    counted.by_tag = c.by_tag;
    counted.latest_time = c.max_time;
    Event first;
    first.time = c.min_time;
    first.tag = c.first_tag;
    run.count(first);
    --counted.by_tag[c.first_tag];
    run.count(counted);
    ++counted.by_tag[c.first_tag];  // the whole log's counts, again
    for (const auto& [cap, state] : c.caps) run.see_capability(cap);
    std::vector<KeptRecord>& kept = c.kept.records;
    std::sort(kept.begin(), kept.end(), [](const KeptRecord& a, const KeptRecord& b) { return a.key < b.key; });
    for (const KeptRecord& r : kept)
        if (RunInfoCollector::tells(r.tag)) run.note(rewrite_(decoded(r, c.kept)));
    census.run = run.info();
    const std::uint64_t now = census.run.last_time;  // the census's clock at the end

    // Spans still open at the end of the log.
    for (auto& [cap, s] : c.caps) {
        census.capability_starts.emplace(cap, s.start);
        if (s.running_thread) detail.running.add(now - s.running_since);
        if (s.idle_since) detail.idle.add(now - *s.idle_since);
        if (s.gc_since) detail.gc.add(now - *s.gc_since);
        if (s.run_on) c.add_running(s.run_thread, now - s.run_since);
    }
    detail.capabilities = c.detail_caps;
    census.spark_series = std::move(c.spark_series);
    for (const auto& [id, t] : c.threads)
        if (t.live) {  // stopped to the end
            if (!t.running) detail.stopped.add(now - t.stopped_since);
            detail.runs_by_thread.push_back(t.runs);
        }
    std::sort(detail.runs_by_thread.begin(), detail.runs_by_thread.end(), std::greater<>());

    // The catalog, told everything; the running time of its threads not dropped.
    c.catalog.finish();
    census.threads = std::move(c.catalog);
    census.running_by_ordinal = std::move(c.running_by_ordinal);
    census.running_by_ordinal.resize(census.threads.threads().size(), 0);
    for (const auto& [id, t] : c.threads)
        if (std::optional<std::uint32_t> i = census.threads.ordinal(id)) census.running_by_ordinal[*i] = t.running_ns;
    census.running_by_ordinal.shrink_to_fit();

    // The rest of the detail: what the events' numbers tell.
    const auto n = [&](std::uint16_t tag) { return counted.by_tag[tag]; };
    detail.moments = n(MigrateThread::tag) + n(WakeupThread::tag);
    detail.thread_events = n(CreateThread::tag) + n(ThreadLabel::tag);
    detail.messages = n(UserMessage::tag) + n(UserMarker::tag);
    detail.message_bytes = c.message_bytes;
    for (const KeptRecord& r : kept) {
        if (r.tag != UserMessage::tag && r.tag != UserMarker::tag) continue;
        const Event& e = rewrite_(decoded(r, c.kept));
        if (const auto* p = e.as<UserMessage>()) detail.message_bytes += p->message.bytes.size();
        if (const auto* p = e.as<UserMarker>()) detail.message_bytes += p->marker.bytes.size();
    }
    std::uint64_t told = 0;
    for (std::uint16_t tag : {RunThread::tag, StopThread::tag, MigrateThread::tag, WakeupThread::tag, StartGC::tag,
                              EndGC::tag, UserMessage::tag, UserMarker::tag, CreateThread::tag, ThreadLabel::tag})
        told += n(tag);
    detail.other_events = census.run.events - told;
    return census;
}

}  // namespace el2fx::run
