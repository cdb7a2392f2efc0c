// The virtual timer's interval (`--interval`): every sampler ticks on the grid of its multiples.
// The one default and the one check, for the analysis, the conversion's options and the CLI.
#pragma once

#include <cstdint>

namespace el2fx::analysis {

constexpr std::uint64_t kDefaultSamplingIntervalNs = 1'000'000;  // 1 ms

// Throws el2fx::Error for an interval of 0: there is no grid to tick on.
void check_sampling_interval(std::uint64_t interval_ns);

}  // namespace el2fx::analysis
