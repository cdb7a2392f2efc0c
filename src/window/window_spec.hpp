// What part of a log to convert: --from/--to (times on the eventlog's clock) and
// --from-marker/--to-marker (the first traceMarker or traceEvent whose text starts with
// the given text; for the end, the first at or after the window's start). Either end may
// be given alone; none given: the whole log.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace el2fx::window {

struct WindowSpec {
    std::optional<std::uint64_t> from, to;  // ns since the RTS started, inclusive
    std::optional<std::string> from_marker, to_marker;

    bool active() const { return from || to || from_marker || to_marker; }
    bool operator==(const WindowSpec&) const = default;
};

// A window once its markers are found: the times events were cut at.
struct WindowBounds {
    std::uint64_t from = 0;
    std::optional<std::uint64_t> to;  // none: the log's end
    bool cut = false;                 // events went on after `to`: what was under way there is cut
    bool operator==(const WindowBounds&) const = default;
};

// What a conversion was asked for and, after its first pass, what it found.
struct Window {
    WindowSpec spec;
    std::optional<WindowBounds> bounds;  // set once the first pass found the markers
};

// Refuses a window that cannot hold anything on its face (--from at or after --to);
// throws el2fx::Error naming the options.
void check_spec(const WindowSpec& spec);

// "1.500 ms", as the window's options and errors name times.
std::string format_time(std::uint64_t ns);

}  // namespace el2fx::window
