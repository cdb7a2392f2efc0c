// `eventlog2fxprof [convert] FILE`: writes a Firefox Profiler profile.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "convert/convert_options.hpp"

namespace el2fx::cli {

struct ConvertCommand {
    std::string input;
    // Several eventlogs (the first is `input`): one profile, a process per run, to compare.
    std::vector<std::string> inputs;
    std::vector<std::string> names;  // --names: the runs' process names, one per input
    std::string output;  // empty: beside the input
    convert::ConvertOptions options;
    bool strict = false;
    bool quiet = false;
    bool stats = false;  // list the event types, their counts and where each is shown
    bool timings = false;  // the wall time of each phase, on standard error
};

int run_convert(const ConvertCommand& command, std::FILE* out, std::FILE* err);

// Where run_convert writes: -o, else beside the (first) input. Throws el2fx::Error for
// standard input without -o.
std::string output_path(const ConvertCommand& command);

}  // namespace el2fx::cli
