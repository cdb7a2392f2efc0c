// Records a pass only counts: the reader counts them as it frames them instead of giving them
// (TimeOrderedReader::count_only()). A census reads nothing of most of a busy log's GC and heap
// events but their number, type and time; not merging them, copying them between the cores,
// decoding and dispatching them one by one is most of what they cost it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "eventlog/event_types.hpp"

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

// A part's rule for the records of one tag that it needs given only while they tell it
// something new, and else only counted (TimeOrderedReader::count_only()): the part declares
// what is new to it (the census: run/census_repeats.hpp); the reader, knowing nothing of what
// the records say, asks the rule record by record as it frames them.
class RepeatFilter {
public:
    virtual ~RepeatFilter() = default;
    // The records' tag (below CountedRecords::kTags).
    virtual std::uint16_t tag() const = 0;
    // The payload bytes it reads: where the log declares the tag shorter, every record is given.
    virtual std::size_t payload_bytes() const = 0;
    // Whether the record is only counted (else it is given): its block's capability (none for
    // the global block), its payload and its time.
    virtual bool counts(std::optional<CapNo> cap, const std::uint8_t* payload, std::uint64_t time) = 0;
};

}  // namespace el2fx::eventlog
