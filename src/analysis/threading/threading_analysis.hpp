// The driver of the threading analyses: takes the events in time order (from
// eventlog::TimeOrderedReader) and dispatches the scheduler events to one
// CapabilityUsageAnalysis per capability and one ThreadStateAnalysis per Haskell
// thread, each followed by a VirtualSamplingTimer. Memory grows with the
// capabilities, threads, spans and samples found, not with the events read.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <memory_resource>
#include <unordered_map>
#include <vector>

#include "analysis/threading/capability_usage_analysis.hpp"
#include "analysis/threading/folded_share.hpp"
#include "analysis/threading/thread_lives.hpp"
#include "analysis/threading/thread_state_analysis.hpp"
#include "analysis/threading/threading_result.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "analysis/threading/virtual_sampling_timer.hpp"
#include "eventlog/event.hpp"
#include "pass/interests.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/diagnostics.hpp"
#include "util/fixed_id_set.hpp"

namespace el2fx::analysis {

struct ThreadingOptions {
    std::uint64_t sampling_interval_ns = kDefaultSamplingIntervalNs;
    // The threads whose lives are kept elsewhere (a ReaderThreadLives on the reader's thread):
    // none, those `own_threads` holds, or the others. Their events still move the capabilities.
    enum class LivesElsewhere : std::uint8_t { none, own, others };
    LivesElsewhere lives_elsewhere = LivesElsewhere::none;
    const util::FixedIdSet* own_threads = nullptr;
    // With the others elsewhere: the share of them followed here all the same (none without).
    const FoldedShare* folded_share = nullptr;
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
    // `before_thread`: ThreadLives::finish()'s, for the threads it follows.
    ThreadingResult finish(const std::function<void(eventlog::ThreadId)>& before_thread = {});

private:
    struct CapabilityTrack {
        eventlog::CapNo cap;
        CapabilityUsageAnalysis usage;
        VirtualSamplingTimer<CapabilityActivity> timer;
    };

    // Inline: every event of a capability asks; only its first starts the track.
    CapabilityTrack& capability(eventlog::CapNo cap, std::uint64_t time) {
        if (cap < capabilities_.size() && capabilities_[cap]) return *capabilities_[cap];
        return start_capability(cap, time);
    }
    CapabilityTrack& start_capability(eventlog::CapNo cap, std::uint64_t time);
    bool follows(eventlog::ThreadId id) const {
        using enum ThreadingOptions::LivesElsewhere;
        if (options_.lives_elsewhere == none) return true;
        const bool is_own = options_.own_threads->contains(id);
        return options_.lives_elsewhere == own
                   ? !is_own
                   : is_own || (options_.folded_share && options_.folded_share->on_consumer(id));
    }
    // The recent threads' slots of the lives it follows: room for each where those are the
    // threads with a track of their own, else a few (any of millions).
    static std::size_t recent_slots(const ThreadingOptions& options) {
        return options.lives_elsewhere == ThreadingOptions::LivesElsewhere::others && options.own_threads
                   ? util::recent_slots_for(options.own_threads->size())
                   : util::kFewRecentSlots;
    }
    void handle_capability_event(const eventlog::Event& event, eventlog::CapNo cap, std::uint64_t time);
    void record(CapabilityTrack& track, std::uint64_t time, const std::optional<CapabilitySpan>& span);
    // GC_WORK / GC_IDLE / GC_DONE on a capability in a collection.
    void gc_phase_event(CapabilityTrack& track, std::uint64_t time, GcPhase phase);
    // The pending GC_DONE (see census_candidate_) takes effect as `phase`.
    void settle_census_candidate(GcPhase phase);
    void drain(CapabilityTrack& track);

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
    ThreadLives lives_;  // of the threads it follows
};

// Reads the whole log through the driver.
ThreadingResult analyse_threading(eventlog::TimeOrderedReader& reader, Diagnostics& diagnostics,
                                  ThreadingOptions options = {});

}  // namespace el2fx::analysis
