// The fast way to the reader's index (range_index.hpp): a well-formed GHC eventlog is a header,
// blocks one after another, each opened by a BLOCK_MARKER that says how long it is, and the
// end-of-data marker (after the last block; from GHC 9.6 on, inside it: the last block's size
// counts the marker). The markers are read by jumping from one to the next; then the blocks
// are checked on both cores, by framing their records (no payload is decoded but those whose
// length alone cannot show they are whole), for what decoding would have noticed: damage, a
// timestamp out of range, an event type unknown or too short, a variable-size record longer
// or shorter than its fields, disorder beyond the reorder window. Anything unusual declines: index_by_decoding then reads the log, skips what is
// damaged and counts every problem, as before. An accepted log has no problem to count, and
// its index equals the one decoding gives.
#pragma once

#include <optional>

#include "eventlog/byte_source.hpp"
#include "eventlog/range_index.hpp"

namespace el2fx::eventlog {

// The index of a seekable `input`, or nullopt if it is not shown to be well formed.
// Never throws for the input's content (declining instead); throws el2fx::Error if it cannot
// be read.
std::optional<RangeIndex> index_by_blocks(const InputFile& input);

}  // namespace el2fx::eventlog
