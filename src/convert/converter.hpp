// The whole conversion: eventlog in, Firefox Profiler profile out, in one pass
// over the time-ordered events.
#pragma once

#include <string>
#include <vector>

#include "convert/convert_options.hpp"
#include "convert/source_locations.hpp"
#include "convert/thread_track_layout.hpp"
#include "analysis/run/run_info.hpp"
#include "eventlog/stream.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

// CPU time of a pass's two threads, in seconds: the reader's (the merge, and the analyses
// staged beside it) and the analyses' (this thread). The busier one bounds the pass.
struct PassCpu {
    double reader = 0, analyses = 0;
};

// Wall time of each part of a conversion (--timings), in seconds.
struct PhaseTimes {
    double index = 0;   // the first pass: blocks found, their order learnt
    double census = 0;  // the second: threads, capabilities, the run's facts
    double events = 0;  // the third: analyses into tracks, samples and markers
    double write = 0;   // JSON, gzip and the file
    PassCpu census_cpu, events_cpu;
    // The census learnt from the blocks as the index checked them, without a pass of its own
    // (run/block_census.hpp); else, where the blocks were read, why they could not tell it.
    bool census_from_blocks = false;
    const char* blocks_declined = nullptr;
    // The threads' lives kept beside the reader (analysis/threading/reader_thread_lives.hpp).
    bool lives_beside_reader = false;
};

struct ConversionReport {
    SourcesReport sources;  // --sources (several runs: the first run's report holds the profile's)
    PhaseTimes timings;
    run::RunInfo run;
    eventlog::StreamEnd stream_end;
    Diagnostics diagnostics;
    MappingSummary mapping;
    fxprof::WriteStats written;
    std::uint64_t output_bytes = 0;  // compressed, as written
    DetailChoice detail;             // what the output budget chose (output_budget.hpp)
    Detail wanted_detail;            // ... and what the options alone would have given
    std::uint64_t duration_ns = 0;   // the run's
    std::uint64_t max_profile_bytes = 0;  // this run's share of the budget
};

// Reads `input` ("-": standard input), writes the gzipped profile to `output`
// ("-": standard output; else as fxprof::OutputFile says: a temporary file, created before
// the input is read and renamed on success, or a device or FIFO written in place).
// Throws el2fx::Error; a failed run leaves no output file.
ConversionReport convert_eventlog(const std::string& input, const std::string& output, const ConvertOptions& options);

// Builds the profile without writing it (tests).
fxprof::Profile build_profile(const std::string& input, const ConvertOptions& options, ConversionReport& report);

// Several eventlogs in one profile, to compare runs side by side.
struct RunInput {
    std::string path;  // "-": standard input
    std::string name;  // names the run's process; empty: the file's name without ".eventlog"
};

struct RunsReport {
    std::vector<ConversionReport> runs;  // one per input, in order (their timings.write is 0)
    double write_seconds = 0;            // the one profile's
    fxprof::WriteStats written;
    std::uint64_t output_bytes = 0;
};

// Each eventlog becomes its own process (named by its RunInput, unique pid strings even
// when the real pids are equal), with its events shifted so that its first one is at 0:
// the runs stack as track groups on one time axis. The meta (start time) is the first
// run's; the product names the runs ("before vs after"). One input: as build_profile
// above, its process named only if the input has a name. Throws el2fx::Error.
fxprof::Profile build_profile(const std::vector<RunInput>& inputs, const ConvertOptions& options,
                              std::vector<ConversionReport>& reports);
RunsReport convert_eventlogs(const std::vector<RunInput>& inputs, const std::string& output,
                             const ConvertOptions& options);
// Beside the first input: "a-vs-b.json.gz" (one input: as below).
std::string default_output_path(const std::vector<RunInput>& inputs);

// "prog.eventlog" → "prog.json.gz", beside the input.
std::string default_output_path(const std::string& input);

}  // namespace el2fx::convert
