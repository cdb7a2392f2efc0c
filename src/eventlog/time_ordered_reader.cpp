#include "eventlog/time_ordered_reader.hpp"

#include <algorithm>
#include <cstring>

#include "eventlog/block_index.hpp"
#include "eventlog/byte_reader.hpp"
#include "eventlog/push_decoder.hpp"
#include "eventlog/timestamp_guard.hpp"
#include "util/error.hpp"

namespace el2fx::eventlog {
namespace {

constexpr std::size_t kInitialBuffer = 16 << 10;
constexpr std::size_t kMaxWindowBytes = 64u << 20;

}  // namespace

// Pass two: reads one range through a lookahead window of framed records.
class RangeCursor {
public:
    RangeCursor(const InputFile& input, const Header& header, const EventRange& range, Diagnostics& diagnostics)
        : input_(input),
          header_(header),
          range_(range),
          diagnostics_(diagnostics),
          scan_(range.begin),
          guard_(range.previous_time, TimestampGuard::kOutsideLimit),
          buffer_(kInitialBuffer),
          data_(buffer_.data()),
          base_(range.begin) {
        fill();
    }

    bool done() const { return first_ == window_.size(); }
    std::uint64_t head_time() const { return window_[head_].time; }
    std::uint64_t head_offset() const { return window_[head_].offset; }

    // Takes the head out of the window; its bytes stay in place until the next fill().
    void pop_into(RawRecord& out) {
        const Framed& f = window_[head_];
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
    }

    // Frames records until the window is full; call after emit() and before reading the head.
    void fill() {
        if (first_ == window_.size()) {
            window_.clear();
            first_ = 0;
        } else if (first_ >= kCompactAfter) {
            window_.erase(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(first_));
            first_ = 0;
        }
        while (window_.size() - first_ < range_.window && scan_ < range_.end) {
            // Nearly every record: a fixed size, wholly loaded already (record_size's first case).
            if (const std::size_t avail = static_cast<std::size_t>(loaded_end() - scan_); avail >= kEventHeader) {
                const std::uint8_t* p = at(scan_);
                const std::uint16_t tag = load_be16(p);
                const std::int32_t declared = header_.size_of(tag);
                const std::size_t size = kEventHeader + static_cast<std::size_t>(declared);
                if (declared >= 0 && tag != kEndOfData && size <= avail && scan_ != range_.begin) {
                    frame(load_be64(p + 2), size);
                    continue;
                }
            }
            std::size_t need = 2;
            for (;;) {
                std::size_t avail = static_cast<std::size_t>(loaded_end() - scan_);
                if (avail < need && !load(need)) {
                    need = 0;
                    break;
                }
                std::size_t size =
                    record_size(header_, at(scan_), static_cast<std::size_t>(loaded_end() - scan_), scan_);
                if (size == 0 || size <= need) {
                    need = size;
                    break;
                }
                need = size;
            }
            if (need == 0) {  // cannot happen for an indexed range; stop safely
                scan_ = range_.end;
                break;
            }
            if (scan_ == range_.begin) enter_block_of(at(scan_), need);
            frame(load_be64(at(scan_) + 2), need);
        }
        head_ = first_;
        for (std::size_t i = first_ + 1; i < window_.size(); ++i)
            if (window_[i].time < window_[head_].time) head_ = i;  // ties: the earlier offset (lower i)
    }

private:
    struct Framed {
        std::uint64_t time, offset;
        std::uint32_t size;
    };

    const std::uint8_t* at(std::uint64_t offset) const { return data_ + (offset - base_); }

    // The record at scan_, `size` bytes stamped `time`, joins the window.
    void frame(std::uint64_t time, std::size_t size) {
        bool corrected = false;  // counted by the decoder in the first pass
        time = guard_.check(time, corrected);
        window_.push_back(Framed{time, scan_, static_cast<std::uint32_t>(size)});
        scan_ += size;
    }

