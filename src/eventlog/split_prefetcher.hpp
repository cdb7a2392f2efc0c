// A pass that counts most records in the reader's place (TimeOrderedReader::count_only()) is
// bound by the reading: framing every record, counting most, merging and copying the rest.
// This splits the reading between two workers, each with a reader of half the ranges (every
// other one in time order, so both move through the log together): one worker hands its
// records to the other, which merges them with its own by (time, offset). The consumer sees
// one EventPrefetcher: the same events, in the same order, as one of the whole reader.
//
// Of a log in order only. A record a repeat filter counts in one part may be given by the
// other: each part has filters of its own and gives what they find new in its ranges (a
// superset of what one filter would give).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "eventlog/counted_records.hpp"
#include "eventlog/event.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

class SplitPrefetcher {
public:
    static constexpr std::size_t kParts = 2;

    // Whether splitting `reader` can pay: a log in order of several ranges, and a second core.
    static bool worthwhile(const TimeOrderedReader& reader);

    // Counts the records of `count_only` in the readers' place; part i's reader asks
    // `repeats[i]` (TimeOrderedReader::count_only()). Problems go to `diagnostics` (those of
    // the part handed over once this is destroyed).
    SplitPrefetcher(const TimeOrderedReader& reader, Diagnostics& diagnostics, const TagSet& count_only,
                    const std::array<std::vector<RepeatFilter*>, kParts>& repeats,
                    std::size_t batch_events = EventPrefetcher::kBatchEvents);
    ~SplitPrefetcher();
    SplitPrefetcher(const SplitPrefetcher&) = delete;
    SplitPrefetcher& operator=(const SplitPrefetcher&) = delete;

    // As EventPrefetcher's; the workers' CPU seconds are added up.
    void leave_undecoded(const TagSet& tags) { merging_->leave_undecoded(tags); }
    void report_worker_cpu(double* seconds) { cpu_to_ = seconds; }
    const Event* next() { return merging_->next(); }
    const CountedRecords& counted() const { return merging_->counted(); }

private:
    Diagnostics& diagnostics_;
    Diagnostics handed_diagnostics_;  // the handed-over part's, counted by the merging worker
    std::array<std::unique_ptr<TimeOrderedReader>, kParts> readers_;
    std::unique_ptr<EventPrefetcher> handing_;  // part 1's worker
    std::unique_ptr<EventPrefetcher> merging_;  // part 0's, merging part 1's records with its own
    double handing_cpu_ = 0, merging_cpu_ = 0;
    double* cpu_to_ = nullptr;
};

}  // namespace el2fx::eventlog
