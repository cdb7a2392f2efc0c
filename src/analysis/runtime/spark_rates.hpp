// Spark rates from SPARK_COUNTERS samples (spark_counters.hpp), for one series of samples: one
// capability's, or all capabilities' summed. The RTS writes cumulative counts at start-up, at
// every GC and at shutdown; between two samples each count grew by some number of sparks, so
// the span between them has a rate (sparks per ms) that can be drawn next to the others on one
// scale, where cumulative curves each needed a scale of their own. A span ends at the first
// sample at least `min_span` after its start (a busy program collects garbage every
// millisecond), so there are at most duration / min_span spans; the rates are exact averages
// over the span whatever was merged into it. The pool size is a level: a span keeps it at its
// start and end.
//
//   add(t, counts)  first sample           → the first span starts at t
//                   t - start < min_span   → the span goes on (its end counts are updated)
//                   t - start >= min_span  → the span ends at t; the next starts at t
//   finish()        a span with samples after its start ends at the last sample
// A count lower than at the span's start (never seen from a real RTS) counts as no growth.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/runtime/spark_counters.hpp"

namespace el2fx::runtime {

struct SparkRateSpan {
    std::uint64_t start = 0, end = 0;  // end > start
    SparkCounts grown{};               // per cumulative series: sparks added in the span; pool: 0
    std::uint64_t pool_start = 0, pool_end = 0;

    // Sparks of a cumulative series per millisecond over the span.
    double per_ms(SparkCounter counter) const {
        return static_cast<double>(value_of(grown, counter)) * 1e6 / static_cast<double>(end - start);
    }
};

class SparkRateSpans {
public:
    explicit SparkRateSpans(std::uint64_t min_span = 0) : min_span_(min_span) {}

    // Samples in time order (an earlier one is taken as at the latest time seen).
    void add(std::uint64_t time, const SparkCounts& counts);
    void finish();

    const std::vector<SparkRateSpan>& spans() const { return spans_; }
    // Samples whose count of some series was lower than the span start's.
    std::uint64_t decreases() const { return decreases_; }

private:
    void close(std::uint64_t time);

    std::uint64_t min_span_;
    bool started_ = false;
    std::uint64_t start_ = 0, last_ = 0;
    SparkCounts at_start_{}, latest_{};
    std::vector<SparkRateSpan> spans_;
    std::uint64_t decreases_ = 0;
};

}  // namespace el2fx::runtime
