// The census learnt from the blocks: the shares put together (block_census.hpp).
#pragma once

#include <algorithm>
#include <map>
#include <memory_resource>
#include <unordered_map>

#include "analysis/run/block_share.hpp"
#include "util/id_map.hpp"
#include "util/live_id_ring.hpp"

namespace el2fx::run::blocks {

// The shares put together, in file order as they come (a block's share waits for the ones
// before it): each capability's spans, each thread's segments in time order, the catalog told
// what the blocks say of threads in the log's order. What a block holds is folded in once no
// block still to come can hold anything earlier (the frontier: the earliest start of the
// blocks to come), so memory follows the blocks in flight and the live threads, not the log: a
// thread's state is dropped at its finish, and the catalog forgets finished threads as the
// census pass's does (RunCensusCollector), at the same events.
struct Combiner {
    Combiner(const CensusLimits& limits, const BlockCensus::Rewrite& rewrite, SpareVectors& spares)
        : limits(limits),
          rewrite(rewrite),
          spares(spares),
          forget_at(limits.thread_tracks ? limits.forget_above : SIZE_MAX),
          finished_runs(limits.thread_tracks, limits.forget_above) {}

    struct CapState {
        std::uint64_t start = ~std::uint64_t{0};  // its earliest record
        std::optional<Key> sched_seen, gc_seen;   // its latest run, stop or migration; collection event
        std::optional<std::uint64_t> idle_since, gc_since;
        std::optional<ThreadId> running_thread;
        std::uint64_t running_since = 0;
        bool run_on = false;
        ThreadId run_thread = 0;
        std::uint64_t run_since = 0;
    };

    const CensusLimits& limits;
    const BlockCensus::Rewrite& rewrite;
    SpareVectors& spares;                       // given the vectors of what is put together
    std::vector<std::uint64_t> frontier_after;  // by block: the earliest start of it and the blocks after it
    std::vector<std::uint64_t> starts;          // by block: its marker's start time
    std::map<std::size_t, std::unique_ptr<Share>> waiting;
    std::size_t waiting_bytes = 0;  // what they hold (Share::held_bytes())
    std::size_t next = 0;           // the next block to put in
    std::map<CapNo, CapState> caps;
    // Until the catalog is told their finish; by id (millions of short-lived ones, met in about
    // the order of their ids).
    util::LiveIdRing<ThreadSum> threads;
    util::IdSet gone;       // the threads dropped at their finish
    util::IdSet forgotten;  // by the catalog (of the gone ones)
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
    FinishedRuns finished_runs;  // the detail's finished threads' runs, pruned as the pass prunes them
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
        waiting_bytes += share->held_bytes();
        waiting.emplace(block, std::move(share));
        while (!failed && !waiting.empty() && waiting.begin()->first == next) {
            waiting_bytes -= waiting.begin()->second->held_bytes();  // before its parts move on
            put_in_order(*waiting.begin()->second);
            waiting.begin()->second->give_back(spares);
            waiting.erase(waiting.begin());
            ++next;
            const std::uint64_t frontier = next < frontier_after.size() ? frontier_after[next] : ~std::uint64_t{0};
            fold(frontier);
            tell_catalog(frontier);
        }
        if (!failed && held_back() > limits.held_back_bytes)
            failed = "blocks held back too long (a block spanning much of the log)";
    }

    void put_in_order(Share& s) {
        // The frontier holds if no segment begins before its block's start. Other records may
        // (GHC stamps some of a collection's events before the block it writes them in began).
        if (s.block < starts.size() && s.sched_first && s.sched_first->time < starts[s.block]) {
            failed = "a run or stop before its block's start";
            return;
        }
        for (const ThreadEntry& t : s.threads) {
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
            auto [sum, added] = threads.try_emplace(t.id);
            if (added || sum.last < t.last) sum.last = t.last;
            if (t.finished && (!sum.finished || *t.finished < *sum.finished)) sum.finished = t.finished;
            sum.running_ns += t.running_ns;
        }
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
        if (!s.items.empty()) runs.push_back(std::make_unique<ItemRun>(std::move(s.items), std::move(s.labels)));
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

    // What waits behind the frontier: segments and catalog items, and the shares that wait for
    // an earlier block (what they hold of threads, segments, items and records).
    std::size_t held_back() const {
        std::size_t bytes = 0;
        for (const std::unique_ptr<Run<Segment>>& r : pending) bytes += r->held_bytes();
        for (const std::unique_ptr<ItemRun>& r : runs) bytes += r->held_bytes();
        return bytes + waiting_bytes;
    }

    // Folds the pending segments that begin before `frontier`.
    void fold(std::uint64_t frontier) {
        merge_runs(
            pending, frontier,
            [&](Run<Segment>& run) {
                const Segment& g = run.items[run.next++];
                if (gone.contains(g.id)) {  // dropped at its finish, which this segment follows
                    failed = "a thread's events after its finish";
                    return false;
                }
                if (ThreadSum* t = threads.find(g.id))
                    fold(*t, g);
                else
                    failed = "a thread's segment without its thread";  // not expected: put_in_order() made it
                return !failed;
            },
            [&](Run<Segment>& run) { spares.give(run.items); });
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
        merge_runs(
            runs, frontier,
            [&](ItemRun& run) {
                const CatalogItem& item = run.items[run.next++];
                tell(item, run);
                // After each event, as the census pass: its items at one key are told together.
                const CatalogItem* after = run.head();
                if (!after || after->key != item.key)
                    if (catalog.threads().size() > forget_at) forget(item.key);
                return !failed;
            },
            [&](ItemRun& run) {
                spares.give(run.items);
                spares.give(run.labels);
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
        const ThreadSum* sum = threads.find(id);
        if (!sum || sum->live) {  // the detail did not see the finish (not expected)
            failed = "a thread's finish the detail did not see";
            return;
        }
        const ThreadSum& t = *sum;
        if (t.finished && *t.finished < t.last) late[id] = t.last;
        const std::uint32_t ordinal = *catalog.ordinal(id);
        if (ordinal >= running_by_ordinal.size()) running_by_ordinal.resize(catalog.threads().size(), 0);
        running_by_ordinal[ordinal] = t.running_ns;
        if (t.entered) finished_runs.add(detail, t.runs);  // as DetailCensusCollector::finished()
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
                if (auto l = late.find(id); l != late.end() && key < l->second)
                    failed = "a forgotten thread's later event";
            }
        catalog.forget_unless(keep);
        keep_ordinals(running_by_ordinal, keep);
        forget_at = next_forgetting(limits.forget_above, running_by_ordinal.size());
    }

    // Running time added at the end of the log: to the thread's state, or the catalog's side
    // once dropped (nothing if forgotten, as the census pass).
    void add_running(ThreadId id, std::uint64_t ns) {
        if (ThreadSum* t = threads.find(id)) {
            t->running_ns += ns;
        } else if (std::optional<std::uint32_t> i = catalog.ordinal(id)) {
            if (*i >= running_by_ordinal.size()) running_by_ordinal.resize(catalog.threads().size(), 0);
            running_by_ordinal[*i] += ns;
        }
    }
};

}  // namespace el2fx::run::blocks
