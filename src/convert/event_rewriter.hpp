// What the conversion sees of each event, before any analysis or contributor does:
// times shifted so that a run starts at 0 (several runs in one profile: the event's time
// and every payload field on the same clock, BLOCK_MARKER's end and
// HEAP_BIO_PROF_SAMPLE_BEGIN's census time), program
// arguments replaced (--redact-args) and absolute paths reduced to file names
// (--redact-paths) in every text field of every event type. Redacting here, at the
// one place all events pass, covers every string that reaches the profile from the
// eventlog (arguments, thread labels, user messages and markers, cost centres and
// their source locations, info tables, environment) whichever part shows it.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "eventlog/event.hpp"

namespace el2fx::convert {

// Replaces every program argument after argv[0] (all of them together, so not even
// their number shows).
inline constexpr std::string_view kRedacted = "[redacted]";

struct RewriteOptions {
    bool shift_to_zero = false;  // the first event (in time order) is at time 0
    bool redact_args = false;
    bool redact_paths = false;
};

class EventRewriter {
public:
    explicit EventRewriter(RewriteOptions options) : options_(options) {}

    // Events must come in time order. The result is `event` itself when nothing
    // changes, else a rewritten copy valid until the next call.
    const eventlog::Event& apply(const eventlog::Event& event);

    // How far times were moved back (the first event's time), once an event was seen.
    std::uint64_t shift() const { return shift_; }

private:
    void redact(eventlog::Payload& payload);

    RewriteOptions options_;
    bool started_ = false;
    std::uint64_t shift_ = 0;
    eventlog::Event event_;
    std::deque<std::string> texts_;  // the rewritten strings of the current event (stable addresses)
};

// "/home/ann/src/Main.hs:12:3-20" → "Main.hs:12:3-20": every absolute path in `text`
// reduced to its last component. A path starts at the beginning of the text or after
// white space or one of = : , ; " ' ` ( [ { < and is `/…`, `~/…`, `C:\…`, `C:/…` or
// `\\server\…` with at least one directory; it ends at white space or one of
// : , ; " ' ` ) ] } >. URLs are left alone, except file: URLs.
std::string reduce_paths(std::string_view text);

// "/usr/bin/prog" → "prog" (either kind of slash).
std::string_view file_name(std::string_view path);

}  // namespace el2fx::convert
