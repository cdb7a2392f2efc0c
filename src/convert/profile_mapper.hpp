// Maps what the analyses found onto a Firefox Profiler profile (design.md, "How the
// eventlog maps onto the profile"): one process; a track per capability and per
// Haskell thread (the busiest and the labelled ones, the rest folded into one
// track); samples with CPU deltas and off-CPU groups; spans and moments as markers.
#pragma once

#include <vector>

#include "analysis/threading_result.hpp"
#include "convert/convert_options.hpp"
#include "convert/diagnostic_moment.hpp"
#include "convert/run_info.hpp"
#include "convert/thread_catalog.hpp"
#include "fxprof/profile.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

struct ConversionFacts {
    const RunInfo& run;
    const ThreadCatalog& threads;
    const analysis::ThreadingResult& threading;
    const std::vector<DiagnosticMoment>& diagnostic_moments;
    const Diagnostics& diagnostics;
};

struct MappingSummary {
    std::size_t thread_tracks = 0;   // Haskell threads with a track of their own
    std::size_t folded_threads = 0;  // Haskell threads in the shared track
};

MappingSummary map_to_profile(const ConversionFacts& facts, const ConvertOptions& options, fxprof::Profile& profile);

}  // namespace el2fx::convert
