// Maps what the analyses found onto a Firefox Profiler profile (design.md, "How the
// eventlog maps onto the profile"): one process; a track per capability and per
// Haskell thread (the busiest and the labelled ones, the rest folded into one
// track); samples with CPU deltas and off-CPU groups; spans and moments as markers.
#pragma once

#include <vector>

#include "convert/diagnostic_moment.hpp"
#include "convert/profile_context.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {


struct MappingSummary {
    std::size_t thread_tracks = 0;   // Haskell threads with a track of their own
    std::size_t folded_threads = 0;  // Haskell threads in the shared track
};

// Declares the shared categories (Categories) in the profile.
Categories declare_categories(fxprof::Profile& profile);

// Sets the meta, makes the process and every track (recorded in the context), and
// adds the threading samples and markers and the diagnostic markers.
MappingSummary map_threading(ProfileContext& context, const std::vector<DiagnosticMoment>& diagnostic_moments,
                             const Diagnostics& diagnostics);

}  // namespace el2fx::convert
