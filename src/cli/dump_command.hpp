// `eventlog2fxprof dump FILE`: the events as `ghc-events show` prints them, or
// (--stats) counts per event type.
#pragma once

#include <cstdio>
#include <string>

#include "cli/event_filter.hpp"

namespace el2fx::cli {

struct DumpOptions {
    std::string input;
    EventFilter filter;
    bool stats = false;
    bool spans = false;  // the threading analyses' spans instead of events
    bool strict = false;
    bool quiet = false;  // no progress line on standard error
};

// Returns the exit code; throws el2fx::Error on bad input.
int run_dump(DumpOptions options, std::FILE* out, std::FILE* err);

}  // namespace el2fx::cli
