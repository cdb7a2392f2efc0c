// The first of a conversion's two passes over the eventlog: the facts the profile's layout
// needs before any track can be filled — the run (program, pid, capabilities), every Haskell
// thread (labels, creation order) with the time it ran, where the capabilities' lives start,
// and where time-profile ticks stand in for virtual samples. Small: it grows with the live
// threads and capabilities, not with the events (finished threads that cannot get a track of
// their own are forgotten in huge logs: CensusLimits). The second pass then streams everything
// else straight into those tracks (converter.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "analysis/run/census_repeats.hpp"
#include "analysis/run/detail_census.hpp"
#include "analysis/run/run_info.hpp"
#include "analysis/run/thread_catalog.hpp"
#include "eventlog/counted_records.hpp"
#include "eventlog/event.hpp"
#include "eventlog/skip_before.hpp"
#include "pass/interests.hpp"
#include "analysis/runtime/spark_counters.hpp"
#include "analysis/ghc_profiling/time_profile.hpp"

namespace el2fx::run {

// How a thread ranks for a track of its own (thread_track_layout.cpp): labelled first, then the
// busiest, then the first created. The census keeps the threads that may still win one.
struct ThreadRank {
    bool labelled = false;
    std::uint64_t running_ns = 0;
    std::uint32_t ordinal = 0;  // in the catalog
    friend bool ranks_before(const ThreadRank& a, const ThreadRank& b) {
        if (a.labelled != b.labelled) return a.labelled;
        if (a.running_ns != b.running_ns) return a.running_ns > b.running_ns;
        return a.ordinal < b.ordinal;
    }
};

// Which threads a census keeps when it forgets (by the catalog's ordinal): every thread not
// finished, and the finished ones that rank among the first `tracks` of the finished (a finished
// thread's rank is final), so that the layout's choice over every thread is among the kept
// ones. `running`: the time each ran, by ordinal (at least one per thread).
std::vector<bool> threads_to_keep(const ThreadCatalog& catalog, const std::vector<std::uint64_t>& running,
                                  std::size_t tracks);
// Once the catalog forgot the threads `keep` does not hold: a table by the catalog's ordinal
// keeps the kept threads' entries, in order (its storage kept for the next round's threads).
template <class T>
void keep_ordinals(std::vector<T>& by_ordinal, const std::vector<bool>& keep) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < keep.size() && i < by_ordinal.size(); ++i)
        if (keep[i]) by_ordinal[kept++] = std::move(by_ordinal[i]);
    by_ordinal.resize(kept);
}
// The catalog's size past which a census forgets again, once `kept` threads are left: double,
// so that forgetting costs a constant per thread.
inline std::size_t next_forgetting(std::size_t forget_above, std::size_t kept) {
    return std::max(forget_above, 2 * kept);
}

// What the census may forget, so that its memory stays bounded by the live threads.
struct CensusLimits {
    // How many threads may get a track of their own (--max-threads, before the output budget
    // lowers it); none (--all-threads): every thread is kept.
    std::optional<std::size_t> thread_tracks;
    // Finished threads that cannot win a track are forgotten (counted only) once the catalog
    // holds more threads than this, so logs with fewer keep every thread as before.
    std::size_t forget_above = 100'000;
    // What the census learnt from the blocks may hold of blocks that wait for an earlier one
    // (block_census.hpp): a capability's block that spans much of the log holds the others back
    // behind the frontier, and a block still being checked holds back the shares of the blocks
    // after it that the other checking thread finished.
    std::size_t held_back_bytes = std::size_t{32} << 20;
};

struct RunCensus {
    // The time a thread ran (0 for one that never did).
    std::uint64_t running_ns(eventlog::ThreadId thread) const;

    RunInfo run;
    ThreadCatalog threads;
    std::vector<std::uint64_t> running_by_ordinal;               // time each thread ran, by threads.ordinal()
    std::map<eventlog::CapNo, std::uint64_t> capability_starts;  // a capability's first event
    profiling::TickCoverage tick_coverage;
    std::uint64_t ticks = 0;  // time-profile ticks (PROF_SAMPLE_COST_CENTRE)
    // Capabilities with SPARK_COUNTERS, and which of their series is ever non-zero.
    std::map<eventlog::CapNo, std::array<bool, runtime::kSparkCounterCount>> spark_series;
    // How much the profile will hold at a given detail (the output budget's estimate).
    DetailCensus detail;
};

// Thrown by a collector whose wake-ups are counted elsewhere (counts_wakeups_elsewhere()) where
// it would forget threads: a forgotten thread's wake-up would make it a new one, so that
// census needs every wake-up (take it again without).
struct CensusNeedsEveryWakeup {};

class RunCensusCollector {
public:
    explicit RunCensusCollector(bool include_env, CensusLimits limits = {});

