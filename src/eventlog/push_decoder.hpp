// The streaming decoder: feed it bytes as they arrive, split anywhere, and it
// hands each complete event to the sink in file order. Memory stays bounded: only
// one unfinished record is ever kept (at most 64 KiB + 12 bytes), plus the header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "eventlog/event.hpp"
#include "eventlog/header.hpp"
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

    // Throws el2fx::Error (with the byte offset) on input that is not a valid eventlog.
    void feed(const std::uint8_t* data, std::size_t size);
    // End of input. A log without its end-of-data marker is truncated: counted,
    // and truncated_at() says where the data stopped. Throws if the header is incomplete.
    void finish();

    const Header& header() const { return header_; }
    bool saw_end_marker() const { return state_ == State::done; }
    // Byte offset where a truncated log's last complete event ends.
    std::optional<std::uint64_t> truncated_at() const { return truncated_at_; }
    bool truncated_mid_event() const { return truncated_mid_event_; }
    std::uint64_t data_start() const { return data_start_; }
    std::uint64_t bytes_fed() const { return offset_; }

private:
    enum class State { header, data, done };

    void feed_header(const std::uint8_t* data, std::size_t size);
    void feed_data(const std::uint8_t* data, std::size_t size);
    void process_record(const std::uint8_t* p, std::size_t size, std::uint64_t offset);
    void end_of_data(std::uint64_t offset);

    EventSink& sink_;
    Diagnostics& diagnostics_;
    Header header_;
    State state_ = State::header;
    std::string pending_;          // header bytes so far, or one unfinished record
    std::size_t header_resume_ = 0;  // where the header walk stopped, and how many
    std::size_t header_need_ = 0;    // bytes from there it needs before trying again
    std::uint64_t offset_ = 0;     // bytes fed so far
    std::uint64_t data_start_ = 0;
    bool in_block_ = false;
    std::optional<CapNo> cap_;     // capability of the current block; none for the global one
    std::uint64_t block_end_ = 0;  // offset just past the current block
    Event event_;                  // reused: no allocation per event
    std::optional<std::uint64_t> truncated_at_;
    bool truncated_mid_event_ = false;
};

// ---- Record framing, shared with the time-ordered reader ----

// Bytes the record starting at p needs in all, as far as `avail` bytes tell (call
// again with more bytes until it stops growing); 0 means the end-of-data marker.
// Throws for a tag the header does not declare.
std::size_t record_size(const Header& header, const std::uint8_t* p, std::size_t avail, std::uint64_t offset);
// Decodes a complete record of `size` bytes found at `offset`.
void decode_record_into(const Header& header, const std::uint8_t* p, std::size_t size, std::uint64_t offset,
                        Event& event);
Event decode_record(const Header& header, const std::uint8_t* p, std::size_t size, std::uint64_t offset);

// Parses a complete header at the start of `bytes`: returns the number of bytes
// it took, or nullopt if more bytes are needed. Throws on a malformed header.
std::optional<std::size_t> parse_header(const std::uint8_t* bytes, std::size_t size, Header& out);

}  // namespace el2fx::eventlog
