// RtsSummary as text: the runtime's `+RTS -s` layout (GHC 9.0's Stats.c), with "-" where the
// runtime shows CPU time (not in the eventlog), "?" where a figure cannot be derived, and a
// numbered note for every figure that is not exact; then the seed's per-capability view.
#pragma once

#include <string>

#include "analysis/gc/rts_summary.hpp"

namespace el2fx::gc {

std::string render_summary_text(const RtsSummary& summary);

// "532,401,568"
std::string with_commas(std::uint64_t n);
// A non-negative figure rounded to a whole number, with commas, whatever its size (a corrupt
// log can claim more bytes per second than 64 bits hold); "?" for NaN, infinity or negative.
std::string rounded_with_commas(double v);

}  // namespace el2fx::gc
