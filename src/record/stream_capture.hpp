// Copies an eventlog arriving through a FIFO, a Unix socket or a pipe into a spool file while
// the program runs, so that the converter (which needs a seekable file) can read it afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace el2fx::record {

struct CaptureResult {
    std::uint64_t bytes = 0;     // copied into the spool file
    bool end_of_stream = false;  // the writer closed it (else: stopped by the callback)
    std::uint64_t skipped = 0;   // bytes left out before the header (see capture_stream)
};

// How far into a stream the header may start. GHC 9.0's RTS, restarting its eventlog for a new
// client (endEventLogging, startEventLogging: what eventlog-socket does), sends the global
// buffer's fresh block marker (24 bytes) before the header.
constexpr std::size_t kHeaderSearchBytes = 64;

// Opens `fifo` for reading without blocking (a FIFO whose writer never comes must not hang
// us). The descriptor is non-blocking and close-on-exec. Throws el2fx::Error.
int open_fifo_for_reading(const std::string& fifo);

// Connects to a Unix domain socket (as served by eventlog-socket). Throws el2fx::Error with
// what to do (no such socket, nobody listening, not a socket).
int connect_unix_socket(const std::string& path);

// Reads `in` (made non-blocking here) into `spool_fd` until end of stream, or until
// `should_stop()` returns true; it is asked after every wake-up, at least every `tick_ms`.
// When it says stop, what is already readable is still copied (without waiting for more).
// A FIFO that no writer has opened yet counts as empty, not ended, while no byte came.
// `spool_name` names the spool file in errors. Throws el2fx::Error on a read or write error.
// With `find_header`, bytes before a "hdrb" within the first kHeaderSearchBytes are left out
// (counted in `skipped`); without one there, the stream is copied whole.
CaptureResult capture_stream(int in, int spool_fd, const std::string& spool_name,
                             const std::function<bool()>& should_stop, int tick_ms = 50, bool find_header = false);

}  // namespace el2fx::record
