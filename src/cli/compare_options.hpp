// `eventlog2fxprof compare`'s command line: the options, the two sides split at "--", the gates
// parsed before any log is read, colour only on a terminal without NO_COLOR.
#pragma once

namespace el2fx::cli {

// Parses the arguments after "compare" (argv[0] is the command's name) and runs it; the exit
// status. A bad command line throws cxxopts' exception (the caller's usage error).
int compare_main(int argc, char** argv);

}  // namespace el2fx::cli
