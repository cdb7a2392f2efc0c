#include "analysis/gc/rts_summary.hpp"

#include <algorithm>

#include "util/utf8.hpp"

namespace el2fx::gc {

const char* accuracy_name(Accuracy a) {
    switch (a) {
        case Accuracy::exact: return "exact";
        case Accuracy::estimate: return "estimate";
        case Accuracy::lower_bound: return "lower-bound";
        case Accuracy::unavailable: return "unavailable";
    }
    return "unavailable";
}

void RtsSummaryCalculator::handle_concerned(const eventlog::Event& event) {
    using namespace eventlog;
    censuses_.handle(event);
    switch (event.tag) {
        case RtsIdentifier::tag:
            if (const auto* e = event.as<RtsIdentifier>()) {
                rts_identifier_.clear();
                utf8::append_sanitized(rts_identifier_, e->identifier.bytes);
            }
            break;
        case OsProcessPid::tag:
            if (const auto* e = event.as<OsProcessPid>()) pid_ = e->pid;
            break;
        case HeapInfoGHC::tag:
            if (const auto* e = event.as<HeapInfoGHC>()) generations_ = e->gens;
            break;
        case TaskCreate::tag:
            if (const auto* e = event.as<TaskCreate>())
                sessions_.push_back({e->task, e->tid, event.time, std::nullopt, 0});
            break;
        case TaskDelete::tag:
            if (const auto* e = event.as<TaskDelete>()) {
                for (auto it = sessions_.rbegin(); it != sessions_.rend(); ++it) {
                    if (it->task == e->task && !it->deleted) {
                        it->deleted = event.time;
                        it->pauses_before_deletion = gc_elapsed_;  // every collection so far started before
                        deletions_.push_back(static_cast<std::size_t>(sessions_.rend() - it) - 1);
                        break;
                    }
                }
            }
            break;
        case GCStatsGHC::tag:
            last_stats_time_ = event.time;
            exit_allocation_time_.reset();
            break;
        case MemReturn::tag:  // GHC >= 9.2: the megablocks allocated as a major collection ends
            if (const auto* e = event.as<MemReturn>()) max_mblocks_ = std::max(max_mblocks_, e->current);
            break;
        case SparkCounters::tag:
            if (const auto* e = event.as<SparkCounters>()) {
                CapNo cap = event.cap.value_or(0);
                if (cap >= sparks_.size()) sparks_.resize(std::size_t{cap} + 1);
                sparks_[cap] = *e;
            }
            break;
        default: break;
    }
}

void RtsSummaryCalculator::add(const HeapSample& sample) {
    switch (sample.quantity) {
        case HeapQuantity::allocated:
            allocated_sum_ = sample.total_allocated;
            allocated_seen_ = true;
            // At exit the runtime reads its clock for "Total", then posts every capability's
            // allocation once more: the first HEAP_ALLOCATED after the last GC_STATS_GHC.
            if (last_stats_time_ && !exit_allocation_time_) exit_allocation_time_ = sample.time;
            break;
        case HeapQuantity::heap_size: max_heap_size_ = std::max(max_heap_size_.value_or(0), sample.value); break;
        default: break;
    }
}

GenerationFigures& RtsSummaryCalculator::generation(std::uint16_t gen) {
    while (gens_.size() <= gen) {
        GenerationFigures g;
        g.gen = static_cast<std::uint16_t>(gens_.size());
        gens_.push_back(g);
    }
    return gens_[gen];
}

CapabilityGcFigures& RtsSummaryCalculator::capability(CapNo cap) {
    while (caps_.size() <= cap) {
        CapabilityGcFigures c;
        c.cap = static_cast<CapNo>(caps_.size());
        caps_.push_back(c);
    }
    return caps_[cap];
}

void RtsSummaryCalculator::add(const GcCollection& c) {
    if (c.cut) return;  // a window's: counted where its statistics come, after the window
    ++collections_;
    for (const GcParticipation& p : c.caps) {
        if (!p.end) continue;
        CapabilityGcFigures& f = capability(p.cap);
        ++f.collections;
        f.gc_ns += p.pause();
        f.work_ns += p.phase_total(GcPhase::work);
        f.idle_ns += p.phase_total(GcPhase::idle);
        f.done_ns += p.phase_total(GcPhase::done);
    }
    if (std::optional<std::uint64_t> sync = c.sync_duration()) {
        ++sync_count_;
        sync_total_ += *sync;
        sync_max_ = std::max(sync_max_, *sync);
    }
    std::optional<double> avg = c.average_cap_pause();
    if (avg) {
        ++seed_timed_;
        seed_gc_elapsed_ += *avg;
        seed_max_pause_ = std::max(seed_max_pause_, *avg);
    }
    std::optional<std::uint64_t> pause = c.runtime_pause();
    if (pause) {
        ++timed_;
        gc_elapsed_ += *pause;
        // A collection that started before a task's deletion and ended after it.
        const std::uint64_t start = c.initiator()->start;
        for (auto d = deletions_.rbegin(); d != deletions_.rend() && *sessions_[*d].deleted > start; ++d)
            sessions_[*d].pauses_before_deletion += *pause;
    }
    if (!c.stats) return;
    const GcStats& s = *c.stats;
    ++with_stats_;
    copied_ += s.copied;
    max_frag_ = std::max(max_frag_, s.frag);
    GenerationFigures& g = generation(s.gen);
    ++g.collections;
    if (s.parallel()) {
        ++g.par_collections;
        ++par_collections_;
        par_copied_ += s.copied;
        par_max_copied_ += s.par_max_copied;
        max_par_threads_ = std::max(max_par_threads_, s.par_n_threads);
        if (s.par_balanced_copied) {
            par_balanced_ += *s.par_balanced_copied;
        } else {
            par_balanced_everywhere_ = false;
        }
    }
    if (pause) {
        ++g.timed;
        g.elapsed_ns += *pause;
        g.max_pause_ns = std::max(g.max_pause_ns, *pause);
    }
    if (c.live_bytes) {
        ++g.live_samples;
        g.max_live = std::max(g.max_live, *c.live_bytes);
    }
    g.max_slop = std::max(g.max_slop, s.slop);
    if (avg) {
        ++g.seed_timed;
        g.seed_elapsed_ns += *avg;
        g.seed_max_pause_ns = std::max(g.seed_max_pause_ns, *avg);
    }
    if (std::optional<std::uint64_t> longest = c.longest_cap_pause())
        g.longest_cap_pause_ns = std::max(g.longest_cap_pause_ns, *longest);
}

}  // namespace el2fx::gc
