#include "analysis/run/run_census.hpp"

#include <algorithm>
#include <limits>

#include "eventlog/event_types.hpp"

namespace el2fx::run {

RunCensusCollector::RunCensusCollector(bool include_env, CensusLimits limits)
    : run_(include_env),
      detail_(limits.thread_tracks, limits.forget_above),
      limits_(limits),
      next_forgetting_(limits.forget_above),
      forget_at_(limits.thread_tracks ? next_forgetting_ : SIZE_MAX) {}

std::vector<bool> threads_to_keep(const ThreadCatalog& catalog, const std::vector<std::uint64_t>& running,
                                  std::size_t tracks) {
    const std::vector<ThreadFacts>& threads = catalog.threads();
    std::vector<bool> keep(threads.size(), true);
    // The best `tracks` finished threads so far, in a heap with the one that ranks last on top:
    // nearly every other finished thread ranks after it and is let go by one comparison.
    std::vector<ThreadRank> best;
    best.reserve(std::min(tracks, threads.size()));
    const auto last_on_top = [](const ThreadRank& a, const ThreadRank& b) { return ranks_before(a, b); };
    for (std::size_t i = 0; i < threads.size(); ++i) {
        if (!threads[i].finished()) continue;
        keep[i] = false;
        const ThreadRank rank{threads[i].labelled(), running[i], static_cast<std::uint32_t>(i)};
        if (best.size() < tracks) {
            best.push_back(rank);
            std::push_heap(best.begin(), best.end(), last_on_top);
        } else if (!best.empty() && ranks_before(rank, best.front())) {
            std::pop_heap(best.begin(), best.end(), last_on_top);
            best.back() = rank;
            std::push_heap(best.begin(), best.end(), last_on_top);
        }
    }
    for (const ThreadRank& rank : best) keep[rank.ordinal] = true;
    return keep;
}

// Keeps what threads_to_keep() chooses, then waits for the catalog to double, so the time is linear.
void RunCensusCollector::forget_finished_threads() {
    if (wakeups_elsewhere_) throw CensusNeedsEveryWakeup{};
    const std::vector<ThreadFacts>& threads = census_.threads.threads();
    std::vector<std::uint64_t>& running = census_.running_by_ordinal;
    running.resize(threads.size(), 0);
    const std::vector<bool> keep = threads_to_keep(census_.threads, running, *limits_.thread_tracks);
    // A forgotten thread that ran again after it finished (a broken log) is live to the
    // detail: its state goes there, found again by its id should the thread come back.
    detail_by_ordinal_.resize(threads.size());
    for (std::size_t i = 0; i < keep.size(); ++i)
        if (!keep[i] && detail_by_ordinal_[i].live) detail_.adopt(threads[i].id, detail_by_ordinal_[i]);
    census_.threads.forget_unless(keep);
    keep_ordinals(running, keep);
    keep_ordinals(detail_by_ordinal_, keep);
    next_forgetting_ = next_forgetting(limits_.forget_above, running.size());
    forget_at_ = next_forgetting_;
}

std::uint64_t RunCensus::running_ns(eventlog::ThreadId thread) const {
    std::optional<std::uint32_t> i = threads.ordinal(thread);
    return i && *i < running_by_ordinal.size() ? running_by_ordinal[*i] : 0;
}

void RunCensusCollector::start_capability(eventlog::CapNo cap) {
    if (cap >= cap_started_.size()) {
        cap_started_.resize(std::size_t{cap} + 1, 0);
        running_.resize(std::size_t{cap} + 1);  // so that a started capability needs no check
    }
    cap_started_[cap] = 1;
    census_.capability_starts.try_emplace(cap, run_.last_time());
    run_.see_capability(cap);
}

void RunCensusCollector::run_thread(const eventlog::Event& event) {
    const eventlog::ThreadId thread = event.as<eventlog::RunThread>()->thread;
    const std::uint64_t now = run_.last_time();
    const std::uint32_t ordinal = census_.threads.seen(thread, event.time);
    detail_.run(*event.cap, thread, detail_state(ordinal, thread), now);
    running_[*event.cap] = Running{now, thread, true};
    seen_thread(ordinal);
}

void RunCensusCollector::stop_thread(const eventlog::Event& event) {
    const auto* p = event.as<eventlog::StopThread>();
    const std::uint64_t now = run_.last_time();
    const std::uint32_t ordinal = census_.threads.stopped(p->thread, p->status, event.time);
    detail_.stop(*event.cap, p->thread, detail_state(ordinal, p->thread), p->status, now);
    Running& r = running_[*event.cap];
    if (r.on && r.thread == p->thread) {  // another thread's stop is noise here
        add_running(ordinal, now - r.since);
        r.on = false;
    }
    seen_thread(ordinal);
}

// An event of any tag but the scheduler's fast paths: each part's handle(), then the census's own.
void RunCensusCollector::handle_in_parts(const eventlog::Event& event) {
    using namespace eventlog;
    run_.note(event);
    detail_.handle(event);
    census_.threads.handle(event);
    switch (event.tag) {
        case SparkCounters::tag:
            if (const auto* p = event.as<SparkCounters>(); p && event.cap) {
                auto& nonzero = census_.spark_series.try_emplace(*event.cap).first->second;  // all false at first
                runtime::SparkCounts counts = runtime::spark_counts(*p);
                for (std::size_t i = 0; i < counts.size(); ++i) nonzero[i] = nonzero[i] || counts[i] != 0;
            }
            break;
        case ProfBegin::tag:
            if (const auto* p = event.as<ProfBegin>(); p && p->tick_interval > 0) tick_interval_ = p->tick_interval;
            break;
        case ProfSampleCostCentre::tag:
            // As the cost-centre contributor reads ticks (profiling/time_profile.cpp).
            if (const auto* p = event.as<ProfSampleCostCentre>();
                p && p->cap < std::numeric_limits<std::uint16_t>::max()) {
                ++census_.ticks;
                census_.tick_coverage.add_tick(static_cast<std::uint16_t>(p->cap), event.time,
                                               tick_interval_.value_or(profiling::TimeProfile::kDefaultTickIntervalNs));
            }
            break;
        default: break;  // RUN_THREAD and STOP_THREAD without a capability: nothing of the census's
    }
    if (census_.threads.threads().size() > forget_at_) forget_finished_threads();
}

// Every tag a part reads more of than its number, time and capability (handle() above, and
// the parts' own: RunInfoCollector::note(), DetailCensusCollector::handle(),
// ThreadCatalog::handle()); any other tag the detail counts as an other event.
pass::Interests RunCensusCollector::interests() {
    using namespace eventlog;
    pass::Interests i = pass::Interests::where(RunInfoCollector::tells);
    i.reading({CreateThread::tag, RunThread::tag, StopThread::tag, MigrateThread::tag, WakeupThread::tag,
               ThreadLabel::tag, StartGC::tag, EndGC::tag, UserMessage::tag, UserMarker::tag, SparkCounters::tag,
               ProfBegin::tag, ProfSampleCostCentre::tag});
    i.counts.set();
    return i;
}

RunCensus RunCensusCollector::finish(const eventlog::CountedRecords& counted) {
    run_.count(counted);
    const std::uint64_t wakeups = counted.by_tag[eventlog::WakeupThread::tag];
    detail_.moments(wakeups);
    detail_.other_events(counted.events() - wakeups);
    detail_.advance_clock(counted.latest_time);
    const std::uint64_t now = run_.last_time();
    for (Running& r : running_)  // still running at the end of the log
        if (r.on)
            if (std::optional<std::uint32_t> i = census_.threads.ordinal(r.thread)) add_running(*i, now - r.since);
    running_.clear();
    census_.threads.finish();
    census_.running_by_ordinal.resize(census_.threads.threads().size(), 0);  // a thread that never ran
    census_.running_by_ordinal.shrink_to_fit();
    census_.run = run_.info();
    census_.detail = detail_.finish(detail_by_ordinal_);
    detail_by_ordinal_ = {};
    return std::move(census_);
}

}  // namespace el2fx::run
