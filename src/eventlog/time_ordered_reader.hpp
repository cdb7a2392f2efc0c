// Events in time order without loading the file: GHC writes each capability's
// events in blocks, in the order the buffers were flushed, so the file is in time
// order only within a block (and even there GC_STATS_GHC is written before GC_END
// but stamped later). First the blocks are indexed — byte range, earliest time,
// and how far out of order each one is (range_index.hpp: from the block markers when the
// log is well formed, else by decoding it) — then every pass merges the blocks
// k-way, each through a lookahead window just large enough to sort it exactly.
// The result is what `ghc-events show` prints: a stable sort by timestamp.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "eventlog/block_index.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/counted_records.hpp"
#include "eventlog/event.hpp"
#include "eventlog/header.hpp"
#include "eventlog/range_cursor.hpp"
#include "eventlog/range_index.hpp"
#include "eventlog/reorder_window.hpp"
#include "eventlog/skip_before.hpp"
#include "eventlog/stream.hpp"
#include "util/diagnostics.hpp"
#include "util/error.hpp"

namespace el2fx::eventlog {

// A record's place in time order: by time, then by offset in the file.
struct OrderKey {
    std::uint64_t time = 0, offset = 0;
    bool operator==(const OrderKey&) const = default;
};

// Aligned so that its state, written by the thread that reads it, shares no cache line with
// a neighbour written by another thread (EventPrefetcher).
class alignas(128) TimeOrderedReader {
public:
    // Indexes the whole input (pipes and FIFOs are first copied to an unlinked
    // temporary file). Throws el2fx::Error on a corrupt input.
    // `reading`: handed the blocks' records where the index reads them (block_index.hpp).
    TimeOrderedReader(InputFile& input, Diagnostics& diagnostics, const BlockReading* reading = nullptr);
    // A reader of part `part` of `parts` of `whole`'s ranges: every parts-th in time order, from
    // the part-th, without indexing again. Its passes give those ranges' records in time order;
    // merged by (time, offset), the parts' records are the whole's (SplitPrefetcher).
    TimeOrderedReader(const TimeOrderedReader& whole, std::size_t part, std::size_t parts);
    ~TimeOrderedReader();

    const Header& header() const { return header_; }
    const StreamEnd& stream_end() const { return stream_end_; }
    const std::vector<EventRange>& ranges() const { return ranges_; }
    // Whether its cursors read through the input's mapping (map_cursors_).
    bool cursors_mapped() const { return map_cursors_ && input_.mapping(); }

    // The next event by (time, offset), or nullptr at the end. Valid until the next call.
    const Event* next();
    // The same, not decoded (for a reader that decodes elsewhere). Valid until the next call.
    // Inline for the usual case: the range read last stays first (no heap work).
    const RawRecord* next_record() {
        if (last_cursor_ != kNoCursor) {
            RangeCursor& cursor = *cursors_[last_cursor_];
            if (!std::exchange(last_filled_, false)) fill_with_context(cursor);
            if (!from_ && !cursor.done() && before_bound(cursor)) return emit_from(last_cursor_);
        }
        return next_record_slowly();
    }

    // The records that follow from the block read last, given to `take(const RawRecord&)`
    // (the record valid during the call, its bytes until the next call) while `take` returns
    // true: as next_record() would give them, but without its checks between records of one
    // block. Only while nothing else can come between them: no other block's record, no
    // diagnostic, no record passed over. How many it gave; 0 where next_record() must give the
    // next one.
    template <class Take>
    std::size_t next_records_of_block(Take&& take) {
        if (last_cursor_ == kNoCursor || from_) return 0;
        RangeCursor& cursor = *cursors_[last_cursor_];
        const std::uint64_t counted = diagnostics_->total();
        std::size_t given = 0;
        for (;;) {
            fill_with_context(cursor);
            if (cursor.done() || !before_bound(cursor) || cursor.head_time() < last_time_ ||
                diagnostics_->total() != counted) {
                last_filled_ = true;  // next_record() goes on from here
                return given;
            }
            // Into a record of its own, which stays in registers: `take` reads it at once.
            RawRecord record;
            last_time_ = cursor.pop_into(record);
            ++given;
            if (!take(static_cast<const RawRecord&>(record))) return given;
        }
    }

