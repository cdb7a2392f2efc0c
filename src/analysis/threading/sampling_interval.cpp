#include "analysis/threading/sampling_interval.hpp"

#include "util/error.hpp"

namespace el2fx::analysis {

void check_sampling_interval(std::uint64_t interval_ns) {
    if (interval_ns == 0) throw Error("the sampling interval must be more than 0");
}

}  // namespace el2fx::analysis
