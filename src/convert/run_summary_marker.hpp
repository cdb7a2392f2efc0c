// The +RTS -s headline figures where the first screen shows them: one marker spanning the
// run on the process track ("GC 61.2% · productivity 37.6% · max residency 50.4 MB · alloc
// 2.1 GB/s per MUT second"). The full summary stays in Profile Info, behind "Show more".
#pragma once

#include <cstdint>
#include <string>

#include "convert/profile_context.hpp"
#include "analysis/gc/rts_summary.hpp"

namespace el2fx::convert {

// The marker's text: the figures the summary knows, "≥" before a lower bound, "~" before an
// estimate; empty when it knows none.
std::string run_summary_text(const gc::RtsSummary& summary);

// Adds the marker from `start` to `end` (ns) on the process track, if the text is not empty.
void add_run_summary_marker(ProfileContext& context, const gc::RtsSummary& summary, std::uint64_t start,
                            std::uint64_t end);

}  // namespace el2fx::convert
