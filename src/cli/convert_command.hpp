// `eventlog2fxprof [convert] FILE`: writes a Firefox Profiler profile.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "convert/convert_options.hpp"
#include "convert/converter.hpp"

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

// What one conversion tells the user (convert, record, attach): the input's warnings, an empty
// log, the "Wrote" line, --sources, --stats and --timings. Returns kDataLoss when data was lost
// and `strict` asks for it, else kOk.
struct ConversionMessages {
    std::FILE* summary;  // the "Wrote" line, --sources and --stats (record and attach: stderr)
    std::FILE* err;
    bool quiet = false, stats = false, timings = false, strict = false;
    bool open_hint = false;      // "Open it in https://profiler.firefox.com …" after "Wrote"
    std::string empty_reason{};  // why a log may hold no events, in parentheses after the warning
    std::string empty_hint{};    // what to do about it, after "the profile is empty"
};
int report_conversion(const convert::ConversionReport& report, const std::string& display, const std::string& output,
                      const convert::ConvertOptions& options, const ConversionMessages& messages);

}  // namespace el2fx::cli
