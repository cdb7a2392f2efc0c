// What the decoder could not read, shown in the profile: a "Data lost" marker per stretch of
// corrupt data it skipped (on the damaged block's capability track, or the process track when
// the capability is unknown), and entries in Profile Info's "Eventlog problems" section.
#pragma once

#include <cstdint>

#include "convert/profile_context.hpp"
#include "eventlog/stream.hpp"

namespace el2fx::convert {

// Entries for the lost stretches and corrected timestamps (nothing for a clean eventlog).
void add_data_loss_entries(fxprof::Profile& profile, fxprof::ExtraSectionHandle section,
                           const eventlog::StreamEnd& end);

// The markers; `shift` is what the run's times were shifted by (several runs in one profile).
void add_data_loss_markers(ProfileContext& context, const eventlog::StreamEnd& end, std::uint64_t shift);

}  // namespace el2fx::convert
