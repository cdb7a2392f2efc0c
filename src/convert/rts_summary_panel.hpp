// The `+RTS -s` summary (gc::RtsSummary) in Profile Info: the runtime's figures, each marked
// when it is an estimate or a lower bound and saying why when unknown, then the seed's
// per-capability view of GC time.
#pragma once

#include "analysis/gc/rts_summary.hpp"
#include "fxprof/profile.hpp"

namespace el2fx::convert {

void add_rts_summary_panel(fxprof::Profile& profile, const gc::RtsSummary& summary);

}  // namespace el2fx::convert
