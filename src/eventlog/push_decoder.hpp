// The streaming decoder: feed it bytes as they arrive, split anywhere, and it
// hands each complete event to the sink in file order. Memory stays bounded: only
// one unfinished record is ever kept (at most 64 KiB + 12 bytes), plus the header;
// after damage inside a block, the bytes searched for the next block (at most one
// block ahead, block_resync.hpp). Timestamps are checked as they pass (TimestampGuard).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eventlog/block_resync.hpp"
#include "eventlog/event.hpp"
#include "eventlog/header.hpp"
#include "eventlog/lost_data.hpp"
#include "eventlog/payload_decoder.hpp"
#include "eventlog/record_framing.hpp"
#include "eventlog/timestamp_guard.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

class EventSink {
public:
    virtual ~EventSink() = default;
    virtual void on_header(const Header&) {}
    virtual void on_event(const Event& event) = 0;
};

class PushDecoder {
public:
    PushDecoder(EventSink& sink, Diagnostics& diagnostics);

    // Throws el2fx::Error (with the byte offset) on input that is not a valid eventlog: a
    // malformed header, or an undeclared tag outside any block. Damage inside a block is
    // skipped up to the next block marker (lost()).
    void feed(const std::uint8_t* data, std::size_t size);
    // End of input. A log without its end-of-data marker is truncated: counted,
    // and truncated_at() says where the data stopped. Throws if the header is incomplete.
    void finish();

    const Header& header() const { return header_; }
    bool saw_end_marker() const { return state_ == State::done && !lost_to_end_; }
    // Byte offset where a truncated log's last complete event ends.
    std::optional<std::uint64_t> truncated_at() const { return truncated_at_; }
    bool truncated_mid_event() const { return truncated_mid_event_; }
    // The corrupt stretches skipped (the first kMaxLostDataRecords of them).
    const std::vector<LostData>& lost() const { return lost_; }
    // Offset of the first event whose timestamp was out of range (TimestampGuard).
    std::optional<std::uint64_t> first_bad_time_at() const { return first_bad_time_at_; }
    std::uint64_t data_start() const { return data_start_; }
    std::uint64_t bytes_fed() const { return offset_; }

private:
    enum class State { header, data, resync, done };

    std::size_t feed_header(const std::uint8_t* data, std::size_t size);
    void feed_data(const std::uint8_t* data, std::size_t size);
    // Bytes a record at `offset` needs as far as `avail` tells; 0: the end-of-data marker;
    // kCorrupt: no record can start here (corruption_ says why).
    // `input_bound`: bytes from p to the end of the input where it is known to end there.
    std::size_t need_at(const std::uint8_t* p, std::size_t avail, std::uint64_t offset,
                        std::size_t input_bound = kUnbounded);
    // Decodes and hands on a complete record; false if it cannot be right (corruption_).
    bool process_record(const std::uint8_t* p, std::size_t size, std::uint64_t offset);
    void end_of_data();
    // Damage at `offset`: the bytes after it (the rest of pending_, then data) are searched
    // for the next block.
    void start_resync(std::uint64_t offset, std::uint16_t tag, const std::uint8_t* data, std::size_t size);
    // Searches the buffered bytes; true when a block was found (its bytes are in replay_).
    bool resync(bool at_end);
    void lose(std::uint64_t end, bool resynchronised, std::uint64_t next_block_start);

    static constexpr std::size_t kCorrupt = ~std::size_t{0};

    EventSink& sink_;
    Diagnostics& diagnostics_;
    Header header_;
    State state_ = State::header;
    std::string pending_;            // header bytes so far, one unfinished record, or bytes being resynchronised
    std::string replay_;             // bytes from a block found by resynchronisation, to decode
    std::size_t header_resume_ = 0;  // where the header walk stopped, and how many
    std::size_t header_need_ = 0;    // bytes from there it needs before trying again
    std::uint64_t offset_ = 0;       // bytes fed so far (resync: offset just past pending_)
    std::uint64_t data_start_ = 0;
    bool in_block_ = false;
    std::optional<CapNo> cap_;          // capability of the current block; none for the global one
    std::uint64_t block_end_ = 0;       // offset just past the current block
    std::uint64_t block_end_time_ = 0;  // its declared end time, if trusted (else 0)
    std::uint64_t max_block_end_ = 0;   // the latest trusted block end so far
    TimestampGuard guard_;
    Event event_;  // reused: no allocation per event
    std::optional<std::uint64_t> truncated_at_;
    bool truncated_mid_event_ = false;
    std::optional<std::uint64_t> first_bad_time_at_;
    // Resynchronisation: the damage being skipped, and where the search stands.
    Corruption corruption_ = Corruption::undeclared_tag;
    LostData damage_;
    std::uint64_t pending_base_ = 0;  // offset of pending_[0] while resynchronising
    std::size_t scan_ = 0;            // next candidate position in pending_
    CandidateWalk walk_;              // how far the candidate at scan_ was checked; the work left
    std::vector<LostData> lost_;
    bool lost_to_end_ = false;
};

// ---- Decoding a framed record (record_framing.hpp frames it) ----

// Decodes a complete record of `size` bytes found at `offset`. Inline: every event of every
// pass comes here.
inline void decode_record_into(const Header& header, const std::uint8_t* p, std::size_t size, std::uint64_t offset,
                               Event& event) {
    const std::uint16_t tag = load_be16(p);
    const std::size_t at = payload_offset(header, tag);
    event.time = load_be64(p + 2);
    event.offset = offset;
    event.size = static_cast<std::uint32_t>(size);
    event.tag = tag;
    decode_payload_into(tag, p + at, size - at, event.payload);
}
Event decode_record(const Header& header, const std::uint8_t* p, std::size_t size, std::uint64_t offset);

// Parses a complete header at the start of `bytes`: returns the number of bytes
// it took, or nullopt if more bytes are needed. Throws on a malformed header.
std::optional<std::size_t> parse_header(const std::uint8_t* bytes, std::size_t size, Header& out);

}  // namespace el2fx::eventlog
