#include "eventlog/push_decoder.hpp"

#include <algorithm>
#include <cstring>

#include "eventlog/block_resync.hpp"
#include "eventlog/byte_reader.hpp"
#include "eventlog/payload_decoder.hpp"
#include "util/error.hpp"

namespace el2fx::eventlog {
namespace {

constexpr std::size_t kMaxHeaderBytes = 16u << 20;
constexpr std::uint32_t kMaxDescription = 1u << 20;
constexpr std::uint64_t kEndSlackNs = 1'000'000'000;
constexpr std::uint64_t kWalkBudget = 64u << 20;
constexpr std::uint64_t kWalkPerByte = 16;

std::uint32_t magic(const char (&s)[5]) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(s[0])) << 24 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(s[1])) << 16 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(s[2])) << 8 |
           static_cast<std::uint32_t>(static_cast<unsigned char>(s[3]));
}

[[noreturn]] void fail(const std::string& what, std::uint64_t offset, std::uint16_t tag = kEndOfData) {
    Error::Context c;
    c.offset = offset;
    if (tag != kEndOfData) {
        std::string_view name = tag_name(tag);
        c.event = name.empty() ? "tag " + std::to_string(tag) : std::string(name);
    }
    throw Error(what, std::move(c));
}

}  // namespace

namespace {

struct HeaderWalk {
    bool complete = false;
    std::size_t pos = 0;   // complete: the header's length; else where the walk stopped
    std::size_t need = 0;  // incomplete: the walk cannot go on before pos + need bytes
};

// Walks the header from `resume` (0, or an earlier walk's stop position), validating
// as it goes; calls `on_type` for each complete event type. Resuming keeps a header
// that arrives in small pieces linear to parse.
template <typename OnType>
HeaderWalk walk_header(const std::uint8_t* bytes, std::size_t size, std::size_t resume, OnType&& on_type) {
    std::size_t pos = resume;
    auto stop = [&](std::size_t at, std::size_t need) { return HeaderWalk{false, at, need}; };
    auto check = [&](const char(&m)[5], const char* where) {
        if (load_be32(bytes + pos) != magic(m))
            fail(std::string("not a GHC eventlog: expected \"") + std::string(m, 4) + "\" " + where, pos);
        pos += 4;
    };
    if (pos == 0) {
        if (size < 8) return stop(0, 8);
        check("hdrb", "at the start of the file");
        check("hetb", "after the header begin");
    }
    for (;;) {
        std::size_t start = pos;
        if (size - pos < 4) return stop(start, 4);
        std::uint32_t m = load_be32(bytes + pos);
        if (m == magic("hete")) {
            if (size - pos < 12) return stop(start, 12);
            pos += 4;
            check("hdre", "after the event types");
            check("datb", "before the events");
            return HeaderWalk{true, pos, 0};
        }
        if (m != magic("etb\0")) fail("malformed header: expected an event type (\"etb\") or \"hete\"", pos);
        if (size - pos < 12) return stop(start, 12);
        std::uint16_t tag = load_be16(bytes + pos + 4);
        std::uint16_t raw_size = load_be16(bytes + pos + 6);
        std::uint32_t desc_len = load_be32(bytes + pos + 8);
        if (desc_len > kMaxDescription) fail("malformed header: impossible description length", pos + 8);
        if (size - pos < 12 + std::size_t{desc_len} + 4) return stop(start, 12 + std::size_t{desc_len} + 4);
        std::uint32_t extra_len = load_be32(bytes + pos + 12 + desc_len);
        if (extra_len > kMaxDescription) fail("malformed header: impossible extra-info length", pos + 12 + desc_len);
        std::size_t entry = 12 + std::size_t{desc_len} + 4 + extra_len + 4;
        if (size - pos < entry) return stop(start, entry);
        if (load_be32(bytes + pos + entry - 4) != magic("ete\0"))
            fail("malformed header: event type not closed by \"ete\"", pos + entry - 4);
        if (tag == kEndOfData) fail("malformed header: event type 65535 is reserved for end of data", start);
        if (tag == BlockMarker::tag && raw_size != 0xFFFF && raw_size < 14)
            fail("malformed header: impossible size " + std::to_string(raw_size) + " for the block marker", start);
        on_type(tag, raw_size, std::string_view(reinterpret_cast<const char*>(bytes + pos + 12), desc_len), start);
        pos += entry;
    }
}

void ignore_type(std::uint16_t, std::uint16_t, std::string_view, std::size_t) {}

}  // namespace

