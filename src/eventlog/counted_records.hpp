// Records a consumer only counts: the prefetcher's worker counts them in its place instead of
// handing them over (EventPrefetcher's count-only mode). A census reads nothing of most of a
// busy log's GC and heap events but their number, type and time; not copying them between the
// cores, and not decoding and dispatching them one by one, is most of what they cost it.
#pragma once

#include <array>
#include <cstdint>

namespace el2fx::eventlog {

// What the worker counted of the records it kept back.
struct CountedRecords {
    // Every tag a count-only set may hold is below this (the decoder's table: every tag GHC
    // writes); records of higher tags are always handed over.
    static constexpr std::size_t kTags = 256;

    std::array<std::uint64_t, kTags> by_tag{};
    std::uint64_t latest_time = 0;  // the latest of their times (0: none)

    std::uint64_t events() const {
        std::uint64_t n = 0;
        for (std::uint64_t count : by_tag) n += count;
        return n;
    }
    void add(const CountedRecords& other) {
        for (std::size_t t = 0; t < kTags; ++t) by_tag[t] += other.by_tag[t];
        if (other.latest_time > latest_time) latest_time = other.latest_time;
    }
};

}  // namespace el2fx::eventlog
