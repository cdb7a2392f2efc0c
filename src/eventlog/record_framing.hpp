// Where each record ends, for every reader of the data (the streaming decoder, the block index,
// the time-ordered reader's cursors, block resynchronisation). A fixed-size type takes the size
// its header declares; a variable-size one the Word16 length after its timestamp, which a
// runtime can get wrong: GHC 9.10's declares each IPE event one byte longer than it writes.
// Where the known fields of a variable-size record end before its declared length, either the
// bytes after them are fields a newer GHC appends, or the length is too large. The records that
// would follow each framing tell which: the declared length wins unless only the fields' end is
// followed by a record that can be right (a declared tag or the end-of-data marker), or unless
// only the fields' end stays inside the record's block.
#pragma once

#include <cstddef>
#include <cstdint>

#include "eventlog/byte_reader.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/header.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

// No bound known on where the record must end (a stream outside any block).
inline constexpr std::size_t kUnbounded = ~std::size_t{0};

// Payload offset within a record of `tag` (after tag, time and any length field).
inline std::size_t payload_offset(const Header& header, std::uint16_t tag) {  // inline: once per event
    return kEventHeader + (header.size_of(tag) == Header::kVariable ? 2 : 0);
}

// Bytes the variable-size record at p takes, its length field readable (avail >= 12): more than
// `avail` while the bytes that decide are not there yet (call again with more). `bound`: bytes
// from p to the end of its block, or of the input; the record and what is read beyond it to
// decide its framing stay within it.
std::size_t variable_record_size(const Header& header, const std::uint8_t* p, std::size_t avail, std::size_t bound);

// How a variable-size record was framed, for the decoder's counts.
enum class VariableFraming : std::uint8_t {
    as_declared,        // its fields take its declared length
    with_unknown_tail,  // as declared, with bytes after the fields this tool knows
    by_its_fields,      // its declared length was too large: framed where its fields end
};
// `size`: the record's size as framed (variable_record_size).
VariableFraming variable_framing(const std::uint8_t* p, std::size_t size);
// Counts what is worth telling of a framing (trailing bytes, a size too large).
inline void count_framing(VariableFraming framing, Diagnostics& diagnostics) {
    if (framing == VariableFraming::with_unknown_tail) diagnostics.add(Diagnostic::payload_longer_than_known);
    if (framing == VariableFraming::by_its_fields) diagnostics.add(Diagnostic::declared_size_too_large);
}

// Bytes the record starting at p needs in all, as far as `avail` bytes tell (call again with
// more bytes until it stops growing); 0 means the end-of-data marker. Throws for a tag the
// header does not declare. Inline for the common case, a type of fixed size (every pass frames
// every record).
std::size_t record_size_beyond_fixed(const Header& header, const std::uint8_t* p, std::size_t avail,
                                     std::uint64_t offset, std::size_t bound);
inline std::size_t record_size(const Header& header, const std::uint8_t* p, std::size_t avail, std::uint64_t offset,
                               std::size_t bound = kUnbounded) {
    if (avail >= 2) {
        const auto tag = static_cast<std::uint16_t>((p[0] << 8) | p[1]);
        const std::int32_t declared = header.size_of(tag);
        if (declared >= 0 && tag != kEndOfData) return kEventHeader + static_cast<std::size_t>(declared);
    }
    return record_size_beyond_fixed(header, p, avail, offset, bound);
}

}  // namespace el2fx::eventlog
