// Joins ghc-stack-profiler's messages into stack samples (WIRE-FORMAT.md, sections 4 and 5).
// Takes the USER_BINARY_MSG payloads of all capabilities merged by time; keeps the symbol
// definitions (strings, source locations) and the pending chunks of each (capability, thread)
// apart, so that batches of different threads interleaved across capabilities still join
// rightly (and are counted). A sample comes out at its FF CA with its entries in the order
// written (FrameOrder says which end is the root). Everything odd is counted, nothing throws:
//  - messages in no known layout (malformed) or in a format this tool does not read
//    (pre-release, newer kinds): skipped;
//  - chunks left without their FF CA at the end (a truncated log): dropped;
//  - a pending stack beyond kMaxStackEntries (only a hostile log): dropped.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/stack_profiler/stack_message.hpp"

namespace el2fx::stack_profiler {

// 145 full chunks; the library writes stacks far smaller (its deepest realistic ones are a few
// thousand entries).
constexpr std::size_t kMaxStackEntries = std::size_t{1} << 20;

struct SourceLocationDef {
    std::uint32_t line = 0, column = 0;
    std::uint64_t file = 0;      // a string id
    std::uint64_t function = 0;  // 0.1–0.2 only: a string id
    bool has_function = false;
    bool operator==(const SourceLocationDef&) const = default;
};

struct AssemblerCounts {
    std::uint64_t messages = 0;       // profiler messages read (every kind)
    std::uint64_t other_binary = 0;   // USER_BINARY_MSG events that are not the profiler's
    std::uint64_t chunks = 0;         // FF CB
    std::uint64_t samples = 0;        // FF CA: complete samples
    std::uint64_t empty_samples = 0;  // of which with no entry
    std::uint64_t entries = 0;        // in complete samples
    std::uint64_t max_depth = 0;
    std::uint64_t malformed = 0;       // FF CA…FF CD that parse in no known layout
    std::uint64_t unknown_format = 0;  // pre-release or newer message kinds
    std::uint64_t interleaved = 0;     // stack messages while another thread's chunks were pending
    std::uint64_t truncated = 0;       // samples left without their FF CA at the end
    std::uint64_t truncated_entries = 0;
    std::uint64_t oversized = 0;            // samples dropped beyond kMaxStackEntries
    std::uint64_t layout_conflicts = 0;     // messages proving the other layout than the first proof
    std::uint64_t string_defs = 0, location_defs = 0;
    std::uint64_t redefined_differently = 0;  // a definition of a known id with other content
};

// A complete sample; `entries` live until the next call of message().
struct AssembledSample {
    std::uint64_t time = 0;  // the FF CA's event: when the writer wrote it
    std::uint32_t cap = 0, thread = 0;
    std::span<const Entry> entries;  // in the order written
};

class StackAssembler {
public:
    // One USER_BINARY_MSG payload, in time order. Returns the sample it completes, if any.
    const AssembledSample* message(std::uint64_t time, std::string_view payload);
    // After the last event: pending chunks are counted as truncated samples.
    void finish();

    // The layout the messages proved first (unknown while nothing told the two apart).
    Layout layout() const { return layout_; }
    const AssemblerCounts& counts() const { return counts_; }
    const std::string* string(std::uint64_t id) const;
    const SourceLocationDef* location(std::uint64_t id) const;

private:
    struct Pending {
        std::uint32_t cap = 0, thread = 0;
        bool active = false;
        bool dropped = false;  // grew beyond kMaxStackEntries: skip to its FF CA
        std::vector<Entry> entries;
    };
    Pending& pending_for(std::uint32_t cap, std::uint32_t thread);
    void prove(Layout layout);

    Layout layout_ = Layout::unknown;
    AssemblerCounts counts_;
    std::vector<Pending> pending_;  // a few: one per (capability, thread) with chunks in flight
    AssembledSample out_;
    std::unordered_map<std::uint64_t, std::string> strings_;
    std::unordered_map<std::uint64_t, SourceLocationDef> locations_;
};

}  // namespace el2fx::stack_profiler
