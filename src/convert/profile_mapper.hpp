// Maps what the analyses found onto a Firefox Profiler profile (design.md, "How the
// eventlog maps onto the profile"): one process; a track per capability and per
// Haskell thread (the busiest and the labelled ones, the rest folded into one
// track); samples with CPU deltas and off-CPU groups; spans and moments as markers.
#pragma once

#include <memory>
#include <vector>

#include "analysis/threading/threading_sink.hpp"
#include "convert/diagnostic_moment.hpp"
#include "convert/profile_context.hpp"
#include "analysis/run/run_census.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {


struct MappingSummary {
    std::size_t thread_tracks = 0;   // Haskell threads with a track of their own
    std::size_t folded_threads = 0;  // Haskell threads in the shared track
};

// Declares the shared categories (Categories) in the profile.
Categories declare_categories(fxprof::Profile& profile);

// Streams the threading analysis into the profile: begin() lays out the process and every
// track from the census (first pass); the analysis then hands over spans and samples as they
// become final and the thread catalog its moments (second pass); finish() flushes what is
// pending and adds the diagnostic markers. Span markers follow the context's span detail.
class ThreadingMapper final : public analysis::ThreadingSink {
public:
    // `context` and `census` must outlive the mapper.
    ThreadingMapper(ProfileContext& context, const run::RunCensus& census, const Diagnostics& diagnostics);
    ~ThreadingMapper() override;

    void begin();
    MappingSummary finish(const std::vector<DiagnosticMoment>& diagnostic_moments);

    void capability_started(eventlog::CapNo cap, std::uint64_t time) override;
    void capability_span(eventlog::CapNo cap, const analysis::CapabilitySpan& span) override;
    void capability_sample(eventlog::CapNo cap, const analysis::Sample<analysis::CapabilityActivity>& sample) override;
    void thread_span(eventlog::ThreadId thread, const analysis::ThreadStateSpan& span) override;
    void thread_sample(eventlog::ThreadId thread, const analysis::Sample<analysis::ThreadActivity>& sample) override;
    void moment(const run::ThreadMoment& m);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace el2fx::convert
