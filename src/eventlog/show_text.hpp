// The text `ghc-events show` (ghc-events 0.21) prints for a header and for each
// event, so `eventlog2fxprof dump` can be compared line by line with it.
#pragma once

#include <string>

#include "eventlog/event.hpp"
#include "eventlog/header.hpp"

namespace el2fx::eventlog {

// "Event Types:" and one line per declared type, then "\nEvents:\n".
void append_header_text(std::string& out, const Header& header);
// One event line ("1130000: cap 0: running thread 1\n"); a block marker also gets
// the empty line that follows it.
void append_event_text(std::string& out, const Event& event);

}  // namespace el2fx::eventlog