std::optional<std::size_t> parse_header(const std::uint8_t* bytes, std::size_t size, Header& out) {
    if (!walk_header(bytes, size, 0, ignore_type).complete) return std::nullopt;
    Header header;
    HeaderWalk walk = walk_header(
        bytes, size, 0, [&](std::uint16_t tag, std::uint16_t raw_size, std::string_view desc, std::size_t at) {
            // GHC declares each type once; a second declaration (perhaps with another size) means
            // the header is damaged, and every event of that type would be framed wrongly.
            if (header.declares(tag))
                fail("corrupt header: event type " + std::to_string(tag) + " is declared twice", at, tag);
            EventTypeDecl decl;
            decl.tag = tag;
            if (raw_size != 0xFFFF) decl.size = raw_size;
            decl.description = std::string(desc);
            header.declare(std::move(decl));
        });
    out = std::move(header);
    return walk.pos;
}

PushDecoder::PushDecoder(EventSink& sink, Diagnostics& diagnostics) : sink_(sink), diagnostics_(diagnostics) {}

void PushDecoder::feed(const std::uint8_t* data, std::size_t size) {
    if (state_ == State::header) {
        const std::size_t used = feed_header(data, size);
        data += used;
        size -= used;
    }
    for (;;) {
        switch (state_) {
            case State::header: return;
            case State::done:
                offset_ += size;  // bytes after the end-of-data marker are ignored
                return;
            case State::data:
                feed_data(data, size);
                if (state_ != State::resync) return;
                size = 0;  // the rest went into the search
                break;
            case State::resync:
                if (size > 0) {
                    pending_.append(reinterpret_cast<const char*>(data), size);
                    offset_ += size;
                    walk_.budget += kWalkPerByte * size;
                    size = 0;
                }
                if (!resync(false)) return;
                data = reinterpret_cast<const std::uint8_t*>(replay_.data());
                size = replay_.size();
                break;
        }
    }
}

std::size_t PushDecoder::feed_header(const std::uint8_t* data, std::size_t size) {
    std::size_t old = pending_.size();
    pending_.append(reinterpret_cast<const char*>(data), size);
    offset_ += size;
    if (pending_.size() < header_resume_ + header_need_) return size;  // the next piece is not complete yet
    auto* bytes = reinterpret_cast<const std::uint8_t*>(pending_.data());
    HeaderWalk walk = walk_header(bytes, pending_.size(), header_resume_, ignore_type);
    if (!walk.complete) {
        if (pending_.size() > kMaxHeaderBytes) fail("malformed header: larger than 16 MiB", 0);
        header_resume_ = walk.pos;
        header_need_ = walk.need;
        return size;
    }
    std::size_t taken = *parse_header(bytes, walk.pos, header_);
    std::size_t used_now = taken - old;  // header bytes that came from this chunk
    offset_ = taken;
    data_start_ = taken;
    pending_.clear();
    pending_.shrink_to_fit();
    state_ = State::data;
    sink_.on_header(header_);
    return used_now;
}

Event decode_record(const Header& header, const std::uint8_t* p, std::size_t size, std::uint64_t offset) {
    Event event;
    decode_record_into(header, p, size, offset, event);
    return event;
}

std::size_t PushDecoder::need_at(const std::uint8_t* p, std::size_t avail, std::uint64_t offset,
                                 std::size_t input_bound) {
    if (avail < 2) return 2;
    if (in_block_ && offset >= block_end_) {  // past the block: events belong to no capability
        in_block_ = false;
        cap_.reset();
        guard_.leave_block();
    }
    const std::uint16_t tag = load_be16(p);
    if (tag == kEndOfData) {
        // The end marker may close the last block exactly, never sit inside one.
        if (in_block_ && offset + 2 < block_end_) {
            corruption_ = Corruption::end_marker_inside_block;
            return kCorrupt;
        }
        return 0;
    }
    if (!header_.declares(tag)) {
        // Outside any block there is no way back in: the file is not what it claims to be.
        if (!in_block_) fail("event type " + std::to_string(tag) + " is not declared in the header", offset, tag);
        corruption_ = Corruption::undeclared_tag;
        return kCorrupt;
    }
    // A record ends inside its block; a variable-size one is framed with what follows it there.
    const std::size_t bound = in_block_ ? static_cast<std::size_t>(block_end_ - offset) : input_bound;
    const std::size_t need = record_size(header_, p, avail, offset, bound);
    // A length that runs past the block's declared end is damage, not the end of the data:
    // a killed program leaves a short file, not a wrong length in the middle of one.
    if (in_block_ && offset + need > block_end_) {
        corruption_ = Corruption::record_past_block_end;
        return kCorrupt;
    }
    return need;
}

