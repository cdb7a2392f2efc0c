// The driver of the threading analyses: takes the events in time order (from
// eventlog::TimeOrderedReader) and dispatches the scheduler events to one
// CapabilityUsageAnalysis per capability and one ThreadStateAnalysis per Haskell
// thread, each followed by a VirtualSamplingTimer. Memory grows with the
// capabilities, threads, spans and samples found, not with the events read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <memory_resource>
#include <unordered_map>
#include <vector>

#include "analysis/threading/capability_usage_analysis.hpp"
#include "analysis/threading/thread_state_analysis.hpp"
#include "analysis/threading/threading_result.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "analysis/threading/virtual_sampling_timer.hpp"
#include "eventlog/event.hpp"
#include "pass/interests.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/diagnostics.hpp"
#include "util/id_map.hpp"
#include "util/recent_ids.hpp"
#include "util/recycling_memory.hpp"

namespace el2fx::analysis {

struct ThreadingOptions {
    std::uint64_t sampling_interval_ns = kDefaultSamplingIntervalNs;
};

class ThreadingAnalysis {
public:
    // Every event (a capability's first starts its life); the payloads of the scheduler's and
    // the collections' events read, the others' never looked at.
    static pass::Interests interests();

    // Throws el2fx::Error for a sampling interval of 0 (sampling_interval.hpp). Without a sink, everything
    // is kept for finish(); with one, spans and samples go to it as they become final
    // (the sink must outlive the analysis).
    explicit ThreadingAnalysis(Diagnostics& diagnostics, ThreadingOptions options = {}, ThreadingSink* sink = nullptr);

    // Every event, in time order: any event of a capability's block starts that
    // capability's life, and the last event's time is the end of the log.
    void handle(const eventlog::Event& event);
    // Closes every open span at the end of the log (threads in id order). Without a sink it
    // hands over everything; with one, the result has the end time and the capabilities'
    // lives (start, end) but no spans or samples: the sink had them.
    ThreadingResult finish();

private:
    struct CapabilityTrack {
        eventlog::CapNo cap;
        CapabilityUsageAnalysis usage;
        VirtualSamplingTimer<CapabilityActivity> timer;
    };
    struct ThreadTrack {
        eventlog::ThreadId id;
        ThreadStateAnalysis state;
        VirtualSamplingTimer<ThreadActivity> timer;
    };

    // Inline: every event of a capability asks; only its first starts the track.
    CapabilityTrack& capability(eventlog::CapNo cap, std::uint64_t time) {
        if (cap < capabilities_.size() && capabilities_[cap]) return *capabilities_[cap];
        return start_capability(cap, time);
    }
    CapabilityTrack& start_capability(eventlog::CapNo cap, std::uint64_t time);
    // nullptr for a finished thread (the event is counted as coming after its end).
    ThreadTrack* thread(eventlog::ThreadId id);
    // The live thread's track, else nullptr; through recent_ first.
    ThreadTrack* live_thread(eventlog::ThreadId id) {
        if (ThreadTrack** t = recent_.find(id)) return *t;
        auto it = threads_.find(id);
        if (it == threads_.end()) return nullptr;
        return recent_.note(id, &it->second);
    }
    void handle_capability_event(const eventlog::Event& event, eventlog::CapNo cap, std::uint64_t time);
    void record(CapabilityTrack& track, std::uint64_t time, const std::optional<CapabilitySpan>& span);
    // GC_WORK / GC_IDLE / GC_DONE on a capability in a collection.
    void gc_phase_event(CapabilityTrack& track, std::uint64_t time, GcPhase phase);
    // The pending GC_DONE (see census_candidate_) takes effect as `phase`.
    void settle_census_candidate(GcPhase phase);
    void record(ThreadTrack& track, std::uint64_t time, const std::optional<ThreadStateSpan>& span);
    void drain(CapabilityTrack& track);
    void drain(ThreadTrack& track);

    Diagnostics& diagnostics_;
    ThreadingOptions options_;
    ThreadingResultCollector collector_;  // the sink when none is given
    ThreadingSink& sink_;
    bool own_sink_;
    std::uint64_t now_ = 0;                                     // time of the latest event
    std::vector<std::optional<CapabilityTrack>> capabilities_;  // by capability number
    // A heap census (-h*) is taken by the initiating capability after its last GC_DONE, and
    // its HEAP_PROF_SAMPLE_BEGIN (global) is written when the census is over. So the latest
    // GC_DONE of a collection is held back until the next event of its capability (then it
    // was "done") or a census sample (then it was the census). Nothing else of that
    // capability's timer moves meanwhile.
    struct PendingDone {
        eventlog::CapNo cap;
        std::uint64_t time;
    };
    std::optional<PendingDone> census_candidate_;
    // Live threads. Their nodes and their timers' buffers come from recycled memory: a log may start
    // and finish millions of threads, each a node made and freed.
    util::RecyclingMemory thread_nodes_;
    std::pmr::unordered_map<eventlog::ThreadId, ThreadTrack> threads_{&thread_nodes_};
    // The tracks of recently seen live threads: a scheduler event (tens of millions) finds
    // its thread without hashing. The map's elements never move; an erased one leaves here first.
    util::RecentIds<ThreadTrack*> recent_;
    // Finished threads are forgotten but for their id: later events of theirs only count as
    // a diagnostic, and a program with a million short-lived threads keeps a million ids only.
    util::IdSet finished_;
};

// Reads the whole log through the driver.
ThreadingResult analyse_threading(eventlog::TimeOrderedReader& reader, Diagnostics& diagnostics,
                                  ThreadingOptions options = {});

}  // namespace el2fx::analysis
