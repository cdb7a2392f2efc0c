#include "analysis/run/run_census.hpp"

#include <algorithm>
#include <limits>

#include "eventlog/event_types.hpp"

namespace el2fx::run {

RunCensusCollector::RunCensusCollector(bool include_env, CensusLimits limits)
    : run_(include_env),
      detail_(limits.thread_tracks, limits.forget_above),
      limits_(limits),
      next_forgetting_(limits.forget_above) {}

// Keeps the live threads and the finished ones that rank among the first thread_tracks of
// the finished (a finished thread's rank is final); the layout's choice over every thread
// is then among the kept ones. Then waits for the catalog to double, so the time is linear.
void RunCensusCollector::forget_finished_threads() {
    const std::vector<ThreadFacts>& threads = census_.threads.threads();
    std::vector<std::uint64_t>& running = census_.running_by_ordinal;
    running.resize(threads.size(), 0);
    std::vector<ThreadRank> finished;
    for (std::size_t i = 0; i < threads.size(); ++i)
        if (threads[i].finished()) finished.push_back({threads[i].labelled(), running[i], static_cast<std::uint32_t>(i)});
    const std::size_t wanted = *limits_.thread_tracks;
    std::vector<bool> keep(threads.size(), true);
    if (finished.size() > wanted) {
        const auto cut = finished.begin() + static_cast<std::ptrdiff_t>(wanted);
        std::nth_element(finished.begin(), cut, finished.end(), [](const ThreadRank& a, const ThreadRank& b) {
            return ranks_before(a, b);
        });
        for (auto it = cut; it != finished.end(); ++it) keep[it->ordinal] = false;
    }
    census_.threads.forget_unless(keep);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < keep.size(); ++i)
        if (keep[i]) running[kept++] = running[i];
    running.resize(kept);
    running.shrink_to_fit();
    next_forgetting_ = std::max(limits_.forget_above, 2 * kept);
}

std::uint64_t RunCensus::running_ns(eventlog::ThreadId thread) const {
    std::optional<std::uint32_t> i = threads.ordinal(thread);
    return i && *i < running_by_ordinal.size() ? running_by_ordinal[*i] : 0;
}

void RunCensusCollector::add_running(std::uint32_t ordinal, std::uint64_t ns) {
    if (ordinal >= census_.running_by_ordinal.size())
        census_.running_by_ordinal.resize(census_.threads.threads().size(), 0);
    census_.running_by_ordinal[ordinal] += ns;
}

void RunCensusCollector::start_capability(eventlog::CapNo cap) {
    if (cap >= cap_started_.size()) cap_started_.resize(std::size_t{cap} + 1, 0);
    cap_started_[cap] = 1;
    census_.capability_starts.try_emplace(cap, now_);
    run_.see_capability(cap);
}

// Every part sees every event, but the scheduler events that fill a log (run, stop, migrated,
// woken) take a path of their own here: one switch on the tag and one lookup of the thread
// for all the parts, where each part's handle() would switch and look up again. Their other
// cases (an event without a capability or payload) and all other tags take the parts'
// handle(), which calls the same code.
void RunCensusCollector::handle(const eventlog::Event& event) {
    using namespace eventlog;
    now_ = std::max(now_, event.time);
    run_.count(event);
    // A byte per capability spares every event the parts' own checks.
    if (event.cap && (*event.cap >= cap_started_.size() || !cap_started_[*event.cap])) start_capability(*event.cap);
    switch (event.tag) {
        case RunThread::tag:
            if (const auto* p = event.as<RunThread>(); p && event.cap) {
                census_.threads.seen(p->thread, event.time);
                detail_.run(*event.cap, p->thread, event.time);
                if (*event.cap >= running_.size()) running_.resize(std::size_t{*event.cap} + 1);
                running_[*event.cap] = Running{p->thread, now_};
            } else {
                handle_in_parts(event);
            }
            break;
        case StopThread::tag:
            if (const auto* p = event.as<StopThread>(); p && event.cap) {
                const std::uint32_t ordinal = census_.threads.stopped(p->thread, p->status, event.time);
                detail_.stop(*event.cap, p->thread, p->status, event.time);
                if (*event.cap < running_.size()) {
                    std::optional<Running>& r = running_[*event.cap];
                    if (r && r->thread == p->thread) {  // another thread's stop is noise here
                        add_running(ordinal, now_ - r->since);
                        r.reset();
                    }
                }
            } else {
                handle_in_parts(event);
            }
            break;
        case MigrateThread::tag:
            detail_.moment(event.time);
            if (const auto* p = event.as<MigrateThread>()) census_.threads.seen(p->thread, event.time);
            break;
        case WakeupThread::tag:
            detail_.moment(event.time);
            if (const auto* p = event.as<WakeupThread>()) census_.threads.seen(p->thread, event.time);
            break;
        default: handle_in_parts(event); break;
    }
    if (limits_.thread_tracks && census_.threads.threads().size() > next_forgetting_) forget_finished_threads();
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
}

RunCensus RunCensusCollector::finish() {
    for (std::optional<Running>& r : running_)  // still running at the end of the log
        if (r)
            if (std::optional<std::uint32_t> i = census_.threads.ordinal(r->thread)) add_running(*i, now_ - r->since);
    running_.clear();
    census_.threads.finish();
    census_.running_by_ordinal.resize(census_.threads.threads().size(), 0);  // a thread that never ran
    census_.running_by_ordinal.shrink_to_fit();
    census_.run = run_.info();
    census_.detail = detail_.finish();
    return std::move(census_);
}

}  // namespace el2fx::run
