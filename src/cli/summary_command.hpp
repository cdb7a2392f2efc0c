// `eventlog2fxprof summary FILE`: the statistics of `+RTS -s`, computed from the eventlog's
// events only (gc::RtsSummary), in the runtime's layout or (--json) as JSON.
#pragma once

#include <cstdio>
#include <string>

#include "window/window_spec.hpp"

namespace el2fx::cli {

struct SummaryCommand {
    std::string input;
    bool json = false;
    bool strict = false;
    bool quiet = false;  // no progress line on standard error
    window::WindowSpec window;  // --from/--to/--from-marker/--to-marker: the window's own figures
};

// Returns the exit code; throws el2fx::Error on bad input.
int run_summary(const SummaryCommand& command, std::FILE* out, std::FILE* err);

}  // namespace el2fx::cli
