#include "convert/profile_mapper.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "analysis/run/run_census.hpp"
#include "convert/activity_stacks.hpp"
#include "convert/folded_chunk.hpp"
#include "convert/sampled_stacks.hpp"
#include "convert/threading_markers.hpp"
#include "eventlog/event_types.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using analysis::CapabilityActivity;
using analysis::ThreadActivity;
using eventlog::CapNo;
using eventlog::ThreadId;

// The events the threading analyses and this mapper show.
constexpr std::array<std::uint16_t, 8> kShown = {
    eventlog::CreateThread::tag, eventlog::RunThread::tag, eventlog::StopThread::tag, eventlog::MigrateThread::tag,
    eventlog::WakeupThread::tag, eventlog::StartGC::tag,   eventlog::EndGC::tag,      eventlog::ThreadLabel::tag};

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

}  // namespace

struct ThreadingMapper::Parts {
    explicit Parts(ProfileContext& context)
        : ctx(context),
          p(context.profile),
          layout(context),
          markers(context, layout),
          ticks(context.census->tick_coverage) {}

    ProfileContext& ctx;
    Profile& p;
    ThreadTrackLayout layout;
    ThreadingMarkers markers;
    std::optional<ActivityStacks> stacks;  // after the layout
    FoldedChunk folded;
    // Where time-profile ticks replace virtual samples (known from the census, before any sample).
    const profiling::TickCoverage& ticks;

    // One track for many threads: samples go in as time-ordered runs.
    void flush_folded() {
        if (folded.empty()) return;
        folded.drain([&](const FoldedSample& s) {
            // CPU deltas of different threads must not be added up as one thread's:
            // the shared track gets weights and stacks, not activity.
            p.add_sample(*layout.folded_track(), at(s.time), s.stack, std::nullopt,
                         static_cast<std::int64_t>(s.weight));
        });
    }
};

ThreadingMapper::ThreadingMapper() = default;

ThreadingMapper::~ThreadingMapper() = default;

std::span<const std::uint16_t> ThreadingMapper::shown_tags() const { return kShown; }

const MappingSummary& ThreadingMapper::summary() const {
    static const MappingSummary none;
    return parts_ ? parts_->layout.summary() : none;
}

std::vector<ThreadId> ThreadingMapper::own_thread_ids() const {
    std::vector<ThreadId> ids;
    if (parts_)
        for (const ThreadTrackLayout::OwnTrack& own : parts_->layout.own_tracks()) ids.push_back(own.id);
    return ids;
}

bool ThreadingMapper::folds_threads() const { return parts_ && parts_->layout.folded_track().has_value(); }

void ThreadingMapper::begin(ProfileContext& context) {
    parts_ = std::make_unique<Parts>(context);
    parts_->markers.declare();  // their strings first, then the layout's thread names
    parts_->layout.lay_out();
    parts_->markers.begin();
    parts_->stacks.emplace(context, parts_->layout);
}

void ThreadingMapper::handle(const eventlog::Event& event) {
    const std::optional<run::ThreadMoment> moment = moments_.moment(event);
    if (!moment || !parts_) return;
    const run::ThreadMoment& m = *moment;
    parts_->markers.moment(m);
    if (m.kind == run::ThreadMoment::Kind::finished && parts_->stacks)
        parts_->stacks->thread_finished(m.thread, m.time);
    if (m.kind == run::ThreadMoment::Kind::labelled && parts_->stacks) parts_->stacks->thread_labelled(m.thread);
}

void ThreadingMapper::contribute(ProfileContext& /*context*/, std::uint64_t /*end*/) {
    parts_->markers.finish(flush_elsewhere_);
    parts_->flush_folded();
    // The shared track's samples of one instant came in chunks that depend on which core took
    // which thread: summed, the profile does not.
    if (parts_->layout.folded_track()) parts_->p.sum_same_instants(*parts_->layout.folded_track());
    parts_->layout.choose_visible_tracks();
}

void ThreadingMapper::capability_started(CapNo, std::uint64_t) {}  // its track exists from begin()

void ThreadingMapper::capability_span(CapNo cap, const analysis::CapabilitySpan& span) {
    parts_->markers.capability_span(cap, span);
}

void ThreadingMapper::thread_span(ThreadId thread, const analysis::ThreadStateSpan& span) {
    parts_->markers.thread_span(thread, span);
}

void ThreadingMapper::capability_sample(CapNo cap, const analysis::Sample<CapabilityActivity>& s) {
    Parts& m = *parts_;
    std::optional<ThreadHandle> track = m.ctx.capability_track(cap);
    if (!track || m.ticks.replaces_capability_sample(cap, s.time)) return;  // a time-profile tick stands in
    m.p.add_sample(*track, at(s.time), m.stacks->capability_stack(s.key),
                   CpuDelta::from_nanos(static_cast<std::int64_t>(s.cpu_delta_ns)),
                   static_cast<std::int64_t>(s.weight));
}

void ThreadingMapper::thread_sample(ThreadId id, const analysis::Sample<ThreadActivity>& s) {
    Parts& m = *parts_;
    if (m.ticks.replaces_thread_sample(is_on_cpu(s.key), s.key.cap, s.time)) return;  // a tick stands in
    if (std::optional<std::uint32_t> own = m.layout.own_track_index(id)) {
        StackHandle stack = m.stacks->thread_stack(s.key);
        if (m.ctx.sampled_stacks) stack = m.ctx.sampled_stacks->stack_at(id, s.time, stack);  // Haskell stacks
        m.p.add_sample(m.layout.own_tracks()[*own].handle, at(s.time), stack,
                       CpuDelta::from_nanos(static_cast<std::int64_t>(s.cpu_delta_ns)),
                       static_cast<std::int64_t>(s.weight));
        return;
    }
    if (!m.layout.folded_track()) return;
    // The shared track carries no CPU deltas, only weights (threads' deltas do not add up as
    // one thread's): its samples sit on the timer's grid (an off-CPU group's ends move by less
    // than half an interval), which keeps the many threads' times cheap to store and merge.
    const std::uint64_t on_grid = analysis::on_sampling_grid(s.time, m.ctx.options.sampling_interval_ns);
    if (m.folded.add({on_grid, s.weight, m.stacks->folded_stack(id, s.key)})) m.flush_folded();
}

void ThreadingMapper::own_sample(ThreadId thread, const analysis::Sample<ThreadActivity>& sample) {
    thread_sample(thread, sample);
}
void ThreadingMapper::running_span(std::size_t track, std::uint64_t start, std::uint64_t end, CapNo cap) {
    parts_->markers.running_span(track, start, end, cap);
}
void ThreadingMapper::running_merged(std::size_t track, const analysis::MergedSpans& group) {
    parts_->markers.running_merged(track, group);
}
void ThreadingMapper::stopped_span(std::size_t track, std::uint64_t start, std::uint64_t end, const ThreadActivity& a) {
    parts_->markers.stopped_span(track, start, end, a);
}
void ThreadingMapper::stopped_merged(std::size_t track, const analysis::MergedSpans& group, std::uint16_t status) {
    parts_->markers.stopped_merged(track, group, status);
}

void ThreadingMapper::folded_activity(const ThreadActivity& key) { parts_->stacks->folded_stack(0, key); }

void ThreadingMapper::folded_sum(std::uint64_t time, const ThreadActivity& key, std::uint64_t weight) {
    parts_->folded.add_summed({time, weight, parts_->stacks->folded_stack(0, key)});
}

void ThreadingMapper::folded_chunk_full() { parts_->flush_folded(); }

}  // namespace el2fx::convert