    // Every event, in time order (as the second pass will see them). Every part sees every
    // event, but the scheduler events that fill a log take paths of their own: one switch on
    // the tag and one lookup of the thread for all the parts, where each part's handle() would
    // switch and look up again. Their odd cases (without a capability or payload) and all
    // other tags go to the parts' handle(), which calls the same code. Inline, with the
    // moments' path: they are half of a busy log's events.
    void handle(const eventlog::Event& event) {
        using namespace eventlog;
        run_.count(event);
        if (event.cap && (*event.cap >= cap_started_.size() || !cap_started_[*event.cap])) start_capability(*event.cap);
        switch (event.tag) {
            case WakeupThread::tag:
                if (const auto* p = event.as<WakeupThread>()) return moment(p->thread, event.time);
                break;
            case MigrateThread::tag:
                if (const auto* p = event.as<MigrateThread>()) return moment(p->thread, event.time);
                break;
            case RunThread::tag:
                if (event.cap && event.as<RunThread>()) return run_thread(event);
                break;
            case StopThread::tag:
                if (event.cap && event.as<StopThread>()) return stop_thread(event);
                break;
            default: break;
        }
        handle_in_parts(event);
    }
    // It reads the run's facts, the scheduler's and the collections' events, user messages,
    // spark counters and time-profile ticks; of every other event only its number and time
    // (most of a busy log's GC and heap events): where the events come in time order, a reader
    // may count those in its place (TimeOrderedReader::count_only()), but for the first event
    // and each capability's first (the census notes where a capability starts).
    static pass::Interests interests();
    // What it needs given only while it is new (census_repeats.hpp), for a reader that counts
    // the rest in its place with interests().counts: spark counters, and wake-ups once
    // counts_wakeups_elsewhere(). A set for one reader: each reader of a pass asks for its own
    // (a reader of part of the log gives what is new in its part). They live as long as the
    // collector.
    std::vector<eventlog::RepeatFilter*> repeats() {
        Repeats& r = *repeats_.emplace_back(std::make_unique<Repeats>());
        std::vector<eventlog::RepeatFilter*> filters{&r.sparks};
        if (wakeups_elsewhere_) filters.push_back(&r.wakeups.emplace(limits_.forget_above));
        return filters;
    }
    // Where the events come in time order, a reader may also count the wake-ups of each thread
    // but its earliest (WakeupRepeats): it must not forget threads then
    // (CensusNeedsEveryWakeup). Before repeats() is asked.
    void counts_wakeups_elsewhere() { wakeups_elsewhere_ = true; }
    // After the last event; `counted`: the events counted elsewhere (interests().counts).
    RunCensus finish(const eventlog::CountedRecords& counted = {});

private:
    struct Running {  // a capability's running thread
        std::uint64_t since = 0;
        eventlog::ThreadId thread = 0;
        bool on = false;  // none runs
    };

    void moment(eventlog::ThreadId thread, std::uint64_t time) {
        detail_.moment(run_.last_time());
        seen_thread(census_.threads.seen(thread, time));
    }
    // A thread event's thread, at `ordinal` in the catalog: forgetting is due when the catalog
    // outgrows next_forgetting_, which only a new thread (the last ordinal) can make it do.
    void seen_thread(std::uint32_t ordinal) {
        if (ordinal >= forget_at_) forget_finished_threads();
    }
    void run_thread(const eventlog::Event& event);   // with its capability and payload
    void stop_thread(const eventlog::Event& event);  // the same
    void handle_in_parts(const eventlog::Event& event);
    void start_capability(eventlog::CapNo cap);
    void add_running(std::uint32_t ordinal, std::uint64_t ns) {  // to the thread at `ordinal` in the catalog
        if (ordinal >= census_.running_by_ordinal.size())
            census_.running_by_ordinal.resize(census_.threads.threads().size(), 0);
        census_.running_by_ordinal[ordinal] += ns;
    }
    // The detail's state of the thread at `ordinal` in the catalog, kept here beside the
    // catalog (one lookup of a scheduler event's thread for both).
    DetailCensusCollector::ThreadState& detail_state(std::uint32_t ordinal, eventlog::ThreadId thread) {
        if (ordinal >= detail_by_ordinal_.size()) detail_by_ordinal_.resize(census_.threads.threads().size());
        DetailCensusCollector::ThreadState& t = detail_by_ordinal_[ordinal];
        if (!t.live) detail_.take_adopted(thread, t);  // forgotten while live (forget_finished_threads)
        return t;
    }
    void forget_finished_threads();

    RunInfoCollector run_;  // its last_time() is the census's clock
    DetailCensusCollector detail_;
    RunCensus census_;
    std::vector<DetailCensusCollector::ThreadState> detail_by_ordinal_;  // by the catalog's ordinal
    std::vector<Running> running_;           // by capability, for every capability started
    std::vector<std::uint8_t> cap_started_;  // by capability: in census_.capability_starts
    std::optional<std::uint64_t> tick_interval_;
    CensusLimits limits_;
    bool wakeups_elsewhere_ = false;
    struct Repeats {
        SparkCounterRepeats sparks;
        std::optional<WakeupRepeats> wakeups;
    };
    std::vector<std::unique_ptr<Repeats>> repeats_;  // a set per reader (repeats()); never moved
    std::size_t next_forgetting_;  // the catalog's size that triggers it
    std::size_t forget_at_;        // the ordinal that does: next_forgetting_, or never without limits
};

}  // namespace el2fx::run
