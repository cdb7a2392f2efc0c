// The folded threads' samples, gathered a chunk at a time for their shared track. They reach
// the track out of time order (each thread's samples come as its spans end): a chunk is added
// as one time-ordered run, and the profile merges the runs.
//
// Samples of one time and stack are summed: one sample of their summed weight has the same call
// tree and category totals (the activity graph weighs samples alike; only the order of those at
// one instant differs). Folded threads without their names share their stacks, so millions of
// short-lived threads' samples come down to a few per tick: those are summed as they come,
// through a small table of the latest (time, stack) pairs, which leaves few to sort. Named ones
// have stacks of their own, so nearly every pair is new and a table of every pair in the chunk
// would miss the cache at each sample: what the small table does not catch is summed at the
// drain instead, where the chunk is sorted anyway.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/threading/reader_thread_lives.hpp"
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
        Latest& latest = latest_[util::hash_combine(s.time, s.stack.index()) & (kLatest - 1)];
        if (latest.row_plus_one != 0 && latest.time == s.time && latest.stack == s.stack.index()) {
            rows_[latest.row_plus_one - 1].weight += s.weight;
            return;
        }
        rows_.push_back(s);
        latest = Latest{s.time, s.stack.index(), static_cast<std::uint32_t>(rows_.size())};
    }
    bool empty() const { return rows_.empty(); }

    // The chunk's samples by time, then stack, each (time, stack) once; empties the chunk.
    template <class Each>
    void drain(Each&& each) {
        std::sort(rows_.begin(), rows_.end(), [](const FoldedSample& a, const FoldedSample& b) {
            return a.time != b.time ? a.time < b.time : a.stack < b.stack;
        });
        for (std::size_t i = 0; i < rows_.size();) {
            FoldedSample sum = rows_[i];
            while (++i < rows_.size() && rows_[i].time == sum.time && rows_[i].stack == sum.stack)
                sum.weight += rows_[i].weight;
            each(sum);
        }
        rows_.clear();
        latest_.fill(Latest{});
        taken_ = 0;
    }

private:
    // Small enough to stay in the core's cache, large enough for a tick's pairs of threads without names.
    static constexpr std::size_t kLatest = std::size_t{1} << 12;
    std::vector<FoldedSample> rows_;  // in the order they came; a pair in several where latest_ lost it
    // The pair with the row it was last added to, by its hash (the pair kept here: a row
    // compared instead would be a miss of the cache for each new pair).
    struct Latest {
        std::uint64_t time = 0;
        std::uint32_t stack = 0;         // its index
        std::uint32_t row_plus_one = 0;  // 0: none
    };
    std::array<Latest, kLatest> latest_{};
    std::size_t taken_ = 0;
};

}  // namespace el2fx::convert
