// The comparison as a table for a terminal: a section per group, a row per figure with before,
// after, change and per cent (with several runs per side: medians, the range, and a * where the
// sides' ranges do not overlap). Colour (worse red, better green) only when asked.
#pragma once

#include <string>
#include <vector>

#include "compare/comparison.hpp"
#include "compare/fail_if.hpp"

namespace el2fx::compare {

struct TextOptions {
    bool colour = false;
    std::size_t max_profiling_rows = 10;  // per cost-centre and heap-band section; --json has all
};

std::string render_comparison_text(const Comparison& comparison, const std::vector<GateResult>& gates,
                                   const TextOptions& options);

}  // namespace el2fx::compare
