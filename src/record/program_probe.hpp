// Before the real run: is PROGRAM there, executable, a GHC program, and will its RTS take the
// options that record gives it? Each answer "no" is an el2fx::Error whose one line says what
// to do. The real run's standard streams stay the user's: only this probe reads what the RTS
// prints.
#pragma once

#include <string>
#include <vector>

namespace el2fx::record {

// `name` as execvp finds it: a name with a slash is a path, else searched in $PATH. Throws
// el2fx::Error: no such program, a directory, not executable.
std::string resolve_program(const std::string& name);

// Whether the file holds a GHC runtime system: its strings ("GHC RTS", linked statically) or
// the name of its shared library (libHSrts…, linked with -dynamic). Reads the whole file.
bool holds_ghc_runtime(const std::string& path);

struct RtsInfo {
    std::string ghc_version;  // "9.0.2"
    std::string way;          // "rts_thr_l"
    bool profiled = false;    // a profiling RTS (-prof): heap profiles by cost centre
};

// Runs `path +RTS <flags> --info -RTS` (the RTS parses the options, prints its facts and
// exits before main runs; standard input /dev/null, output and error read here), with argv[0]
// `argv0`. `rts_flags` is "+RTS … -RTS" as rts_flags() makes it. Throws el2fx::Error naming
// `argv0`: not a GHC program, no eventlog support, RTS options disabled, an option rejected.
RtsInfo probe_rts(const std::string& path, const std::string& argv0, const std::vector<std::string>& rts_flags);

// Parses the output of `+RTS --info` (tests). Empty fields when absent.
RtsInfo parse_rts_info(const std::string& info);

// The one-line error for what the RTS wrote to standard error and its exit status, or empty
// when it accepted everything (tests).
std::string explain_rts_complaint(const std::string& program, const std::string& stderr_text, int status,
                                  const RtsInfo& info);

}  // namespace el2fx::record
