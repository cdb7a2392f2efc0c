// The whole conversion: eventlog in, Firefox Profiler profile out, in one pass
// over the time-ordered events.
#pragma once

#include <string>

#include "convert/convert_options.hpp"
#include "convert/profile_mapper.hpp"
#include "convert/run_info.hpp"
#include "eventlog/stream.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

struct ConversionReport {
    RunInfo run;
    eventlog::StreamEnd stream_end;
    Diagnostics diagnostics;
    MappingSummary mapping;
    fxprof::WriteStats written;
    std::uint64_t output_bytes = 0;  // compressed, as written
};

// Reads `input` ("-": standard input), writes the gzipped profile to `output`
// ("-": standard output) through a temporary file renamed on success.
// Throws el2fx::Error; a failed run leaves no output file.
ConversionReport convert_eventlog(const std::string& input, const std::string& output, const ConvertOptions& options);

// Builds the profile without writing it (tests).
fxprof::Profile build_profile(const std::string& input, const ConvertOptions& options, ConversionReport& report);

// "prog.eventlog" → "prog.json.gz", beside the input.
std::string default_output_path(const std::string& input);

}  // namespace el2fx::convert
