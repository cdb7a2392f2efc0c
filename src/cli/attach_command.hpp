// `eventlog2fxprof attach SOCKET|FIFO|HOST:PORT|- [--duration TIME] [-o FILE]`: records the
// eventlog a running program streams (eventlog-socket's Unix socket or TCP port, a FIFO it
// writes with -ol, or standard input) until Ctrl-C, the duration or the end of the stream,
// then converts it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "cli/record_command.hpp"
#include "record/tcp_endpoint.hpp"

namespace el2fx::cli {

struct AttachCommand {
    std::string source;                        // a Unix socket, a FIFO, HOST:PORT, or "-"
    std::optional<std::uint64_t> duration_ns;  // none: until Ctrl-C or the end of the stream
    RecordingOutput output;                    // open defaults to false for attach
};

// kOk (kDataLoss under --strict when data was lost), kRecordError when nothing came,
// kUsageError for a bad source. Messages go to `err`.
int run_attach(const AttachCommand& command, std::FILE* out, std::FILE* err);

// "SOCKET.json.gz" in the current directory, without the socket's extension ("app.sock" →
// "app.json.gz"); throws el2fx::Error for "-".
std::string attach_output_path(const std::string& source);
// "HOST-PORT.json.gz" in the current directory ("localhost-4242.json.gz"; an IPv6 address's
// colons become underscores: "__1-4242.json.gz").
std::string attach_output_path(const record::TcpEndpoint& endpoint);

// The TCP endpoint that `source` names, or nullopt for a path ("-" too). Anything that exists
// in the file system is a path, even when it reads as HOST:PORT ("host:1" in the current
// directory); a text with a '/' is always a path ("./host:1"); otherwise HOST:PORT with a
// numeric port is TCP. Throws el2fx::Error for HOST:PORT that cannot be one (port 0, "::1:80").
std::optional<record::TcpEndpoint> attach_tcp_endpoint(const std::string& source);

}  // namespace el2fx::cli
