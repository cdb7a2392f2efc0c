#include "eventlog/split_prefetcher.hpp"

#include <thread>

namespace el2fx::eventlog {

bool SplitPrefetcher::worthwhile(const TimeOrderedReader& reader) {
    return reader.in_order() && reader.ranges().size() >= kParts && std::thread::hardware_concurrency() >= 2;
}

SplitPrefetcher::SplitPrefetcher(const TimeOrderedReader& reader, Diagnostics& diagnostics, const TagSet& count_only,
                                 const std::array<std::vector<RepeatFilter*>, kParts>& repeats,
                                 std::size_t batch_events)
    : diagnostics_(diagnostics) {
    for (std::size_t i = 0; i < kParts; ++i) readers_[i] = std::make_unique<TimeOrderedReader>(reader, i, kParts);
    handing_ = std::make_unique<EventPrefetcher>(*readers_[1], handed_diagnostics_,
                                                 EventPrefetcher::CountOnly{&count_only, repeats[1]}, batch_events);
    merging_ = std::make_unique<EventPrefetcher>(*readers_[0], diagnostics,
                                                 EventPrefetcher::CountOnly{&count_only, repeats[0]}, *handing_,
                                                 batch_events);
    handing_->report_worker_cpu(&handing_cpu_);
    merging_->report_worker_cpu(&merging_cpu_);
}

SplitPrefetcher::~SplitPrefetcher() {
    merging_.reset();  // first: its worker takes from the other
    handing_.reset();
    diagnostics_.merge(handed_diagnostics_);
    if (cpu_to_) *cpu_to_ = handing_cpu_ + merging_cpu_;
}

}  // namespace el2fx::eventlog
