// One range of the eventlog (a block, as the index found it) read in time order: a
// lookahead window of framed records, just as large as the range's disorder needs (the index
// measured it), gives its records sorted. TimeOrderedReader merges the cursors of the ranges.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "eventlog/byte_reader.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/counted_records.hpp"
#include "eventlog/event.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/file_mapping.hpp"
#include "eventlog/header.hpp"
#include "eventlog/range_index.hpp"
#include "eventlog/skip_before.hpp"
#include "eventlog/timestamp_guard.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

// A record in time order, framed but not decoded.
struct RawRecord {
    const std::uint8_t* bytes = nullptr;  // the whole record: tag, time, length, payload
    std::uint32_t size = 0;
    std::uint64_t offset = 0;  // in the input
    std::uint64_t time = 0;    // as TimestampGuard corrected it (the bytes keep the original)
    std::optional<CapNo> cap;  // its block's capability
};

// How a pass frames the records of each tag below CountedRecords::kTags (every tag GHC writes):
// the header's payload size (Header::kVariable, Header::kUndeclared or the fixed size), and
// whether the pass counts them only (TimeOrderedReader::count_only()): then they are kept out of
// the window (never merged, never given) and counted, but for the range's earliest. One table
// lookup per record tells both on the usual path.
struct FramingTable {
    static constexpr std::int32_t kKept = 1 << 30;  // in `sizes`, on a fixed size kept back

    explicit FramingTable(const Header& header) {
        for (std::size_t tag = 0; tag < CountedRecords::kTags; ++tag)
            sizes[tag] = header.size_of(static_cast<std::uint16_t>(tag));
    }
    // From now on, the records of the tags in `tags` below kTags are counted into `into`; those
    // of a filter's tag too, where the filter counts them (and the log's records hold what it
    // reads).
    void count_only(const TagSet& tags, CountedRecords& into, std::span<RepeatFilter* const> repeats = {}) {
        for (std::size_t tag = 0; tag < CountedRecords::kTags; ++tag) {
            kept[tag] = tags.test(tag);
            if (kept[tag] && sizes[tag] >= 0) sizes[tag] |= kKept;
        }
        counted = &into;
        for (RepeatFilter* filter : repeats) {
            const std::uint16_t tag = filter->tag();
            if (tag >= CountedRecords::kTags || kept[tag] ||
                sizes[tag] < static_cast<std::int32_t>(filter->payload_bytes()))
                continue;
            kept[tag] = 1;
            sizes[tag] |= kKept;
            filters[tag] = filter;
        }
    }

    std::array<std::int32_t, CountedRecords::kTags> sizes{};  // as Header::size_of(), with kKept
    std::array<std::uint8_t, CountedRecords::kTags> kept{};   // whatever the size
    CountedRecords* counted = nullptr;                        // none kept: null
    std::array<RepeatFilter*, CountedRecords::kTags> filters{};  // kept back only where they count
};

class RangeCursor {
public:
    // `framing` and the header must outlive the cursor. It reads through the input's mapping
    // where there is one and `mapped`, else into a buffer of its own.
    RangeCursor(const InputFile& input, const Header& header, const FramingTable& framing, const EventRange& range,
                Diagnostics& diagnostics, bool mapped);
    ~RangeCursor();
    RangeCursor(const RangeCursor&) = delete;
    RangeCursor& operator=(const RangeCursor&) = delete;

    bool done() const { return first_ == window_.size(); }
    std::uint64_t head_time() const { return window_[head_].time; }
    std::uint64_t head_offset() const { return window_[head_].offset; }

    // Takes the head out of the window; its bytes stay in place until the next fill(). Gives
    // its time: read back from `out`, it could wait for the stores just made to it (a compiler
    // may join two fields' stores into one wider store, which a narrower load cannot take its
    // value from on every processor).
    std::uint64_t pop_into(RawRecord& out) {
        const Framed& f = window_[head_];
        const std::uint64_t time = f.time;
        out.bytes = at(f.offset);  // field by field: a whole-struct copy stalls on store forwarding
        out.size = f.size;
        out.offset = f.offset;
        out.time = f.time;
        out.cap = range_.cap;
        // The window is window_[first_..]. The head is nearly always its first record: taking
        // it moves nothing (a call to memmove per record, before); else the ones before it
        // move up one place, keeping their order.
        for (std::size_t i = head_; i > first_; --i) window_[i] = window_[i - 1];
        ++first_;
        return time;
    }

    // Frames records until the window is full; call after pop_into() and before reading the
    // head. Inline for the usual case (one record taken, one fixed-size record loaded already
    // to take its place, also where that empties the window: a range already in time order);
    // fill_slowly() does the rest.
    void fill() {
        if (first_ < kCompactAfter && window_.size() - first_ + 1 == range_.window) {
            if (first_ == window_.size()) {  // the window was one record: it stays in the same place
                window_.clear();
                first_ = 0;
            }
            if (try_frame_fixed()) {
                find_head();
                return;
            }
        }
        fill_slowly();
    }

private:
    struct Framed {
        std::uint64_t time, offset;
        std::uint32_t size;
    };

    void fill_slowly();
    const std::uint8_t* at(std::uint64_t offset) const { return data_ + (offset - base_); }
    std::uint64_t loaded_end() const { return base_ + loaded_; }

