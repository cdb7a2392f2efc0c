// The runtime-system options that `record` gives the program, and how its command line reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace el2fx::record {

// What to record, in the user's words.
struct RecordRequest {
    bool heap = false;                             // --heap: -hT, or -h for a profiled build
    bool sparks = false;                           // --sparks: -lf (every spark event, not only the sampled counters)
    std::optional<std::uint64_t> rts_interval_ns;  // --interval-rts: -i (the heap census interval)
    std::string rts;  // --rts "…": more RTS options, passed verbatim (split at white space)
};

// "+RTS -l[f] -ol<eventlog> [-hT|-h] [-i<s>] [--rts words] -RTS". Goes before the user's own
// arguments: the RTS reads +RTS anywhere until --RTS, and a later -l still wins.
std::vector<std::string> rts_flags(const RecordRequest& request, bool profiled, const std::string& eventlog);

// Throws el2fx::Error when the user's arguments or GHCRTS (may be null) already choose where
// the eventlog goes (-ol): record could not read it then.
void check_user_rts_options(const std::vector<std::string>& args, const char* ghcrts);

// Nanoseconds as the RTS's seconds ("0.1", "2", "0.0005").
std::string rts_seconds(std::uint64_t ns);

// The command line as a shell would take it back: words quoted only when they need it.
std::string shell_command_line(const std::vector<std::string>& argv);

// White-space separated words.
std::vector<std::string> split_words(const std::string& text);

}  // namespace el2fx::record
