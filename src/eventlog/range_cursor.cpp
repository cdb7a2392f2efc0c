#include "eventlog/range_cursor.hpp"

#include <algorithm>
#include <cstring>

#include "eventlog/push_decoder.hpp"
#include "eventlog/file_mapping.hpp"
#include "util/error.hpp"

namespace el2fx::eventlog {
namespace {

// Each read is a system call, whose cost, not the copy's, bounded the merge's thread at a
// few kilobytes a read; a cursor's buffer stays below the size the allocator maps afresh
// (a page fault per page, for every block).
constexpr std::size_t kInitialBuffer = 64 << 10;
constexpr std::size_t kMaxWindowBytes = 64u << 20;

}  // namespace

RangeCursor::RangeCursor(const InputFile& input, const Header& header, const FramingTable& framing,
                         const EventRange& range, Diagnostics& diagnostics, bool mapped)
    : input_(input),
      header_(header),
      range_(range),
      framing_(framing),
      diagnostics_(diagnostics),
      scan_(range.begin),
      guard_(range.previous_time, TimestampGuard::kOutsideLimit),
      mapping_(mapped ? input.mapping() : nullptr),
      base_(range.begin) {
    if (mapping_ && range.end <= mapping_->size()) {
        data_ = mapping_->bytes() + range.begin;
        released_ = FileMapping::page_floor(range.begin);
    } else {
        mapping_ = nullptr;  // a file grown since it was mapped: its new ranges are read
        buffer_.resize(kInitialBuffer);
        data_ = buffer_.data();
    }
    fill_slowly();
}

RangeCursor::~RangeCursor() {
    if (mapping_ && loaded_end() > range_.begin)
        mapping_->release_around(range_.begin, static_cast<std::size_t>(loaded_end() - range_.begin));
}

// The offset of the earliest byte the window or the scan still needs.
std::uint64_t RangeCursor::earliest_kept() const {
    std::uint64_t keep = scan_;
    for (std::size_t i = first_; i < window_.size(); ++i) keep = std::min(keep, window_[i].offset);
    return keep;
}

void RangeCursor::fill_slowly() {
    if (first_ == window_.size()) {
        window_.clear();
        first_ = 0;
    } else if (first_ >= kCompactAfter) {
        window_.erase(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(first_));
        first_ = 0;
    }
    while (window_.size() - first_ < range_.window && scan_ < range_.end) {
        if (try_frame_fixed()) continue;
        std::size_t need = 2;
        for (;;) {
            std::size_t avail = static_cast<std::size_t>(loaded_end() - scan_);
            if (avail < need && !load(need)) {
                need = 0;
                break;
            }
            std::size_t size = record_size(header_, at(scan_), static_cast<std::size_t>(loaded_end() - scan_), scan_,
                                           static_cast<std::size_t>(range_.end - scan_));
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
        if (const std::uint16_t tag = load_be16(at(scan_)); kept_back(tag)) {
            keep_back(tag, load_be64(at(scan_) + 2), need);  // framed if not kept back
            continue;
        }
        frame(load_be64(at(scan_) + 2), need);
    }
    find_head();
}

// A block range starts with its marker: its declared end bounds the times (as in the decoder).
// Rare (once per range), and its decoded event would make every fill() set up a large frame.
[[gnu::noinline, gnu::cold]] void RangeCursor::enter_block_of(const std::uint8_t* record, std::size_t size) {
    if (load_be16(record) != BlockMarker::tag) return;
    Event marker = decode_record(header_, record, size, scan_);
    if (const auto* block = marker.as<BlockMarker>()) guard_.enter_block(marker.time, block->end_time);
}

// Makes [scan_, scan_ + need) available; false if the range ends first.
bool RangeCursor::load(std::size_t need) {
    if (scan_ + need > range_.end) return false;
    if (mapping_) return load_mapped(need);
    const std::uint64_t keep = earliest_kept();
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
    if (got < want) throw input_.changed_while_read(loaded_end());
    return loaded_end() - scan_ >= need;
}

// The same from the mapping: the next step is loaded and what is behind the window let go, in
// FileMapping's steps (with every capability's block at once, the pages mapped stay about a
// megabyte a cursor). A file cut short since shows here (or at the end of the pass:
// TimeOrderedReader).
bool RangeCursor::load_mapped(std::size_t need) {
    if (!mapping_->intact()) throw input_.changed_while_read(scan_);
    const std::uint64_t from = loaded_end();
    const std::uint64_t to =
        std::min<std::uint64_t>(range_.end, std::max<std::uint64_t>(scan_ + need, from) + FileMapping::kLoadStep);
    mapping_->load(from, static_cast<std::size_t>(to - from));
    input_.count_mapped(static_cast<std::size_t>(to - from));
    loaded_ = static_cast<std::size_t>(to - base_);
    const std::uint64_t done = FileMapping::page_floor(earliest_kept());
    if (done >= released_ + FileMapping::kReleaseAfter) {
        mapping_->release(released_, static_cast<std::size_t>(done - released_));
        released_ = done;
    }
    return loaded_end() - scan_ >= need;
}

}  // namespace el2fx::eventlog
