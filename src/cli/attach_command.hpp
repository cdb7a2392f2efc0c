// `eventlog2fxprof attach SOCKET|FIFO|- [--duration TIME] [-o FILE]`: records the eventlog a
// running program streams (eventlog-socket's Unix socket, a FIFO it writes with -ol, or
// standard input) until Ctrl-C, the duration or the end of the stream, then converts it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "cli/record_command.hpp"

namespace el2fx::cli {

struct AttachCommand {
    std::string source;                        // a Unix socket, a FIFO, or "-"
    std::optional<std::uint64_t> duration_ns;  // none: until Ctrl-C or the end of the stream
    RecordingOutput output;                    // open defaults to false for attach
};

// kOk (kDataLoss under --strict when data was lost), kRecordError when nothing came,
// kUsageError for a bad source. Messages go to `err`.
int run_attach(const AttachCommand& command, std::FILE* out, std::FILE* err);

// "SOCKET.json.gz" in the current directory, without the socket's extension ("app.sock" →
// "app.json.gz"); throws el2fx::Error for "-".
std::string attach_output_path(const std::string& source);

}  // namespace el2fx::cli
