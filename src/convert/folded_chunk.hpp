// The folded threads' samples, gathered a chunk at a time for their shared track. They reach
// the track out of time order (each thread's samples come as its spans end): a chunk is added
// as one time-ordered run, and the profile merges the runs.
//
// Samples of one time and stack are summed as they come: one sample of their summed weight has
// the same call tree and category totals (the activity graph weighs samples alike; only the
// order of those at one instant differs). Folded threads without their names share their
// stacks, so millions of short-lived threads' samples come down to a few per tick, and summing
// them as they come leaves few to sort.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/threading/reader_thread_lives.hpp"
#include "fxprof/flat_index.hpp"
#include "fxprof/handles.hpp"
#include "util/hash_mix.hpp"

namespace el2fx::convert {

// A folded thread's sample, its stack made as it comes (while the thread's records are at
// hand, not after a sort has scattered them).
struct FoldedSample {
    std::uint64_t time;
    std::uint64_t weight;
    fxprof::StackHandle stack;
};

class FoldedChunk {
public:
    static constexpr std::size_t kSamples = analysis::ReaderLivesSink::kChunkSamples;  // taken per chunk

    // Whether the chunk is full after this sample.
    bool add(const FoldedSample& s) {
        add_summed(s);
        return ++taken_ == kSamples;
    }
    // A sum of samples taken elsewhere (analysis::ReaderLivesSink): merged as add() merges,
    // but the chunk is full when the one who took them says so.
    void add_summed(const FoldedSample& s) {
        const auto next = static_cast<std::uint32_t>(distinct_.size());
        auto [row, added] = index_.intern(util::hash_combine(s.time, s.stack.index()), next, [&](std::uint32_t r) {
            return distinct_[r].time == s.time && distinct_[r].stack == s.stack;
        });
        if (added)
            distinct_.push_back(s);
        else
            distinct_[row].weight += s.weight;
    }
    bool empty() const { return distinct_.empty(); }

    // The chunk's samples by time, then stack, each (time, stack) once; empties the chunk.
    template <class Each>
    void drain(Each&& each) {
        std::sort(distinct_.begin(), distinct_.end(), [](const FoldedSample& a, const FoldedSample& b) {
            return a.time != b.time ? a.time < b.time : a.stack < b.stack;
        });
        for (const FoldedSample& s : distinct_) each(s);
        distinct_.clear();
        index_.clear();
        taken_ = 0;
    }

private:
    std::vector<FoldedSample> distinct_;  // in the order they came
    fxprof::FlatIndex index_;             // (time, stack) -> its row in distinct_
    std::size_t taken_ = 0;
};

}  // namespace el2fx::convert
