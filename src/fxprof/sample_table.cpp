#include "fxprof/sample_table.hpp"

#include <algorithm>
#include <numeric>

namespace el2fx::fxprof {

std::vector<std::uint32_t> stable_time_order(const std::vector<std::int64_t>& times, bool sorted) {
    std::vector<std::uint32_t> order;
    if (sorted) return order;
    order.resize(times.size());
    std::iota(order.begin(), order.end(), std::uint32_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return times[a] < times[b]; });
    return order;
}

std::vector<std::uint32_t> SampleTable::time_order() const {
    return stable_time_order(times_, sorted_);
}

}  // namespace el2fx::fxprof
