// What went wrong while reading the eventlog, known after the last event: Profile Info's
// "Eventlog problems" section (each diagnostic with its count, the stretches of lost data),
// a warning marker where a truncated log stops or at the start of an empty one, an
// "EventlogWarning" marker on the capability's track at each moment an analysis found the
// eventlog odd, and the "Data lost" markers (data_loss.hpp).
#pragma once

#include "convert/profile_context.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

// Needs the context's diagnostic moments, stream end, time shift and warning marker type.
void add_eventlog_problems(ProfileContext& context, const Diagnostics& diagnostics);

}  // namespace el2fx::convert
