// What a profile of the run will hold at a given level of detail, learnt in the census so that
// the output budget (convert/output_budget.hpp) can choose the detail before anything is
// written: how long the spans the tracks will draw are (one histogram per kind of span), how
// many instants there are, how long threads ran and how often they switched. Small: it grows
// with the live threads and the capabilities, never with the events.
//
//   RUN_THREAD t on c      closes c's idle span and t's stopped span; t runs on c
//   STOP_THREAD t on c     closes t's run on c; opens c's idle span and, unless t finished,
//                          t's stopped span (a finished thread is forgotten)
//   GC_START / GC_END on c opens / closes c's collection span
//   traceEvent, traceMarker  an instant with its text
//   thread moments         migrated, woken: instants; created, labelled: counted apart
//   any other event        counted (contributors draw some of them)
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "eventlog/event.hpp"
#include "util/recent_ids.hpp"
#include "util/recycling_memory.hpp"

namespace el2fx::run {

// Span lengths in powers of two: bucket b holds lengths in [2^(b-1), 2^b) ns (bucket 0: 0).
class LengthHistogram {
public:
    void add(std::uint64_t length_ns) {  // inline: a few per scheduler event of the census
        ++buckets_[static_cast<std::size_t>(std::bit_width(length_ns))];
        ++count_;
        total_ += length_ns;
    }
    // Another's spans added to these.
    void add(const LengthHistogram& other) {
        for (std::size_t b = 0; b < buckets_.size(); ++b) buckets_[b] += other.buckets_[b];
        count_ += other.count_;
        total_ += other.total_;
    }
    std::uint64_t count() const { return count_; }
    std::uint64_t total_ns() const { return total_; }
    // How many spans are at least `length_ns` long (a bucket that straddles it counts in
    // proportion, as if its lengths were spread evenly).
    double at_least(std::uint64_t length_ns) const;

private:
    std::array<std::uint64_t, 65> buckets_{};
    std::uint64_t count_ = 0;
    std::uint64_t total_ = 0;
};

struct DetailCensus {
    LengthHistogram running;                    // a thread's run on a capability (its own track and the capability's)
    LengthHistogram stopped;                    // a thread between two runs (its own track)
    LengthHistogram idle;                       // a capability between two runs
    LengthHistogram gc;                         // a capability's part in a collection
    std::uint64_t moments = 0;                  // threads migrated and woken (merged where they crowd)
    std::uint64_t thread_events = 0;            // threads created and labelled (a marker each)
    std::uint64_t messages = 0;                 // traceEvent and traceMarker messages
    std::uint64_t message_bytes = 0;            // their text
    std::uint64_t other_events = 0;             // every other event
    std::uint64_t threads = 0;                  // Haskell threads seen
    std::uint64_t capabilities = 0;             // capabilities seen
    std::vector<std::uint32_t> runs_by_thread;  // each thread's runs, most first (see busiest below)
    std::uint64_t other_runs = 0;               // the runs of the threads left out of runs_by_thread

    // The share of all runs that the `n` threads with most runs had (1 with no runs); `n` at
    // most the collector's `busiest`.
    double run_share_of_busiest(std::size_t n) const;
    // Keeps the `n` most of runs_by_thread (in no order), the others' summed into other_runs.
    void keep_busiest_runs(std::size_t n);
};

// A census's finished threads' runs (DetailCensus::runs_by_thread): with `busiest`, once they
// outgrow a threshold (at first `prune_above`) only the busiest threads' are kept, and the
// threshold doubles what was kept. The census pass and the census from the blocks alike.
class FinishedRuns {
public:
    FinishedRuns(std::optional<std::size_t> busiest, std::size_t prune_above)
        : busiest_(busiest), next_prune_(prune_above), prune_above_(prune_above) {}
    // A thread's runs, at its finish.
    void add(DetailCensus& census, std::uint32_t runs) {
        census.runs_by_thread.push_back(runs);
        if (busiest_ && census.runs_by_thread.size() > next_prune_) {
            census.keep_busiest_runs(*busiest_);
            next_prune_ = std::max(prune_above_, 2 * census.runs_by_thread.size());
        }
    }

private:
    std::optional<std::size_t> busiest_;
    std::size_t next_prune_, prune_above_;
};

class DetailCensusCollector {
public:
    // A thread as the histograms follow it, from its first run or stop to its finish. The
    // collector keeps one per live thread, by id; a caller that keeps a table of its threads
    // anyway (the census's catalog) may keep them there instead and hand each in, so that a
    // scheduler event looks its thread up once for both (the run and stop below).
    struct ThreadState {
        std::uint64_t stopped_since = 0;
        std::uint32_t runs = 0;
        bool running = false;
        bool live = false;  // false: never seen, or finished (its next run or stop starts it anew)
    };

