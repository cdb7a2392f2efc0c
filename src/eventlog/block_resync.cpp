#include "eventlog/block_resync.hpp"

#include <algorithm>

#include "eventlog/byte_reader.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/record_framing.hpp"
#include "eventlog/timestamp_guard.hpp"

namespace el2fx::eventlog {
namespace {

// GHC numbers capabilities from 0 and has never run near this many; 0xFFFF is the global block.
constexpr std::uint16_t kMaxPlausibleCap = 0x1000;
// GHC's buffers, and so its blocks, hold 2 MiB; a larger claim is read ahead no further.
constexpr std::uint32_t kMaxBlockBytes = 16u << 20;

// Bytes the record at p needs (a lower bound while avail is short); 0: not a record here.
// `bound`: bytes from p to the end of its block, as the decoder frames records (record_framing).
std::size_t framed_size(const Header& header, const std::uint8_t* p, std::size_t avail, std::size_t& need,
                        std::size_t bound = kUnbounded) {
    need = 2;
    if (avail < 2) return 0;
    const std::uint16_t tag = load_be16(p);
    const std::int32_t declared = header.size_of(tag);
    if (tag == kEndOfData || declared == Header::kUndeclared) return 0;
    if (declared >= 0) return need = kEventHeader + static_cast<std::size_t>(declared);
    need = kEventHeader + 2;
    if (avail < need) return need;
    return need = variable_record_size(header, p, avail, bound);
}

}  // namespace

BlockCandidate check_block_candidate(const Header& header, const std::uint8_t* p, std::size_t avail, bool at_end,
                                     std::uint64_t min_end, CandidateWalk* walk) {
    CandidateWalk own;
    if (!walk) walk = &own;
    const BlockCandidate short_of_bytes = at_end ? BlockCandidate::no : BlockCandidate::need_more;
    if (avail < 2) return short_of_bytes;
    if (load_be16(p) != BlockMarker::tag) return BlockCandidate::no;
    std::size_t need = 0;
    const std::size_t marker = framed_size(header, p, avail, need);
    if (marker == 0) return BlockCandidate::no;
    if (avail < marker) return short_of_bytes;
    const std::size_t at = header.size_of(BlockMarker::tag) == Header::kVariable ? kEventHeader + 2 : kEventHeader;
    if (marker - at < 14) return BlockCandidate::no;
    const std::uint64_t start = load_be64(p + 2);
    const std::uint32_t size = load_be32(p + at);
    const std::uint64_t end = load_be64(p + at + 4);
    const std::uint16_t cap = load_be16(p + at + 12);
    if (cap != kGlobalCap && cap >= kMaxPlausibleCap) return BlockCandidate::no;
    // GHC stamps the end when it writes the block out, so block ends never decrease in file
    // order; a candidate ending before the blocks already read is not one.
    if (size < marker || end == 0 || end < start || end >= TimestampGuard::kImpossible || end < min_end)
        return BlockCandidate::no;
    if (size > kMaxBlockBytes) return BlockCandidate::no;
    TimestampGuard guard;
    guard.enter_block(start, end);

    // Every record of the block must frame, with a declared tag (never another block marker),
    // inside it and exactly up to its end, stamped no later than its end. (Stray bytes 00 12
    // followed by real records pass the first records, not the block's end.)
    std::size_t pos = std::max(marker, walk->pos);
    auto cut_short = [&] {  // the input may end inside the block (a killed program): what is there must be right
        if (!at_end) {
            walk->pos = pos;
            return BlockCandidate::need_more;
        }
        return pos > marker ? BlockCandidate::yes : BlockCandidate::no;
    };
    while (pos < size) {
        if (avail <= pos) return cut_short();
        const std::size_t rest = avail - pos;
        const std::size_t record = framed_size(header, p + pos, rest, need, size - pos);
        if (rest < need) return cut_short();
        if (record == 0 || load_be16(p + pos) == BlockMarker::tag) return BlockCandidate::no;
        if (pos + record > size) return BlockCandidate::no;
        if (load_be64(p + pos + 2) > guard.limit()) return BlockCandidate::no;
        if (walk->budget < record) return BlockCandidate::no;
        walk->budget -= record;
        pos += record;
    }
    walk->pos = pos;
    // What follows the block must be what follows every real block: another block marker,
    // the end-of-data marker, or the end of the input.
    if (avail < std::size_t{size} + 2)
        return at_end ? (avail == size ? BlockCandidate::yes : BlockCandidate::no) : short_of_bytes;
    const std::uint16_t next = load_be16(p + size);
    if (next == kEndOfData) return BlockCandidate::yes;
    if (next != BlockMarker::tag) return BlockCandidate::no;
    if (avail < std::size_t{size} + kEventHeader + 14) return at_end ? BlockCandidate::yes : short_of_bytes;
    const std::uint16_t next_cap = load_be16(p + size + at + 12);
    return next_cap == kGlobalCap || next_cap < kMaxPlausibleCap ? BlockCandidate::yes : BlockCandidate::no;
}

}  // namespace el2fx::eventlog
