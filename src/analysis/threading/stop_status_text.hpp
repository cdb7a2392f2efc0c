// Words for a STOP_THREAD status (eventlog-facts §4.3), for span listings and
// the names of blocked-thread stacks. Worded as ghc-events 0.21 words them, but
// total: codes it rejects get words too.
#pragma once

#include <cstdint>
#include <string>

#include "analysis/threading/activity.hpp"

namespace el2fx::analysis {

// "thread yielding", "blocked on an MVar", …; "unknown status N" for other codes.
std::string stop_status_text(std::uint16_t status);
// The status text, plus "owned by thread N" for a black hole whose owner is known.
std::string block_reason_text(const BlockReason& reason);
// Whether block_reason_text names the blocker; if not, the status alone decides the text.
bool block_reason_names_blocker(const BlockReason& reason);

}  // namespace el2fx::analysis
