// Timestamps that cannot be right, corrected where they are read.
//
// GHC stamps each block with the time its buffer was flushed (BLOCK_MARKER's end time), after
// every event in it: no real eventlog has an event later than its block's end. One flipped
// bit throws a timestamp minutes or centuries ahead, and everything that follows time (the
// sampling timer above all) would then work through a span no event backs. So an event stamped
// after its block's declared end by more than kSlackNs, or at or after 2^63 ns (292 years)
// anywhere, takes the time of the record before it (in its block, the block marker's at the
// earliest) and is counted as timestamp_out_of_range. A block end of 0 (never written) or
// before the block's own start is not trusted: such a block's events are held to 2^63 only.
//
// The decoder (pass one) and the time-ordered reader's cursors (pass two) run the same guard
// over the same records in the same order, so both passes see the same times.
#pragma once

#include <cstdint>

namespace el2fx::eventlog {

class TimestampGuard {
public:
    static constexpr std::uint64_t kImpossible = std::uint64_t{1} << 63;
    static constexpr std::uint64_t kSlackNs = 1'000'000;  // stamps racing a flush: never seen, allowed
    static constexpr std::uint64_t kOutsideLimit = kImpossible - 1;

    TimestampGuard() = default;
    // Resumes where a first pass stood before a record: `previous` is the corrected time of
    // the record before it, `limit` the latest time acceptable there.
    TimestampGuard(std::uint64_t previous, std::uint64_t limit) : previous_(previous), limit_(limit) {}

    // A block marker stamped `start` declares `end`: the limit for it and its events. Call
    // before check() of the marker itself.
    void enter_block(std::uint64_t start, std::uint64_t end) {
        limit_ = end != 0 && end >= start && end < kImpossible ? saturating_add(end, kSlackNs) : kOutsideLimit;
        if (limit_ >= kImpossible) limit_ = kOutsideLimit;
    }
    void leave_block() { limit_ = kOutsideLimit; }

    // The time to use for a record stamped `time`; `corrected` says whether it was changed.
    std::uint64_t check(std::uint64_t time, bool& corrected) {
        corrected = time > limit_;
        if (corrected) time = previous_ <= limit_ ? previous_ : limit_;
        previous_ = time;
        return time;
    }

    std::uint64_t previous() const { return previous_; }
    std::uint64_t limit() const { return limit_; }

private:
    static std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
        return a + b < a ? ~std::uint64_t{0} : a + b;
    }

    std::uint64_t previous_ = 0;
    std::uint64_t limit_ = kOutsideLimit;
};

}  // namespace el2fx::eventlog