    // Nearly every record: a fixed size, wholly loaded already (record_size's first case), not
    // the range's first (a block marker, which sets the time guard).
    bool try_frame_fixed() {
        const std::size_t avail = static_cast<std::size_t>(loaded_end() - scan_);
        if (avail < kEventHeader || scan_ == range_.begin) return false;
        const std::uint8_t* p = at(scan_);
        __builtin_prefetch(p + FileMapping::kPrefetchAhead);  // as the index's checks
        const std::uint16_t tag = load_be16(p);  // kEndOfData is no fast tag
        if (tag >= CountedRecords::kTags) return false;
        const std::int32_t entry = framing_.sizes[tag];
        const std::size_t size = kEventHeader + static_cast<std::size_t>(entry);
        // A record kept back has FramingTable::kKept in its entry: never loaded that far.
        if (entry < 0 || size > avail) [[unlikely]]
            return entry >= FramingTable::kKept && frame_past_kept();
        frame(load_be64(p + 2), size);
        return true;
    }
    // From a record kept back at scan_: counts the ones kept back, then frames the next as
    // try_frame_fixed() would (false where it would not).
    bool frame_past_kept() {
        for (;;) {
            const std::size_t avail = static_cast<std::size_t>(loaded_end() - scan_);
            if (avail < kEventHeader) return false;
            const std::uint8_t* p = at(scan_);
            const std::uint16_t tag = load_be16(p);
            if (tag >= CountedRecords::kTags) return false;
            const std::int32_t entry = framing_.sizes[tag];
            if (entry < 0) return false;
            const bool kept = (entry & FramingTable::kKept) != 0;
            const std::size_t size = kEventHeader + static_cast<std::size_t>(entry & ~FramingTable::kKept);
            if (size > avail) return false;
            if (!kept) {
                frame(load_be64(p + 2), size);
                return true;
            }
            if (!keep_back(tag, load_be64(p + 2), size)) return true;  // the range's earliest: framed
        }
    }
    bool kept_back(std::uint16_t tag) const { return tag < CountedRecords::kTags && framing_.kept[tag]; }
    // The record at scan_, of a tag kept back, `size` bytes stamped `time`, is counted, unless
    // it is stamped with the range's earliest time: then it is framed (false). So the earliest
    // records of the log and of each capability are given (in time order: they come first).
    bool keep_back(std::uint16_t tag, std::uint64_t time, std::size_t size) {
        bool corrected = false;
        time = guard_.check(time, corrected);  // the guard follows every record
        if (time <= range_.min_time || !counted_where_known(tag, time)) {
            frame_checked(time, size);
            return false;
        }
        CountedRecords& counted = *framing_.counted;
        ++counted.by_tag[tag];
        if (time > counted.latest_time) counted.latest_time = time;
        scan_ += size;
        return true;
    }

    // Whether the record at scan_, of a tag kept back, stamped `time`, is counted: always, but
    // where a filter says (RepeatFilter).
    bool counted_where_known(std::uint16_t tag, std::uint64_t time) {
        RepeatFilter* const filter = framing_.filters[tag];
        return !filter || filter->counts(range_.cap, at(scan_) + kEventHeader, time);
    }

    // The record at scan_, `size` bytes stamped `time`, joins the window.
    void frame(std::uint64_t time, std::size_t size) {
        bool corrected = false;  // counted by the decoder in the first pass
        frame_checked(guard_.check(time, corrected), size);
    }
    // The same, its time checked by the guard already.
    void frame_checked(std::uint64_t time, std::size_t size) {
        if (first_ < window_.size() && time < window_.back().time) sorted_ = false;
        window_.push_back(Framed{time, scan_, static_cast<std::uint32_t>(size)});
        scan_ += size;
    }

    // The earliest record of the window (ties: the earlier offset, the lower index). A window
    // in time order, as nearly always, has it first; else the scan also sees whether taking
    // records put the window back in order.
    void find_head() {
        head_ = first_;
        if (sorted_) return;
        bool sorted = true;
        for (std::size_t i = first_ + 1; i < window_.size(); ++i) {
            if (window_[i].time < window_[head_].time) head_ = i;
            if (window_[i].time < window_[i - 1].time) sorted = false;
        }
        sorted_ = sorted;
    }

    void enter_block_of(const std::uint8_t* record, std::size_t size);
    bool load(std::size_t need);
    bool load_mapped(std::size_t need);
    std::uint64_t earliest_kept() const;

    const InputFile& input_;
    const Header& header_;
    EventRange range_;
    const FramingTable& framing_;
    Diagnostics& diagnostics_;
    std::uint64_t scan_;
    TimestampGuard guard_;
    // The bytes come from the input's mapping where it has one (then data_ is the range's
    // first byte there, and [base_, base_ + loaded_) has been loaded), else are read into
    // buffer_ (then data_ is buffer_.data()).
    const FileMapping* mapping_;
    std::uint64_t released_ = 0;  // the mapping's pages before it have been let go
    std::vector<std::uint8_t> buffer_;
    const std::uint8_t* data_;                          // the byte at base_, kept at hand
    std::uint64_t base_;                                // file offset of data_[0]
    std::size_t loaded_ = 0;                            // bytes at data_ holding file data
    static constexpr std::size_t kCompactAfter = 4096;  // records taken before the vector is compacted
    std::vector<Framed> window_;
    std::size_t first_ = 0;  // window_[first_..] is the window
    std::size_t head_ = 0;
    bool sorted_ = true;  // window_[first_..] is in time order
};

}  // namespace el2fx::eventlog