void PushDecoder::feed_data(const std::uint8_t* data, std::size_t size) {
    // First finish a record that an earlier chunk left incomplete.
    while (!pending_.empty() && state_ == State::data) {
        auto* p = reinterpret_cast<const std::uint8_t*>(pending_.data());
        const std::uint64_t record_offset = offset_ - pending_.size();
        const std::size_t need = need_at(p, pending_.size(), record_offset);
        if (need == kCorrupt) return start_resync(record_offset, load_be16(p), data, size);
        if (need == 0) {
            end_of_data();
            offset_ += size;
            return;
        }
        if (pending_.size() < need) {
            if (size == 0) return;
            const std::size_t take = std::min(need - pending_.size(), size);
            pending_.append(reinterpret_cast<const char*>(data), take);
            data += take;
            size -= take;
            offset_ += take;
            continue;  // the size may now be known to be larger
        }
        if (!process_record(p, need, record_offset)) return start_resync(record_offset, load_be16(p), data, size);
        pending_.erase(0, need);  // bytes read past it to frame it stay for the next record
    }
    // Then every complete record straight from the caller's bytes.
    while (size > 0 && state_ == State::data) {
        const std::size_t need = need_at(data, size, offset_);
        if (need == kCorrupt) return start_resync(offset_, load_be16(data), data, size);
        if (need == 0) {
            end_of_data();
            offset_ += size;
            return;
        }
        if (need > size) {
            pending_.assign(reinterpret_cast<const char*>(data), size);
            offset_ += size;
            return;
        }
        if (!process_record(data, need, offset_)) return start_resync(offset_, load_be16(data), data, size);
        data += need;
        size -= need;
        offset_ += need;
    }
    if (state_ == State::done) offset_ += size;
}

bool PushDecoder::process_record(const std::uint8_t* p, std::size_t size, std::uint64_t offset) {
    decode_record_into(header_, p, size, offset, event_);

    if (auto* unknown = std::get_if<UnknownEvent>(&event_.payload)) {
        diagnostics_.add(unknown->too_short ? Diagnostic::payload_too_short : Diagnostic::unknown_event_type);
    } else if (header_.size_of(event_.tag) == Header::kVariable) {
        count_framing(variable_framing(p, size), diagnostics_);
    } else if (auto* block = std::get_if<BlockMarker>(&event_.payload)) {
        if (block->size < size) {
            corruption_ = Corruption::impossible_block_size;
            return false;
        }
        in_block_ = true;
        cap_ = block->cap == kGlobalCap ? std::nullopt : std::optional<CapNo>(block->cap);
        block_end_ = offset + block->size;
        guard_.enter_block(event_.time, block->end_time);
        block_end_time_ = guard_.limit() == TimestampGuard::kOutsideLimit ? 0 : block->end_time;
        max_block_end_ = std::max(max_block_end_, block_end_time_);
    }
    bool corrected = false;
    event_.time = guard_.check(event_.time, corrected);
    if (corrected) {
        diagnostics_.add(Diagnostic::timestamp_out_of_range);
        if (!first_bad_time_at_) first_bad_time_at_ = offset;
    }
    if (!in_block_) diagnostics_.add(Diagnostic::events_outside_block);
    event_.cap = cap_;
    sink_.on_event(event_);
    return true;
}

void PushDecoder::end_of_data() { state_ = State::done; }

