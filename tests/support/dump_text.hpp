// What `eventlog2fxprof dump FILE` prints without a filter (src/cli/dump_command.cpp): the text of
// `ghc-events show` (0.21), for the differential tests against ghc-events.
#pragma once

#include <string>

#include "eventlog/byte_source.hpp"
#include "eventlog/show_text.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::testing {

inline std::string dump_text(const std::string& path) {
    eventlog::InputFile input(path);
    Diagnostics diagnostics;
    eventlog::TimeOrderedReader reader(input, diagnostics);
    std::string out;
    eventlog::append_header_text(out, reader.header());
    while (const eventlog::Event* event = reader.next()) eventlog::append_event_text(out, *event, reader.header());
    out += "\n";  // ghc-events show ends with an empty line
    return out;
}

}  // namespace el2fx::testing
