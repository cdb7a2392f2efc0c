// Records a pass only counts: the reader counts them as it frames them instead of giving them
// (TimeOrderedReader::count_only()). A census reads nothing of most of a busy log's GC and heap
// events but their number, type and time; not merging them, copying them between the cores,
// decoding and dispatching them one by one is most of what they cost it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace el2fx::eventlog {

// What a pass counted of the records it kept back.
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
};

// Records a pass counts only where whoever takes the pass learns nothing from them
// (TimeOrderedReader::count_only()).
struct CountWhereKnown {
    // Wake-ups of a thread one of whose wake-ups stamped earlier was given, for up to this many
    // threads (0: none).
    std::size_t wakeup_threads = 0;
    // Spark counters whose non-zero fields are non-zero in one of the same capability given
    // already (none without a capability).
    bool spark_counters = false;
};

}  // namespace el2fx::eventlog