void PushDecoder::start_resync(std::uint64_t offset, std::uint16_t tag, const std::uint8_t* data, std::size_t size) {
    damage_ = LostData{};
    damage_.begin = offset;
    damage_.kind = corruption_;
    damage_.tag = tag;
    damage_.cap = in_block_ ? cap_ : std::nullopt;
    damage_.from_time = guard_.previous();
    damage_.to_time = in_block_ && block_end_time_ >= damage_.from_time ? block_end_time_ : 0;
    in_block_ = false;
    cap_.reset();
    guard_.leave_block();
    // The bad record's first byte cannot start a block; the search begins after it.
    if (pending_.empty()) {
        pending_.assign(reinterpret_cast<const char*>(data) + 1, size - 1);
    } else {
        pending_.erase(0, 1);
        pending_.append(reinterpret_cast<const char*>(data), size);
    }
    offset_ += size;
    pending_base_ = offset + 1;
    scan_ = 0;
    // Candidates' records are walked at most kWalkPerByte times per byte searched, plus a few
    // blocks' worth: linear work however the input is crafted (real damage needs a fraction).
    walk_ = CandidateWalk{0, kWalkBudget + kWalkPerByte * pending_.size()};
    state_ = State::resync;
}

bool PushDecoder::resync(bool at_end) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(pending_.data());
    const std::size_t n = pending_.size();
    for (; scan_ < n; ++scan_) {
        if (p[scan_] != 0 || (scan_ + 1 < n && p[scan_ + 1] != BlockMarker::tag)) continue;  // cheap first
        // Block ends never decrease in file order; 1 s allows for capabilities flushing at once.
        const std::uint64_t min_end = max_block_end_ > kEndSlackNs ? max_block_end_ - kEndSlackNs : 0;
        const BlockCandidate c = check_block_candidate(header_, p + scan_, n - scan_, at_end, min_end, &walk_);
        if (c == BlockCandidate::need_more) break;  // walk_ keeps its place for the next bytes
        walk_.pos = 0;
        if (c == BlockCandidate::no) continue;
        const std::uint64_t at = pending_base_ + scan_;
        lose(at, true, load_be64(p + scan_ + 2));
        replay_.assign(pending_, scan_, std::string::npos);
        pending_.clear();
        scan_ = 0;
        offset_ = at;
        state_ = State::data;
        return true;
    }
    // Bytes before the search position can no longer start a block: bounded memory.
    pending_.erase(0, scan_);
    pending_base_ += scan_;
    scan_ = 0;
    return false;
}

void PushDecoder::lose(std::uint64_t end, bool resynchronised, std::uint64_t next_block_start) {
    damage_.end = end;
    damage_.resynchronised = resynchronised;
    if (damage_.to_time == 0) {  // the damaged block's end is not known: up to the next block's start
        const bool usable =
            resynchronised && next_block_start >= damage_.from_time && next_block_start < TimestampGuard::kImpossible;
        damage_.to_time = usable ? next_block_start : damage_.from_time;
    }
    diagnostics_.add(Diagnostic::corrupt_data_skipped);
    if (lost_.size() < kMaxLostDataRecords) lost_.push_back(damage_);
}

void PushDecoder::finish() {
    if (state_ == State::header) fail("not a complete GHC eventlog: the input ends inside the header", offset_);
    while (state_ == State::resync) {
        if (resync(true)) {
            feed_data(reinterpret_cast<const std::uint8_t*>(replay_.data()), replay_.size());
            continue;
        }
        pending_.clear();
        state_ = State::done;
        if (damage_.kind == Corruption::end_marker_inside_block && damage_.begin + 2 == offset_) {
            // It was the end marker after all, closing a block whose size said more.
            diagnostics_.add(Diagnostic::block_overrun);
            return;
        }
        lose(offset_, false, 0);
        lost_to_end_ = true;
        return;
    }
    if (state_ == State::done) return;
    // Records kept back only to see what follows them: the input's end says how they end.
    while (state_ == State::data && !pending_.empty()) {
        auto* p = reinterpret_cast<const std::uint8_t*>(pending_.data());
        const std::uint64_t record_offset = offset_ - pending_.size();
        const std::size_t need = need_at(p, pending_.size(), record_offset, pending_.size());
        if (need == kCorrupt || need == 0 || need > pending_.size() || !process_record(p, need, record_offset)) break;
        pending_.erase(0, need);
    }
    diagnostics_.add(Diagnostic::truncated_input);
    truncated_mid_event_ = !pending_.empty();
    truncated_at_ = offset_ - pending_.size();
}

}  // namespace el2fx::eventlog
