// The fast way to the reader's index (range_index.hpp): a well-formed GHC eventlog is a header,
// blocks one after another, each opened by a BLOCK_MARKER that says how long it is, and the
// end-of-data marker (after the last block; from GHC 9.6 on, inside it: the last block's size
// counts the marker). The markers are read by jumping from one to the next; then the blocks
// are checked on both cores, by framing their records (no payload is decoded but those whose
// length alone cannot show they are whole), for what decoding would have noticed: damage, a
// timestamp out of range, an event type unknown or too short, disorder beyond the reorder
// window. The blocks are read through the input's mapping where it has one (file_mapping.hpp),
// a step at a time, and let go of behind; else by reads. Anything unusual declines:
// index_by_decoding then reads the log, skips what is damaged and counts every problem, as
// before. An accepted log has nothing to count but what decoding also says of a well-formed
// one, how it framed variable-size records whose fields end before their declared length
// (record_framing.hpp: GHC 9.10 declares each info-table record one byte too long), counted
// alike; and its index equals the one decoding gives.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>

#include "eventlog/byte_source.hpp"
#include "eventlog/counted_records.hpp"
#include "eventlog/range_index.hpp"
#include "eventlog/skip_before.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

// A part that learns from each block by itself what it would otherwise learn from every event
// in time order (run/block_census.hpp): the checking threads hand it the blocks' records as
// they frame them, so that it needs no pass of its own. It is told nothing of a log the index
// declines (a second pass then has to read it).
// What a block held in all, for its reader.
struct BlockTotals {
    std::array<std::uint64_t, CountedRecords::kTags> by_tag{};  // its records by tag (the index declines others)
    std::uint64_t min_time = 0, max_time = 0;  // its records' earliest and latest time
    std::uint64_t bytes = 0;                    // its size in the file
};

// A record of a block, as the check framed it.
struct BlockRecord {
    std::uint64_t time = 0;
    std::uint64_t offset = 0;        // in the input
    const std::uint8_t* payload = nullptr;
    std::uint32_t payload_size = 0;
    std::uint16_t tag = 0;
};

class BlockReader {
public:
    virtual ~BlockReader() = default;
    // One block, on the thread that checks it: begin_block() (false: it wants nothing more of
    // this block or any other), its records of the tags it is given, in file order, a run at
    // a time (valid during the call), end_block(). It decodes what it reads of them
    // (payload_decoder.hpp's decode_as).
    virtual bool begin_block(std::size_t block, std::optional<CapNo> cap) = 0;
    virtual void records(std::span<const BlockRecord> records) = 0;
    virtual void end_block(const BlockTotals& totals) = 0;
};
struct BlockReading {
    // Before any block is read: each block's start, as its marker says, in file order.
    struct Start {
        std::uint64_t time = 0;
        std::optional<CapNo> cap;  // none: the global block
        std::uint64_t bytes = 0;   // its size in the file
    };
    std::function<void(std::span<const Start>)> found;
    TagSet given;  // the tags whose records records() is given (every record is counted)
    std::function<std::unique_ptr<BlockReader>()> reader;  // one for each checking thread
};

// The index of a seekable `input`, or nullopt if it is not shown to be well formed.
// Never throws for the input's content (declining instead); throws el2fx::Error if it cannot
// be read, or if it changed while read (a mapped file cut short meanwhile).
// `reading`: handed every block's records, if the log is accepted (and maybe some if not).
// `diagnostics`: given the framing counts, if the log is accepted.
std::optional<RangeIndex> index_by_blocks(const InputFile& input, Diagnostics& diagnostics,
                                          const BlockReading* reading = nullptr);

}  // namespace el2fx::eventlog
