// Which events `dump` prints: --type, --cap, --thread, --from, --to.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "eventlog/event.hpp"
#include "eventlog/header.hpp"

namespace el2fx::cli {

struct EventFilter {
    std::set<std::uint16_t> tags;      // empty: all
    std::set<std::string> type_names;  // resolved against the header into tags
    std::optional<std::uint16_t> cap;
    std::optional<std::uint32_t> thread;
    std::optional<std::uint64_t> from, to;  // ns, inclusive

    // Adds one --type value: a tag number, a GHC name (STOP_THREAD) or a header description.
    void add_type(const std::string& value);
    // Resolves names against the header; throws el2fx::Error for a name nothing matches.
    void resolve(const eventlog::Header& header);
    bool accepts(const eventlog::Event& event) const;
};

// A time option's text in nanoseconds: a bare number is nanoseconds, else a number with one of
// the units ns, us, ms, s. Throws el2fx::Error.
std::uint64_t parse_time(const std::string& text);

// The Haskell thread an event is about, if any.
std::optional<std::uint32_t> thread_of(const eventlog::Event& event);

}  // namespace el2fx::cli