    // A block range starts with its marker: its declared end bounds the times (as in the decoder).
    // Rare (once per range), and its decoded event would make every fill() set up a large frame.
    [[gnu::noinline, gnu::cold]] void enter_block_of(const std::uint8_t* record, std::size_t size) {
        if (load_be16(record) != BlockMarker::tag) return;
        Event marker = decode_record(header_, record, size, scan_);
        if (const auto* block = marker.as<BlockMarker>()) guard_.enter_block(marker.time, block->end_time);
    }
    std::uint64_t loaded_end() const { return base_ + loaded_; }

    // Makes [scan_, scan_ + need) available; false if the range ends first.
    [[gnu::noinline]] bool load(std::size_t need) {
        if (scan_ + need > range_.end) return false;
        std::uint64_t keep = scan_;
        for (std::size_t i = first_; i < window_.size(); ++i) keep = std::min(keep, window_[i].offset);
        std::size_t kept = static_cast<std::size_t>(loaded_end() - keep);
        std::memmove(buffer_.data(), buffer_.data() + (keep - base_), kept);
        base_ = keep;
        loaded_ = kept;
        std::size_t wanted = static_cast<std::size_t>(scan_ - base_) + need;
        if (wanted > buffer_.size()) {
            if (wanted > kMaxWindowBytes) {
                // Pathologically disordered: give up exactness, not memory.
                diagnostics_.add(Diagnostic::reorder_window_exceeded);
                range_.window = static_cast<std::uint32_t>(std::max<std::size_t>(1, window_.size() - first_));
            }
            buffer_.resize(std::max(wanted, buffer_.size() * 2));
            data_ = buffer_.data();
        }
        std::size_t room = buffer_.size() - loaded_;
        std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(room, range_.end - loaded_end()));
        std::size_t got = input_.read_at(loaded_end(), buffer_.data() + loaded_, want);
        loaded_ += got;
        if (got < want) throw Error("the input changed while it was being read", {input_.name(), loaded_end(), {}});
        return loaded_end() - scan_ >= need;
    }

    const InputFile& input_;
    const Header& header_;
    EventRange range_;
    Diagnostics& diagnostics_;
    std::uint64_t scan_;
    TimestampGuard guard_;
    std::vector<std::uint8_t> buffer_;
    const std::uint8_t* data_;  // buffer_.data(), kept at hand
    std::uint64_t base_;        // file offset of buffer_[0]
    std::size_t loaded_ = 0;  // bytes of buffer_ holding file data
    static constexpr std::size_t kCompactAfter = 4096;  // records taken before the vector is compacted
    std::vector<Framed> window_;
    std::size_t first_ = 0;  // window_[first_..] is the window
    std::size_t head_ = 0;
};

TimeOrderedReader::TimeOrderedReader(InputFile& input, Diagnostics& diagnostics)
    : input_(input), diagnostics_(&diagnostics) {
    input_.spool_to_temporary_file();
    std::optional<RangeIndex> index = index_by_blocks(input_);
    if (!index) {
        input_.rewind();  // a second reader of the same input starts over
        index = index_by_decoding(input_, diagnostics);
    }
    header_ = std::move(index->header);
    stream_end_ = index->stream_end;
    ranges_ = std::move(index->ranges);
    std::stable_sort(ranges_.begin(), ranges_.end(), [](const EventRange& a, const EventRange& b) {
        return a.min_time < b.min_time || (a.min_time == b.min_time && a.begin < b.begin);
    });
}

TimeOrderedReader::~TimeOrderedReader() = default;

void TimeOrderedReader::restart(Diagnostics& diagnostics, std::optional<OrderKey> from) {
    diagnostics_ = &diagnostics;
    from_ = from;
    next_range_ = 0;
    cursors_.clear();
    free_slots_.clear();
    heap_.clear();
    last_cursor_.reset();
    last_time_ = 0;
}