    // Whether the index was built from well-formed blocks (block_index.hpp): every pass gives
    // the records in time order, with no problem to count.
    bool in_order() const { return in_order_; }
    // How many CREATE_THREAD records the log holds, where the index counted them (in order).
    std::optional<std::uint64_t> thread_creations() const { return thread_creations_; }
    // From now to the end of this pass (just after restart(), from the start, of a log in
    // order: else throws el2fx::Error), the records of `tags` (those below
    // CountedRecords::kTags) are not given but counted (counted()), but for those stamped with
    // their range's earliest time: the pass gives the other records as it would have, in the
    // same order, and the first record of the log, and of each capability, is given (a block's
    // earliest record need not be its marker: an old Eden log has one stamped a second before).
    //
    //
    // `repeats` count some records of other tags only where whoever takes the pass learns
    // nothing from them (RepeatFilter; they must outlive the pass).
    void count_only(const TagSet& tags, std::span<RepeatFilter* const> repeats = {});
    // What count_only() kept back so far, and the latest of their times.
    const CountedRecords& counted() const { return counted_; }

    // The latest time of the records given so far in this pass (the last one's included).
    std::uint64_t latest_time() const { return last_time_; }

    // Reads the events again from the first, keeping the index (no second indexing pass);
    // this pass's problems go to `diagnostics`. From `from` on, if given: what comes before
    // it is passed over (the blocks wholly before it are not read at all).
    void restart(Diagnostics& diagnostics, std::optional<OrderKey> from = std::nullopt);

private:
    struct Active {
        std::uint64_t time, offset;
        std::size_t cursor;
    };
    static constexpr std::size_t kNoCursor = ~std::size_t{0};

    const RawRecord* next_record_slowly();
    const RawRecord* next_merged(bool last_filled);
    void fill_with_context(RangeCursor& cursor) {
        try {
            cursor.fill();
        } catch (const Error& e) {
            throw_with_file(e);
        }
    }
    [[noreturn]] void throw_with_file(const Error& e) const;  // an error gets the input's name
    bool before_bound(const RangeCursor& c) const {
        return c.head_time() < bound_.time || (c.head_time() == bound_.time && c.head_offset() < bound_.offset);
    }
    const RawRecord* emit_from(std::size_t cursor) {
        const std::uint64_t time = cursors_[cursor]->pop_into(record_);
        last_cursor_ = cursor;
        if (time < last_time_) diagnostics_->add(Diagnostic::reorder_window_exceeded);
        last_time_ = std::max(last_time_, time);
        return &record_;
    }
    void activate_due_ranges();
    // Whether a range not yet started may hold a record due at `time` or before.
    bool range_due(std::uint64_t time) const {
        return next_range_ < ranges_.size() && ranges_[next_range_].min_time <= time;
    }
    void push(std::size_t cursor);
    void replace_first(std::size_t cursor);
    void update_bound();

    InputFile& input_;
    Diagnostics* diagnostics_;  // the current pass's
    Header header_;
    StreamEnd stream_end_;
    std::vector<EventRange> ranges_;  // in (min_time, begin) order
    std::size_t next_range_ = 0;
    std::vector<std::unique_ptr<RangeCursor>> cursors_;  // active ones; null slots reused
    std::vector<std::size_t> free_slots_;
    std::vector<Active> heap_;
    std::size_t last_cursor_ = kNoCursor;  // emitted from last; filled and re-queued on the next call
    bool last_filled_ = false;             // it was filled already (next_records_of_block stopped)
    std::uint64_t last_time_ = 0;
    OrderKey bound_;  // last_cursor_ is taken again while its head comes before it (update_bound)
    std::optional<OrderKey> from_;  // records before it are passed over
    RawRecord record_;
    Event event_;
    bool in_order_ = false;
    // Whether the cursors read through the input's mapping. Each maps its block's pages, and
    // the kernel maps whole large folios (up to a huge page) at each step: megabytes a cursor.
    // Where more ranges than this overlap in time (a log of many capabilities), the cursors
    // read into buffers of their own instead, so that peak RSS does not grow with them.
    bool map_cursors_ = true;
    static constexpr std::size_t kMostMappedCursors = 8;
    std::optional<std::uint64_t> thread_creations_;
    FramingTable framing_{Header{}};  // the header's, and what count_only() keeps back
    CountedRecords counted_;
};

}  // namespace el2fx::eventlog
