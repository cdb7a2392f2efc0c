// Finding the way back into an eventlog after corrupt bytes: the next capability block.
//
// GHC writes events in blocks that each begin with a BLOCK_MARKER (tag 18) declaring the
// block's size, end time and capability; blocks follow each other, so after damage the next
// intact block marker is where decoding can resume. Bytes 0x00 0x12 occur anywhere (a stop
// status, a timestamp's bytes), often followed by real records, so a candidate is accepted
// only when everything about it agrees: a plausible capability; an end time written (not 0),
// not before its start, below 2^63 and not before the end of the blocks already read
// (`min_end`: GHC stamps a block's end when it writes it out, so ends never decrease in file
// order); every record inside framed with a declared tag (no block marker), stamped no later
// than the end, tiling the block exactly; and right after it what follows every real block:
// another block marker, the end-of-data marker or the end of the input. So the search reads
// ahead up to one block (GHC's are 2 MiB; a claim over 16 MiB is refused).
#pragma once

#include <cstddef>
#include <cstdint>

#include "eventlog/header.hpp"

namespace el2fx::eventlog {

enum class BlockCandidate { no, yes, need_more };

// Whether a block begins at p (`avail` bytes from there are known). need_more: the answer
// needs bytes beyond avail; with `at_end` (no more bytes will come) it is never given, and a
// block the input cuts short (a killed program's last) is accepted if what is there agrees.
// Where the walk through one candidate's records stands, so that bytes arriving in small
// pieces do not make it start over (need_more keeps `pos`), and how many more record bytes
// the search may walk: a bound on the work adversarial input can cause (see PushDecoder).
struct CandidateWalk {
    std::size_t pos = 0;  // 0: not started; else the offset of the next record to check
    std::uint64_t budget = ~std::uint64_t{0};
};

BlockCandidate check_block_candidate(const Header& header, const std::uint8_t* p, std::size_t avail, bool at_end,
                                     std::uint64_t min_end = 0, CandidateWalk* walk = nullptr);

}  // namespace el2fx::eventlog
