// ghc-stack-profiler's eventlog messages (the payloads of USER_BINARY_MSG events), decoded
// without allocating: fixtures/src/stack_profiler/WIRE-FORMAT.md is the specification.
//  - FF CA / FF CB: the final and a non-final chunk of one stack sample (capability, thread,
//    entries); FF CC: a string definition; FF CD: a source-location definition.
//  - Two released layouts: 0.1–0.2 (entry 03 = a source-location id, 9 bytes; FF CD with a
//    function id, 34 bytes; entries innermost first) and 0.3+ (03 = string id and source-location
//    id, 17 bytes; FF CD 26 bytes; entries outermost first). Only entry 03 and FF CD tell them
//    apart; a message without them fits both (Layout::unknown).
//  - The pre-release formats ("CA11" tags) and FF CE…FF DF are known not to be readable here:
//    they are reported as such, never read as samples.
// Big-endian, fixed widths; a message must end exactly where its fields end.
#pragma once

#include <cstdint>
#include <string_view>

namespace el2fx::stack_profiler {

enum class Layout : std::uint8_t {
    unknown,  // fits both (no 03 entry, no FF CD), or not yet known
    v0_1,     // ghc-stack-profiler 0.1.0.0 – 0.2.0.0
    v0_3,     // ghc-stack-profiler 0.3.0.0 – 0.4.0.0
};

enum class EntryKind : std::uint8_t {
    ipe = 1,         // an info table's address (or, from ghc-internal 9.1500, an IPE id)
    annotation = 2,  // a stack annotation: a string id
    located = 3,     // 0.3+: an annotation (string id) with a source-location id
    location = 4,    // 0.1–0.2's 03: a source-location id alone
};

struct Entry {
    EntryKind kind = EntryKind::ipe;
    std::uint64_t value = 0;     // the address, the string id, or (location) the source-location id
    std::uint64_t location = 0;  // located: the source-location id
    bool operator==(const Entry&) const = default;
};

enum class MessageKind : std::uint8_t {
    not_profiler,    // not one of the profiler's messages (the program's own traceBinaryEvent)
    malformed,       // an FF CA…FF CD tag whose fields do not end at the payload's end
    unknown_format,  // a pre-release or newer message kind: not readable here
    call_stack,      // FF CA / FF CB
    string_def,      // FF CC
    location_def,    // FF CD
};

struct Message {
    MessageKind kind = MessageKind::not_profiler;
    Layout layout = Layout::unknown;  // what the message proves about the layout
    // call_stack
    bool final = false;  // FF CA: the sample's last message
    std::uint32_t cap = 0, thread = 0;
    std::uint16_t count = 0;
    std::string_view entries;  // the raw entries, `count` of them (EntryReader)
    // string_def, location_def
    std::uint64_t id = 0;
    std::string_view text;  // string_def: UTF-8, checked well-formed
    std::uint32_t line = 0, column = 0;
    std::uint64_t file = 0;      // location_def: the file name's string id
    std::uint64_t function = 0;  // location_def of 0.1–0.2: the function's string id
};

// `assumed`: the layout the log has shown so far (unknown: try both; a message that fits only
// one says so in Message::layout; one that fits the assumed layout is read with it).
Message decode_message(std::string_view payload, Layout assumed = Layout::unknown) noexcept;

// True for the profiler's messages, readable or in a format known not to be (the user-events
// part leaves them out of its traceBinaryEvent markers); false for malformed ones, which the
// reference reader takes for the program's own.
bool is_profiler_message(std::string_view payload) noexcept;

// The entries of a call_stack message, in the order written.
class EntryReader {
public:
    EntryReader(std::string_view entries, Layout layout) : p_(entries), layout_(layout) {}
    // False at the end.
    bool next(Entry& out) noexcept;

private:
    std::string_view p_;
    Layout layout_;
};

}  // namespace el2fx::stack_profiler
