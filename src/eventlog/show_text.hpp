// The text `ghc-events show` (ghc-events 0.21) prints for a header and for each
// event, so `eventlog2fxprof dump` can be compared line by line with it.
//
// Where this differs from ghc-events on purpose:
// - invalid UTF-8 in a text field (and in a header description) is shown with one
//   U+FFFD per ill-formed subsequence; ghc-events refuses the whole file;
// - values ghc-events 0.21 rejects (an unknown stop status, heap-profile breakdown or
//   Eden message tag, an IPE closure description without digits) are printed in a
//   form of our own ("unknown stop status 4", ...) instead of failing;
// - a variable-size event with bytes after the fields ghc-events knows (a field a newer
//   GHC appends) shows those fields, and the next event is read where the declared length
//   says; ghc-events 0.21 skips such bytes only for TICKY_COUNTER_DEF and would read them
//   as the next event. (Fixed-size events declared longer are skipped alike by both.)
#pragma once

#include <string>

#include "eventlog/event.hpp"
#include "eventlog/header.hpp"

namespace el2fx::eventlog {

// "Event Types:" and one line per declared type, then "\nEvents:\n".
void append_header_text(std::string& out, const Header& header);

// One event line ("1130000: cap 0: running thread 1\n"); a block marker also gets
// the empty line that follows it. `header` is the file's: an event that ghc-events
// 0.21 cannot parse as declared (a type it does not know, a layout it has no parser
// for, a fixed-size type declared variable or the reverse) prints the header's
// description of its type, as `ghc-events show` does.
void append_event_text(std::string& out, const Event& event, const Header& header);

// The same without the header: such an event prints the GHC name of its type
// ("STOP_THREAD"), or "event type N" for a tag this table does not know. For
// tests and fuzzing; `dump` passes the header.
void append_event_text(std::string& out, const Event& event);

}  // namespace el2fx::eventlog
