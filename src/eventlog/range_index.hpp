// The index the time-ordered reader merges by: where each block (or run of events outside
// any block) lies in the file, its earliest time, and how far out of order it is.
//
// Two ways to build it, with the same result for a well-formed log:
//   - index_by_blocks (block_index.hpp): from the block markers, the blocks checked on both
//     cores by framing alone; declines anything unusual;
//   - index_by_decoding (here): decodes every event in file order (PushDecoder), so damage is
//     skipped and every problem counted; what a declined log gets.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/byte_source.hpp"
#include "eventlog/event.hpp"
#include "eventlog/header.hpp"
#include "eventlog/stream.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

// A block, or a run of events written outside any block.
struct EventRange {
    std::uint64_t begin = 0;          // offset of its first record
    std::uint64_t end = 0;            // offset just past its last complete record
    std::optional<CapNo> cap;         // the block's capability
    std::uint64_t min_time = 0;       // earliest timestamp inside
    std::uint64_t max_time = 0;       // latest
    std::uint32_t window = 1;         // lookahead that sorts it exactly (1: already sorted)
    std::uint64_t previous_time = 0;  // the (corrected) time of the record before it in the file

    bool operator==(const EventRange&) const = default;
};

struct RangeIndex {
    Header header;
    StreamEnd stream_end;
    std::vector<EventRange> ranges;  // in file order
    std::optional<std::uint64_t> thread_creations;  // CREATE_THREAD records (index_by_blocks counts them)
};

// Decodes `input` from its current position (the start) to the end; its problems go to
// `diagnostics`. Throws el2fx::Error on a corrupt input.
RangeIndex index_by_decoding(InputFile& input, Diagnostics& diagnostics);

}  // namespace el2fx::eventlog
