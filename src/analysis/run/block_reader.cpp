// The census learnt from the blocks: what one checking thread reads of each block it checks
// (block_census.hpp), a share per block, handed to the combiner once the block is done.
#include <algorithm>
#include <span>
#include <unordered_map>
#include <utility>

#include "analysis/run/block_share.hpp"

namespace el2fx::run::blocks {

// A thread created in fewer of the records the census reads than this, on average, and the
// census pass is quicker (logs of short-lived threads create one in a few records, busy
// programs in dozens or more); judged once this many are read.
constexpr std::uint64_t kRecordsPerThread = 16;
constexpr std::uint64_t kJudgedAfter = 1 << 14;

// One checking thread's: a share per block it checks.
class Reader final : public eventlog::BlockReader {
public:
    explicit Reader(BlockCensus& census) : census_(census) {}

    bool begin_block(std::size_t block, std::optional<CapNo> cap) override {
        share_.reset();
        if (census_.declined_) return false;
        const auto last = last_sizes_.find(sizes_key(cap));
        share_ = std::make_unique<Share>(*census_.spares_, last != last_sizes_.end() ? last->second : ShareSizes{});
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
        if (read >= kJudgedAfter && made * kRecordsPerThread > read) {
            census_.threads_made_often_ = true;
            census_.decline("threads so many that a pass is quicker");
        }
        if (census_.declined_) share_.reset();
    }

    // The scheduler's records, most of a log's, inline in records(); the others out of line
    // (rare()), so that the loop stays small.
    void record(const eventlog::BlockRecord& r) {
        using namespace eventlog;
        using eventlog::decode_as;
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
            default: return rare(r);
        }
    }

    [[gnu::noinline]] void rare(const eventlog::BlockRecord& r) {
        using namespace eventlog;
        using eventlog::decode_as;
        Share& s = *share_;
        const Key key{r.time, r.offset};
        switch (r.tag) {
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
                    s.items.push_back(
                        {key, CatalogItem::labelled, p.thread, static_cast<std::uint32_t>(s.labels.records.size())});
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
        last_sizes_[sizes_key(s.cap)] = s.sizes();
        census_.put(std::move(share_));
    }

private:
    struct Recent {  // recent_'s: a thread met lately in the block
        std::uint64_t id_plus_one = 0;  // 0: none
        std::uint32_t index = 0;        // into share_->threads
    };

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
        return not_recent(id, key, r);
    }
    // Out of line, so that the path of a recent one, most mentions, stays inline.
    [[gnu::noinline]] ThreadEntry& not_recent(ThreadId id, const Key& key, Recent& r) {
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
            s.segments.push_back(Segment{.id = t.id, .first = key, .last = key, .first_run = run, .last_run = run});
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
            s.items.push_back({key, CatalogItem::finished, id});  // seen too
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
    // Of the last block of each capability this reader read, and of the global block.
    std::unordered_map<std::uint32_t, ShareSizes> last_sizes_;
    static std::uint32_t sizes_key(std::optional<CapNo> cap) { return cap ? std::uint32_t{*cap} : 0x10000; }
    std::vector<std::uint32_t> slots_;  // the block's threads by id: index + 1 into share_->threads, 0: free
    std::array<Recent, 256> recent_{};
    bool first_now_ = false;       // set by thread()
    std::uint64_t creations_ = 0;  // in the records() at hand
};

std::unique_ptr<eventlog::BlockReader> make_reader(BlockCensus& census) { return std::make_unique<Reader>(census); }

}  // namespace el2fx::run::blocks
