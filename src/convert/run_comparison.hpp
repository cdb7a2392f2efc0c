// The comparison step of a profile of several runs (build_profile with RunInputs), after the
// runs are added: each log is read once more by compare::measure_run (as `compare` reads it),
// then a "Runs compared" process gets their heaps on one scale (heap_comparison_chart.hpp) and
// Profile Info gets the comparison of each run with the first, as `compare` prints it.
#pragma once

#include <string>
#include <vector>

#include "convert/converter.hpp"
#include "fxprof/profile.hpp"

namespace el2fx::convert {

// names: the runs' process names, one per input. Standard input, pipes and FIFOs cannot be
// read again and are left out. Throws el2fx::Error when a log cannot be read again.
// With --redact-args the runs' RTS options are not said.
void add_run_comparison(fxprof::Profile& profile, const std::vector<RunInput>& inputs,
                        const std::vector<std::string>& names, const ConvertOptions& options);

}  // namespace el2fx::convert
