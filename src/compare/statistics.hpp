// The few statistics `compare` needs: percentiles of a run's pauses, and a side's median and
// spread over its runs.
#pragma once

#include <vector>

namespace el2fx::compare {

// The nearest-rank percentile (p in 0..100) of the values, which it sorts; 0 for none. The
// 100th is the largest, the 50th of an even count the lower middle (a value that occurred).
double percentile(std::vector<double>& values, double p);

// The median of the values (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);

}  // namespace el2fx::compare
