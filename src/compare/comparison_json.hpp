// The comparison as JSON for machines (`compare --json`), documented in doc/guide.md:
//   {"format": "eventlog2fxprof-compare", "version": 1,
//    "before": {"runs": [RUN…]}, "after": {"runs": [RUN…]},
//      RUN = {"input", "program", "rts_options", "rts_identifier"}
//    "notes": ["the runs are of different programs: …", …],
//    "figures": [{"key", "label", "group", "unit", "better",
//                 "before": SIDE, "after": SIDE,       SIDE = {"median", "min", "max", "values": [per run]}
//                 "change", "percent", "apart"}, …],   or null where a side lacks the figure
//    "gates": [{"expression", "figure", "failed", "measured"}, …], "failed": bool}
// Units: bytes, ns (integers where the runtime counts them so), ratio (0..1), count.
#pragma once

#include <string>
#include <vector>

#include "compare/comparison.hpp"
#include "compare/fail_if.hpp"

namespace el2fx::compare {

std::string render_comparison_json(const Comparison& comparison, const std::vector<GateResult>& gates);

}  // namespace el2fx::compare
