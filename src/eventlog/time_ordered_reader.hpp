// Events in time order without loading the file: GHC writes each capability's
// events in blocks, in the order the buffers were flushed, so the file is in time
// order only within a block (and even there GC_STATS_GHC is written before GC_END
// but stamped later). First the blocks are indexed — byte range, earliest time,
// and how far out of order each one is (range_index.hpp: from the block markers when the
// log is well formed, else by decoding it) — then every pass merges the blocks
// k-way, each through a lookahead window just large enough to sort it exactly.
// The result is what `ghc-events show` prints: a stable sort by timestamp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "eventlog/byte_source.hpp"
#include "eventlog/event.hpp"
#include "eventlog/header.hpp"
#include "eventlog/range_index.hpp"
#include "eventlog/reorder_window.hpp"
#include "eventlog/stream.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

// A record's place in time order: by time, then by offset in the file.
struct OrderKey {
    std::uint64_t time = 0, offset = 0;
    bool operator==(const OrderKey&) const = default;
};

// A record in time order, framed but not decoded.
struct RawRecord {
    const std::uint8_t* bytes = nullptr;  // the whole record: tag, time, length, payload
    std::uint32_t size = 0;
    std::uint64_t offset = 0;  // in the input
    std::uint64_t time = 0;    // as TimestampGuard corrected it (the bytes keep the original)
    std::optional<CapNo> cap;  // its block's capability
};

class RangeCursor;

// Aligned so that its state, written by the thread that reads it, shares no cache line with
// a neighbour written by another thread (EventPrefetcher).
class alignas(128) TimeOrderedReader {
public:
    // Indexes the whole input (pipes and FIFOs are first copied to an unlinked
    // temporary file). Throws el2fx::Error on a corrupt input.
    TimeOrderedReader(InputFile& input, Diagnostics& diagnostics);
    ~TimeOrderedReader();

    const Header& header() const { return header_; }
    const StreamEnd& stream_end() const { return stream_end_; }
    const std::vector<EventRange>& ranges() const { return ranges_; }

    // The next event by (time, offset), or nullptr at the end. Valid until the next call.
    const Event* next();
    // The same, not decoded (for a reader that decodes elsewhere). Valid until the next call.
    const RawRecord* next_record();

    // Reads the events again from the first, keeping the index (no second indexing pass);
    // this pass's problems go to `diagnostics`. From `from` on, if given: what comes before
    // it is passed over (the blocks wholly before it are not read at all).
    void restart(Diagnostics& diagnostics, std::optional<OrderKey> from = std::nullopt);

private:
    struct Active {
        std::uint64_t time, offset;
        std::size_t cursor;
    };
    const RawRecord* next_merged();
    void activate_due_ranges();
    void push(std::size_t cursor);
    void update_bound();
    const RawRecord* emit_from(std::size_t cursor);

    InputFile& input_;
    Diagnostics* diagnostics_;  // the current pass's
    Header header_;
    StreamEnd stream_end_;
    std::vector<EventRange> ranges_;  // in (min_time, begin) order
    std::size_t next_range_ = 0;
    std::vector<std::unique_ptr<RangeCursor>> cursors_;  // active ones; null slots reused
    std::vector<std::size_t> free_slots_;
    std::vector<Active> heap_;
    std::optional<std::size_t> last_cursor_;  // emitted from last; re-queued on the next call
    std::uint64_t last_time_ = 0;
    OrderKey bound_;  // last_cursor_ is taken again while its head comes before it (update_bound)
    std::optional<OrderKey> from_;  // records before it are passed over
    RawRecord record_;
    Event event_;
};

}  // namespace el2fx::eventlog
