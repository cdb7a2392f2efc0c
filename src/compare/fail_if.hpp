// --fail-if gates for CI: FIGURE OP THRESHOLD, e.g. `gc_elapsed>+10%`, `max_residency>+5%`,
// `productivity<-2%`, `pause_max>+1ms`, `allocated>+64MB`, `gen1_collections>+2`.
//   FIGURE     a figure's key (the JSON's "key"): gc_elapsed, cap1_idle, band_peak:ARR_WORDS, …
//   OP         > (the change is above the threshold) or < (below it); >= and <= as usual
//   THRESHOLD  a signed number with % (the change in per cent of before) or in the figure's
//              own units: bytes (B, kB, MB, GB, KiB, MiB, GiB), time (ns, us, ms, s), or a bare
//              number for counts and ratios (a ratio's 0.01 is one percentage point)
// The change is that of the medians with several runs per side.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compare/comparison.hpp"

namespace el2fx::compare {

enum class GateOp : std::uint8_t { above, at_least, below, at_most };

struct Gate {
    std::string expression;  // as given
    std::string figure;
    GateOp op = GateOp::above;
    double threshold = 0;  // per cent, or in the figure's units (bytes, ns, count, ratio)
    bool percent = false;
    std::optional<Unit> unit;  // the unit an absolute threshold was given in (none: a bare number)
};

// Throws el2fx::Error saying what is wrong with the expression (a usage error for the CLI).
Gate parse_gate(const std::string& expression);

struct GateResult {
    Gate gate;
    bool failed = false;
    std::optional<double> measured;  // the change the gate looked at (per cent, or absolute)
};

// Throws el2fx::Error when the runs do not have the gate's figure on both sides, or the
// threshold's unit is not the figure's.
GateResult evaluate_gate(const Gate& gate, const Comparison& comparison);

}  // namespace el2fx::compare