namespace {
bool later(std::uint64_t t1, std::uint64_t o1, std::uint64_t t2, std::uint64_t o2) {
    return t1 > t2 || (t1 == t2 && o1 > o2);
}
}  // namespace

void TimeOrderedReader::push(std::size_t cursor) {
    RangeCursor& c = *cursors_[cursor];
    heap_.push_back(Active{c.head_time(), c.head_offset(), cursor});
    std::push_heap(heap_.begin(), heap_.end(),
                   [](const Active& a, const Active& b) { return later(a.time, a.offset, b.time, b.offset); });
}

void TimeOrderedReader::activate_due_ranges() {
    while (next_range_ < ranges_.size() && (heap_.empty() || ranges_[next_range_].min_time <= heap_.front().time)) {
        if (from_ && ranges_[next_range_].max_time < from_->time) {
            ++next_range_;  // wholly before the start: never read
            continue;
        }
        auto cursor = std::make_unique<RangeCursor>(input_, header_, ranges_[next_range_++], *diagnostics_);
        if (cursor->done()) continue;
        std::size_t slot;
        if (!free_slots_.empty()) {
            slot = free_slots_.back();
            free_slots_.pop_back();
            cursors_[slot] = std::move(cursor);
        } else {
            slot = cursors_.size();
            cursors_.push_back(std::move(cursor));
        }
        push(slot);
    }
}

// What a cursor taken from the heap must come before to be taken again at once: every other
// cursor's head and the first event of any range not yet started (all at or after its
// min_time, so (min_time, 0) is before each of them). Pushing the cursor and popping the heap
// would give it back. Changes only when the heap or the next range does.
void TimeOrderedReader::update_bound() {
    bound_ = {~std::uint64_t{0}, ~std::uint64_t{0}};
    if (!heap_.empty()) bound_ = {heap_.front().time, heap_.front().offset};
    if (next_range_ < ranges_.size() && ranges_[next_range_].min_time <= bound_.time)
        bound_ = {ranges_[next_range_].min_time, 0};
}

inline const RawRecord* TimeOrderedReader::emit_from(std::size_t c) {
    cursors_[c]->pop_into(record_);
    last_cursor_ = c;
    if (record_.time < last_time_) diagnostics_->add(Diagnostic::reorder_window_exceeded);
    last_time_ = std::max(last_time_, record_.time);
    return &record_;
}

const Event* TimeOrderedReader::next() {
    const RawRecord* r = next_record();
    if (!r) return nullptr;
    decode_record_into(header_, r->bytes, r->size, r->offset, event_);
    event_.time = r->time;
    event_.cap = r->cap;
    return &event_;
}

const RawRecord* TimeOrderedReader::next_record() {
    for (;;) {
        const RawRecord* r = next_merged();
        if (!r || !from_) return r;
        if (r->time > from_->time || (r->time == from_->time && r->offset >= from_->offset)) {
            from_.reset();  // every later record comes after it
            return r;
        }
    }
}

const RawRecord* TimeOrderedReader::next_merged() {
    try {
        if (last_cursor_) {
            std::size_t c = *last_cursor_;
            last_cursor_.reset();
            cursors_[c]->fill();
            if (cursors_[c]->done()) {
                cursors_[c].reset();
                free_slots_.push_back(c);
            } else if (const RangeCursor& next = *cursors_[c];
                       later(bound_.time, bound_.offset, next.head_time(), next.head_offset())) {
                return emit_from(c);  // the same block again: no heap work
            } else {
                push(c);
            }
        }
        activate_due_ranges();
        if (heap_.empty()) return nullptr;
        std::pop_heap(heap_.begin(), heap_.end(),
                      [](const Active& a, const Active& b) { return later(a.time, a.offset, b.time, b.offset); });
        std::size_t c = heap_.back().cursor;
        heap_.pop_back();
        update_bound();
        return emit_from(c);
    } catch (const Error& e) {
        if (!e.context().file.empty()) throw;
        throw e.with_file(input_.name());
    }
}

}  // namespace el2fx::eventlog
