// RtsSummary as JSON for machines (RapidJSON's writer). Every figure is an object
// {"value": …, "accuracy": "exact" | "estimate" | "lower-bound" | "unavailable", "note": "…"}
// with value null when unavailable; times are integer nanoseconds, ratios are 0..1.
#pragma once

#include <string>

#include "analysis/gc/rts_summary.hpp"

namespace el2fx::gc {

std::string render_summary_json(const RtsSummary& summary, const std::string& input_name);

}  // namespace el2fx::gc
