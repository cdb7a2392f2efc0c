// The output budget: the written profile's JSON must stay within a size the profiler opens
// quickly (`--max-profile-size`, 200 MB by default), whatever the log's length or threads.
// The level of detail is chosen before anything is written, from the census: an estimate of
// the profile's size at a given detail (marker resolution, sampling interval, thread tracks)
// from the span-length histograms and counts of run::DetailCensus, and the finest detail whose
// estimate fits. What grows coarser, in this order and only as far as needed:
//   0. with hundreds of thousands of threads, the folded ones lose their names (a frame each)
//      when those alone would take a quarter of the budget;
//   1. the sampling interval (and with it the off-CPU sample groups), doubling until samples
//      take at most 40% of the budget;
//   2. the marker resolution, doubling from the default up to a tenth of the log's duration;
//   3. the sampling interval again, up to 1 s (or a twentieth of the run);
//   4. the number of Haskell thread tracks, halving down to one (the least busy are folded).
// A dimension the user set (--marker-resolution, --interval, --all-threads) is left as set.
// Totals (CPU deltas, time per state, GC counts and bytes, heap figures) do not depend on the
// detail: merged markers carry their counts and durations, samples their CPU deltas.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "analysis/run/detail_census.hpp"
#include "convert/span_detail.hpp"

namespace el2fx::convert {

inline constexpr std::uint64_t kDefaultMaxProfileBytes = 200'000'000;

// One level of detail.
struct Detail {
    SpanDetail spans;
    std::uint64_t sampling_interval_ns = 0;
    std::size_t thread_tracks = 0;  // Haskell threads with a track of their own
    bool folded_names = true;       // folded threads' samples keep their names (a frame each)
    bool operator==(const Detail&) const = default;
};

// What the user asked for: the budget, and which dimensions they set themselves.
struct BudgetRequest {
    std::uint64_t max_bytes = kDefaultMaxProfileBytes;  // 0: no budget
    Detail wanted;                                      // the detail without a budget
    bool resolution_fixed = false;                      // --marker-resolution
    bool interval_fixed = false;                        // --interval
    bool threads_fixed = false;                         // --all-threads
};

struct DetailChoice {
    std::uint64_t max_bytes = 0;        // the budget (0: none)
    Detail detail;                      // what to convert with
    std::uint64_t estimated_bytes = 0;  // the JSON size estimated at that detail
    std::uint64_t wanted_bytes = 0;     // ... and at the detail wanted
    bool coarsened = false;             // detail differs from the wanted one
    bool over_budget = false;           // even the coarsest allowed detail's estimate is over
};

// The estimated JSON size of a run's profile at `detail` (duration: the run's, in ns), by part.
struct SizeEstimate {
    double markers = 0, samples = 0, folded_names = 0, rest = 0;  // bytes
    std::uint64_t total() const;
};
SizeEstimate estimate_profile_size(const run::DetailCensus& census, std::uint64_t duration, const Detail& detail);
inline std::uint64_t estimate_profile_bytes(const run::DetailCensus& census, std::uint64_t duration,
                                            const Detail& detail) {
    return estimate_profile_size(census, duration, detail).total();
}

DetailChoice choose_detail(const run::DetailCensus& census, std::uint64_t duration, const BudgetRequest& request);

// "sampling every 8 ms, markers merged below 96 ms, 16 thread tracks": what `choice` changed
// from the wanted detail (empty if nothing).
std::string describe_coarsening(const DetailChoice& choice, const Detail& wanted);

// Profile Info's account of the budget: the limit, the estimates, what was coarsened.
std::string budget_summary(const DetailChoice& choice, const Detail& wanted);

}  // namespace el2fx::convert
