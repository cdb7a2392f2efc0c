// The threading mapper: the part of the conversion that shows capabilities and Haskell threads
// (design.md, "How the eventlog maps onto the profile"). It lays out the process and the tracks
// (thread_track_layout.hpp), then takes what the threading analysis streams: samples, with
// their stacks (activity_stacks.hpp), onto their tracks; spans and thread moments become
// markers (threading_markers.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "analysis/run/thread_catalog.hpp"
#include "analysis/threading/reader_thread_lives.hpp"
#include "analysis/threading/threading_sink.hpp"
#include "convert/profile_contributor.hpp"
#include "convert/thread_track_layout.hpp"

namespace el2fx::convert {

// A contributor that is also the threading analysis' sink: begin() lays out every track from
// the census (context.census, first pass); the analysis then hands over spans and samples as
// they become final, and handle() follows the threads' moments (second pass); contribute()
// adds what is pending. It runs first: the other contributors draw on its tracks.
class ThreadingMapper final : public ProfileContributor,
                              public analysis::ThreadingSink,
                              public analysis::ReaderLivesSink {
public:
    ThreadingMapper();
    ~ThreadingMapper() override;

    std::string_view name() const override { return "threads"; }
    void begin(ProfileContext& context) override;
    void handle(const eventlog::Event& event) override;
    pass::Interests interests() const override { return pass::Interests::where(run::ThreadMoments::concerns); }
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;
    // How many threads got a track of their own (after begin()).
    const MappingSummary& summary() const;
    // After begin(): the threads with a track of their own, and whether others share one.
    std::vector<eventlog::ThreadId> own_thread_ids() const;
    bool folds_threads() const;

    void capability_started(eventlog::CapNo cap, std::uint64_t time) override;
    void capability_span(eventlog::CapNo cap, const analysis::CapabilitySpan& span) override;
    void capability_sample(eventlog::CapNo cap, const analysis::Sample<analysis::CapabilityActivity>& sample) override;
    void thread_span(eventlog::ThreadId thread, const analysis::ThreadStateSpan& span) override;
    void thread_sample(eventlog::ThreadId thread, const analysis::Sample<analysis::ThreadActivity>& sample) override;

    // What the threads' lives kept on the reader's thread give (reader_thread_lives.hpp). The
    // folded threads' sums only where they go without their names (their stacks then do not
    // depend on the thread).
    void own_sample(eventlog::ThreadId thread, const analysis::Sample<analysis::ThreadActivity>& sample) override;
    void running_span(std::size_t track, std::uint64_t start, std::uint64_t end, eventlog::CapNo cap) override;
    void running_merged(std::size_t track, const analysis::MergedSpans& group) override;
    void stopped_span(std::size_t track, std::uint64_t start, std::uint64_t end,
                      const analysis::ThreadActivity& a) override;
    void stopped_merged(std::size_t track, const analysis::MergedSpans& group, std::uint16_t status) override;
    void folded_activity(const analysis::ThreadActivity& key) override;
    void folded_sum(std::uint64_t time, const analysis::ThreadActivity& key, std::uint64_t weight) override;
    void folded_chunk_full() override;
    // Where the own threads' span filters ran elsewhere: called with each own track's index
    // where contribute() flushes its filters (their pending groups delivered then).
    void flush_elsewhere(std::function<void(std::size_t)> flush) { flush_elsewhere_ = std::move(flush); }

private:
    struct Parts;
    std::unique_ptr<Parts> parts_;  // made by begin()
    std::function<void(std::size_t)> flush_elsewhere_;
    run::ThreadMoments moments_;
};

}  // namespace el2fx::convert
