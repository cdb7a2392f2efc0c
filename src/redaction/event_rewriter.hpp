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

#include "redaction/path_redaction.hpp"  // reduce_paths, file_name
#include "eventlog/event.hpp"

namespace el2fx::redaction {

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
    explicit EventRewriter(RewriteOptions options)
        : options_(options), rewrites_(options.shift_to_zero || options.redact_args || options.redact_paths) {}

    // Events must come in time order. The result is `event` itself when nothing
    // changes, else a rewritten copy valid until the next call. Inline: without options
    // (the usual conversion) every event passes here for nothing.
    const eventlog::Event& apply(const eventlog::Event& event) { return rewrites_ ? rewrite(event) : event; }

    // How far times were moved back (the first event's time), once an event was seen.
    std::uint64_t shift() const { return shift_; }

private:
    const eventlog::Event& rewrite(const eventlog::Event& event);
    void redact(eventlog::Payload& payload);

    RewriteOptions options_;
    bool rewrites_;  // any option: else shift() stays 0 and events pass as they are
    bool started_ = false;
    std::uint64_t shift_ = 0;
    eventlog::Event event_;
    std::deque<std::string> texts_;  // the rewritten strings of the current event (stable addresses)
};

}  // namespace el2fx::redaction