    // runs_by_thread keeps the `busiest` threads' runs (all: none), the others summed in
    // other_runs, once it holds more than `prune_above` threads: memory bounded by the live threads.
    explicit DetailCensusCollector(std::optional<std::size_t> busiest = std::nullopt, std::size_t prune_above = 100'000)
        : finished_runs_(busiest, prune_above) {}

    // Every event, in time order.
    void handle(const eventlog::Event& event);
    // The tags handle() tells apart; it counts every other one as an other event.
    static bool tells_apart(std::uint16_t tag);
    // `states`: the live threads' states kept by the caller (the others are ignored).
    DetailCensus finish(std::span<const ThreadState> states = {});

    // The census's entry points for the scheduler events that fill most logs (handle() takes
    // the same paths). Inline: tens of millions of events. `now`: the latest event time so far,
    // this event's included (the census keeps that clock for all its parts).
    void run(eventlog::CapNo cap, eventlog::ThreadId id, std::uint64_t now) { run(cap, id, thread(id), now); }
    void stop(eventlog::CapNo cap, eventlog::ThreadId id, std::uint16_t status, std::uint64_t now) {
        ThreadState& t = thread(id);
        stop(cap, id, t, status, now);
        if (!t.live) forget(id);
    }
    // The same with the thread's state kept by the caller (see ThreadState): a finished
    // thread's state is left not live, for the caller to drop or reuse.
    void run(eventlog::CapNo cap, eventlog::ThreadId id, ThreadState& t, std::uint64_t now) {
        now_ = now;
        Capability& c = capability(cap);
        if (c.idle_since) census_.idle.add(now_ - *c.idle_since);
        c.idle_since.reset();
        c.running = id;
        c.running_since = now_;
        enter(t);
        if (t.runs > 0 && !t.running) census_.stopped.add(now_ - t.stopped_since);
        ++t.runs;
        t.running = true;
    }
    void stop(eventlog::CapNo cap, eventlog::ThreadId id, ThreadState& t, std::uint16_t status, std::uint64_t now) {
        now_ = now;
        Capability& c = capability(cap);
        if (c.running == id) census_.running.add(now_ - c.running_since);
        c.running.reset();
        c.idle_since = now_;
        enter(t);
        t.stopped_since = now_;
        t.running = false;
        t.runs = std::max<std::uint32_t>(t.runs, 1);  // a stop without its run (a cut log) ran too
        if (status == kThreadFinished) finished(t);
    }
    // A live thread's state that its caller can no longer keep (the census forgets a thread
    // finished once that ran again): kept here by id from now on.
    void adopt(eventlog::ThreadId id, const ThreadState& t) { *recent_.note(id, &live_[id]) = t; }
    // The state adopted() for `id`, if any, moved into `into` (a fresh state of the caller's).
    void take_adopted(eventlog::ThreadId id, ThreadState& into) {
        if (live_.empty()) return;
        auto it = live_.find(id);
        if (it == live_.end()) return;
        into = it->second;
        forget(id);
    }
    // Events that tell nothing but their number (counted elsewhere: by the census's reader),
    // and the clock as they moved it.
    void other_events(std::uint64_t n) { census_.other_events += n; }
    void moments(std::uint64_t n) { census_.moments += n; }  // counted elsewhere (their clock: advance_clock())
    void advance_clock(std::uint64_t now) { now_ = std::max(now_, now); }
    // Migrated or woken.
    void moment(std::uint64_t now) {
        now_ = now;
        ++census_.moments;
    }

private:
    static constexpr std::uint16_t kThreadFinished = static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished);
    struct Capability {
        std::optional<std::uint64_t> idle_since, gc_since;
        std::optional<eventlog::ThreadId> running;
        std::uint64_t running_since = 0;
    };
    Capability& capability(eventlog::CapNo cap) {
        if (cap >= caps_.size()) caps_.resize(std::size_t{cap} + 1);
        return caps_[cap];
    }

    DetailCensus census_;
    std::vector<Capability> caps_;
    // A thread's first run or stop, or its first after it finished: a thread of the census.
    void enter(ThreadState& t) {
        if (t.live) return;
        t = ThreadState{now_, 0, false, true};
        ++census_.threads;
    }
    // Inline for a recent thread (nearly every event); live_'s lookup out of line.
    ThreadState& thread(eventlog::ThreadId id) {
        if (ThreadState** t = recent_.find(id)) return **t;
        return live_thread(id);
    }
    ThreadState& live_thread(eventlog::ThreadId id);
    void finished(ThreadState& t);     // its runs counted; no longer live
    void forget(eventlog::ThreadId id);  // out of live_

    // The threads that have not finished whose state this collector keeps; millions of
    // short-lived ones reuse their nodes' memory.
    util::RecyclingMemory live_nodes_;
    std::pmr::unordered_map<eventlog::ThreadId, ThreadState> live_{&live_nodes_};
    // live_'s recently asked elements (which never move; an erased one leaves here first).
    util::RecentIds<ThreadState*> recent_;
    std::uint64_t now_ = 0;
    FinishedRuns finished_runs_;
};

}  // namespace el2fx::run
