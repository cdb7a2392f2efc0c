#include "eventlog/time_ordered_reader.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <queue>
#include <utility>

#include "eventlog/block_index.hpp"
#include "eventlog/byte_reader.hpp"
#include "eventlog/push_decoder.hpp"
#include "eventlog/timestamp_guard.hpp"
#include "util/error.hpp"

namespace el2fx::eventlog {
namespace {

// The most ranges whose times overlap, of ranges in min_time order: about the most cursors a
// pass holds at once.
std::size_t most_ranges_at_once(const std::vector<EventRange>& ranges) {
    std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> ends;
    std::size_t most = 0;
    for (const EventRange& r : ranges) {
        while (!ends.empty() && ends.top() < r.min_time) ends.pop();
        ends.push(r.max_time);
        most = std::max(most, ends.size());
    }
    return most;
}

}  // namespace

TimeOrderedReader::TimeOrderedReader(InputFile& input, Diagnostics& diagnostics, const BlockReading* reading)
    : input_(input), diagnostics_(&diagnostics) {
    input_.spool_to_temporary_file();
    std::optional<RangeIndex> index = index_by_blocks(input_, diagnostics, reading);
    in_order_ = index.has_value();
    if (!index) {
        input_.rewind();  // a second reader of the same input starts over
        index = index_by_decoding(input_, diagnostics);
    }
    header_ = std::move(index->header);
    stream_end_ = index->stream_end;
    thread_creations_ = index->thread_creations;
    ranges_ = std::move(index->ranges);
    framing_ = FramingTable(header_);
    std::stable_sort(ranges_.begin(), ranges_.end(), [](const EventRange& a, const EventRange& b) {
        return a.min_time < b.min_time || (a.min_time == b.min_time && a.begin < b.begin);
    });
    map_cursors_ = most_ranges_at_once(ranges_) <= kMostMappedCursors;
}

TimeOrderedReader::TimeOrderedReader(const TimeOrderedReader& whole, std::size_t part, std::size_t parts)
    : input_(whole.input_),
      diagnostics_(whole.diagnostics_),
      header_(whole.header_),
      stream_end_(whole.stream_end_),
      in_order_(whole.in_order_),
      thread_creations_(whole.thread_creations_),
      framing_(whole.header_) {
    for (std::size_t i = part; i < whole.ranges_.size(); i += std::max<std::size_t>(parts, 1))
        ranges_.push_back(whole.ranges_[i]);
    map_cursors_ = most_ranges_at_once(ranges_) <= kMostMappedCursors;
}

TimeOrderedReader::~TimeOrderedReader() = default;

void TimeOrderedReader::restart(Diagnostics& diagnostics, std::optional<OrderKey> from) {
    diagnostics_ = &diagnostics;
    from_ = from;
    next_range_ = 0;
    cursors_.clear();
    free_slots_.clear();
    heap_.clear();
    last_cursor_ = kNoCursor;
    last_filled_ = false;
    last_time_ = 0;
    framing_ = FramingTable(header_);
    counted_ = CountedRecords{};
}

void TimeOrderedReader::count_only(const TagSet& tags, std::span<RepeatFilter* const> repeats) {
    if (!in_order_ || from_ || !cursors_.empty() || next_range_ != 0)
        throw Error("records can be counted only from the start of a pass over a log in order");
    framing_.count_only(tags, counted_, repeats);
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

// Puts `cursor` where the heap's first was and sifts it down to its place.
void TimeOrderedReader::replace_first(std::size_t cursor) {
    RangeCursor& c = *cursors_[cursor];
    const Active moving{c.head_time(), c.head_offset(), cursor};
    const std::size_t n = heap_.size();
    std::size_t at = 0;
    for (;;) {
        std::size_t child = 2 * at + 1;
        if (child >= n) break;
        if (child + 1 < n && later(heap_[child].time, heap_[child].offset, heap_[child + 1].time, heap_[child + 1].offset))
            ++child;
        if (!later(moving.time, moving.offset, heap_[child].time, heap_[child].offset)) break;
        heap_[at] = heap_[child];
        at = child;
    }
    heap_[at] = moving;
}

void TimeOrderedReader::activate_due_ranges() {
    while (next_range_ < ranges_.size() && (heap_.empty() || range_due(heap_.front().time))) {
        if (from_ && ranges_[next_range_].max_time < from_->time) {
            ++next_range_;  // wholly before the start: never read
            continue;
        }
        auto cursor = std::make_unique<RangeCursor>(input_, header_, framing_, ranges_[next_range_++], *diagnostics_, map_cursors_);
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
    if (range_due(bound_.time)) bound_ = {ranges_[next_range_].min_time, 0};
}

const Event* TimeOrderedReader::next() {
    const RawRecord* r = next_record();
    if (!r) return nullptr;
    decode_record_into(header_, r->bytes, r->size, r->offset, event_);
    event_.time = r->time;
    event_.cap = r->cap;
    return &event_;
}

void TimeOrderedReader::throw_with_file(const Error& e) const {
    // Bytes read as zeros from a file cut short while mapped may have failed to frame first.
    if (input_.cut_short_while_mapped()) throw input_.changed_while_read(e.context().offset);
    if (!e.context().file.empty()) throw e;
    throw e.with_file(input_.name());
}

// next_record() filled the last cursor already.
const RawRecord* TimeOrderedReader::next_record_slowly() {
    for (bool filled = true;; filled = false) {
        const RawRecord* r = next_merged(filled);
        if (!r || !from_) return r;
        if (r->time > from_->time || (r->time == from_->time && r->offset >= from_->offset)) {
            from_.reset();  // every later record comes after it
            return r;
        }
    }
}

const RawRecord* TimeOrderedReader::next_merged(bool last_filled) {
    try {
        if (last_cursor_ != kNoCursor) {
            const std::size_t c = std::exchange(last_cursor_, kNoCursor);
            if (!last_filled) cursors_[c]->fill();
            if (cursors_[c]->done()) {
                cursors_[c].reset();
                free_slots_.push_back(c);
            } else if (before_bound(*cursors_[c])) {
                return emit_from(c);  // the same block again: no heap work
            } else if (!heap_.empty() && !range_due(cursors_[c]->head_time())) {
                // The heap's first comes next and c takes its place: one sift instead of a
                // push and a pop (the usual switch between capabilities' blocks).
                const std::size_t first = heap_.front().cursor;
                replace_first(c);
                update_bound();
                return emit_from(first);
            } else {
                push(c);
            }
        }
        activate_due_ranges();
        if (heap_.empty()) {
            // The last bytes read from a mapping may have been past the end of a file cut short.
            if (input_.cut_short_while_mapped()) throw input_.changed_while_read();
            return nullptr;
        }
        std::pop_heap(heap_.begin(), heap_.end(),
                      [](const Active& a, const Active& b) { return later(a.time, a.offset, b.time, b.offset); });
        std::size_t c = heap_.back().cursor;
        heap_.pop_back();
        update_bound();
        return emit_from(c);
    } catch (const Error& e) {
        throw_with_file(e);
    }
}

}  // namespace el2fx::eventlog
