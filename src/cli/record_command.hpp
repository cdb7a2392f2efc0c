// `eventlog2fxprof record [OPTIONS] -- PROGRAM [ARGS...]`: runs a GHC program with its eventlog
// going into a FIFO that this process copies to a private spool file, then converts it (and
// opens it, as --open does). Also what `attach` shares with it: converting a recording and the
// signal handling of both.
#pragma once

#include <csignal>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/serve_command.hpp"
#include "convert/convert_options.hpp"
#include "record/rts_flags.hpp"

namespace el2fx::cli {

// How a recording becomes a profile: the conversion options and what to say about it.
struct RecordingOutput {
    convert::ConvertOptions options;
    std::string output;  // empty: the command's default
    bool strict = false;
    bool quiet = false;
    bool stats = false;
    bool timings = false;
    bool open = false;   // then serve it and open the profiler (as convert --open)
    ServeCommand serve;  // the serve options, when open
};

struct RecordCommand {
    std::string program;            // as the user gave it (argv[0] of the child)
    std::vector<std::string> args;  // the program's own arguments, kept as given
    record::RecordRequest request;
    bool dry_run = false;    // print the command line only
    RecordingOutput output;  // open defaults to true for record
};

// The program's exit status (128 + N when signal N ended it), kRecordError when it could not be
// recorded, kInputError / kDataLoss when the conversion failed. Messages go to `err`: the
// program's standard output stays its own; --dry-run prints the command line on `out`.
int run_record(const RecordCommand& command, std::FILE* out, std::FILE* err);

// "PROGRAM.json.gz" in the current directory (the program's file name).
std::string record_output_path(const std::string& program);

namespace recording {

// Converts the spool file `spool` into `output`, warnings naming `display`, the summary on
// `err`; returns kOk, or kDataLoss under --strict. Throws el2fx::Error.
int convert_spool(const std::string& spool, const std::string& display, const std::string& output,
                  const RecordingOutput& settings, std::FILE* err, bool attach_hint);

// The signal handling of record and attach, while it lives. Recording a child: the first
// SIGINT/SIGTERM/SIGHUP goes to the program (a terminal's Ctrl-C reached it already: it is in
// our process group), the second kills it (SIGKILL). Attaching: the first sets stop_requested().
// Converting: temporary files and the private directory are removed, then the process ends by
// the signal. Ignored signals stay ignored.
class SignalPhases {
public:
    enum Phase : int { kRecordingChild = 1, kAttaching = 2, kConverting = 3 };
    explicit SignalPhases(Phase phase);
    ~SignalPhases();
    SignalPhases(const SignalPhases&) = delete;
    SignalPhases& operator=(const SignalPhases&) = delete;
    void set(Phase phase);
    static bool stop_requested();
    static int interrupts();

private:
    struct ::sigaction old_[3]{};
    bool installed_[3] = {};
};

}  // namespace recording

}  // namespace el2fx::cli
