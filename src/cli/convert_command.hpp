// `eventlog2fxprof [convert] FILE`: writes a Firefox Profiler profile.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "convert/convert_options.hpp"

namespace el2fx::cli {

struct ConvertCommand {
    std::string input;
    // Several eventlogs (the first is `input`): one profile, a process per run, to compare.
    std::vector<std::string> inputs;
    std::vector<std::string> names;  // --names: the runs' process names, one per input
    std::string output;              // empty: beside the input
    convert::ConvertOptions options;
    bool strict = false;
    bool quiet = false;
    bool stats = false;    // list the event types, their counts and where each is shown
    bool timings = false;  // the wall time of each phase, on standard error
};

// Refuses (exit status 2) an output that is one of the inputs, which the profile would replace.
int run_convert(const ConvertCommand& command, std::FILE* out, std::FILE* err);

// The input that `output` is the very file of (same device and inode: also through hard or
// symbolic links; "-" is standard input), if any.
std::optional<std::string> input_overwritten_by(const std::string& output, const std::vector<std::string>& inputs);

// Where run_convert writes: -o, else beside the (first) input. Throws el2fx::Error for
// standard input without -o.
std::string output_path(const ConvertCommand& command);

}  // namespace el2fx::cli
