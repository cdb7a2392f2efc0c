// A stretch of corrupt data the decoder skipped: where it was, what it may have held.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "eventlog/event_types.hpp"

namespace el2fx::eventlog {

// What made the decoder stop trusting the bytes at a record boundary.
enum class Corruption : std::uint8_t {
    record_past_block_end,    // a record's size (a length field) runs past its block's declared end
    undeclared_tag,           // a tag the header does not declare, inside a block
    end_marker_inside_block,  // the end-of-data tag before its block's declared end
    impossible_block_size,    // a block marker whose size cannot hold it
};

std::string_view corruption_text(Corruption kind);

struct LostData {
    std::uint64_t begin = 0;      // first byte skipped: the record that could not be right
    std::uint64_t end = 0;        // first byte used again: a block marker, or the input's end
    bool resynchronised = false;  // false: no later block marker, the rest of the input is lost
    Corruption kind = Corruption::undeclared_tag;
    std::uint16_t tag = 0;        // the tag found at `begin`
    std::optional<CapNo> cap;     // the damaged block's capability; none: global block or no block
    std::uint64_t from_time = 0;  // the lost events lie between the last good one's time...
    std::uint64_t to_time = 0;    // ...and the damaged block's end (or the next block's start)
};

// The decoder keeps this many LostData records; corrupt_data_skipped counts them all.
constexpr std::size_t kMaxLostDataRecords = 1000;

}  // namespace el2fx::eventlog
