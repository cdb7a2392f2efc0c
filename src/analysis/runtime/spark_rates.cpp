#include "analysis/runtime/spark_rates.hpp"

#include <algorithm>

namespace el2fx::runtime {

void SparkRateSpans::add(std::uint64_t time, const SparkCounts& counts) {
    if (!started_) {
        started_ = true;
        start_ = last_ = time;
        at_start_ = latest_ = counts;
        return;
    }
    time = std::max(time, last_);
    for (SparkCounter c : kSparkCounters)
        if (spark_counter_is_cumulative(c) && value_of(counts, c) < value_of(at_start_, c)) {
            ++decreases_;
            break;
        }
    latest_ = counts;
    last_ = time;
    if (time - start_ >= min_span_ && time > start_) close(time);
}

void SparkRateSpans::close(std::uint64_t time) {
    SparkRateSpan span;
    span.start = start_;
    span.end = time;
    for (SparkCounter c : kSparkCounters) {
        if (!spark_counter_is_cumulative(c)) continue;
        const auto k = static_cast<std::size_t>(c);
        span.grown[k] = latest_[k] > at_start_[k] ? latest_[k] - at_start_[k] : 0;
    }
    span.pool_start = value_of(at_start_, SparkCounter::pool);
    span.pool_end = value_of(latest_, SparkCounter::pool);
    spans_.push_back(span);
    start_ = time;
    at_start_ = latest_;
}

void SparkRateSpans::finish() {
    if (started_ && last_ > start_) close(last_);
}

}  // namespace el2fx::runtime
