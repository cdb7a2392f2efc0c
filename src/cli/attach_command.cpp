#include "cli/attach_command.hpp"

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/exit_codes.hpp"
#include "record/private_dir.hpp"
#include "record/stream_capture.hpp"
#include "record/tcp_connect.hpp"
#include "util/error.hpp"

namespace el2fx::cli {

std::string attach_output_path(const std::string& source) {
    if (source == "-") throw Error("reading standard input: say where the profile goes with -o FILE");
    std::string name = source;
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    if (const std::size_t slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
    if (const std::size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) name = name.substr(0, dot);
    return name + ".json.gz";
}

std::string attach_output_path(const record::TcpEndpoint& endpoint) {
    std::string host = endpoint.host;
    for (char& c : host)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
    return host + "-" + endpoint.port + ".json.gz";
}

std::optional<record::TcpEndpoint> attach_tcp_endpoint(const std::string& source) {
    struct stat st {};
    if (source == "-" || ::lstat(source.c_str(), &st) == 0) return std::nullopt;
    return record::parse_tcp_endpoint(source);
}

int run_attach(const AttachCommand& command, std::FILE* out, std::FILE* err) {
    (void)out;
    std::optional<record::TcpEndpoint> endpoint;
    try {
        endpoint = attach_tcp_endpoint(command.source);
    } catch (const Error& e) {
        std::fprintf(err, "eventlog2fxprof: error: %s\n", e.what());
        return kUsageError;
    }
    const std::string output = !command.output.output.empty() ? command.output.output
                               : endpoint                     ? attach_output_path(*endpoint)
                                                              : attach_output_path(command.source);
    if (command.output.open && output == "-") {
        std::fputs("eventlog2fxprof: --open needs a file to serve, not -o -\n", err);
        return kUsageError;
    }
    const std::string display = command.source == "-" ? "(standard input)"
                                : endpoint            ? endpoint->text()
                                                      : command.source;
    // What kind of stream: a TCP port or a socket to connect to, a FIFO to read, standard input.
    int in = STDIN_FILENO;
    bool owned = false;
    if (endpoint) {
        try {
            in = record::connect_tcp(*endpoint);
        } catch (const Error& e) {
            std::fprintf(err, "eventlog2fxprof: error: %s\n", e.what());
            return kRecordError;
        }
        owned = true;
    } else if (command.source != "-") {
        struct stat st {};
        if (::stat(command.source.c_str(), &st) == 0 && S_ISFIFO(st.st_mode)) {
            in = record::open_fifo_for_reading(command.source);
        } else if (::stat(command.source.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
            std::fprintf(err,
                         "eventlog2fxprof: error: %s is a file, not a stream: convert it with `eventlog2fxprof %s`\n",
                         command.source.c_str(), command.source.c_str());
            return kUsageError;
        } else {
            try {
                in = record::connect_unix_socket(command.source);
            } catch (const Error& e) {
                std::fprintf(err, "eventlog2fxprof: error: %s\n", e.what());
                return kRecordError;
            }
        }
        owned = true;
    }
    std::optional<recording::SignalPhases> signals(std::in_place, recording::SignalPhases::kConverting);
    std::optional<record::PrivateDir> dir(std::in_place);
    const std::string spool = dir->file("eventlog");
    const int spool_fd = ::open(spool.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (spool_fd < 0) {
        if (owned) ::close(in);
        throw Error(std::string("cannot make the spool file: ") + std::strerror(errno), {spool, std::nullopt, {}});
    }
    if (!command.output.quiet) {
        std::fprintf(err, "eventlog2fxprof: recording %s", display.c_str());
        if (command.duration_ns) std::fprintf(err, " for %.3g s", static_cast<double>(*command.duration_ns) / 1e9);
        std::fputs(" (Ctrl-C to stop)\n", err);
        std::fflush(err);
    }
    signals->set(recording::SignalPhases::kAttaching);
    const auto start = std::chrono::steady_clock::now();
    const auto deadline = command.duration_ns ? start + std::chrono::nanoseconds(*command.duration_ns)
                                              : std::chrono::steady_clock::time_point::max();
    record::CaptureResult captured;
    try {
        captured = record::capture_stream(
            in, spool_fd, spool,
            [&] { return recording::SignalPhases::stop_requested() || std::chrono::steady_clock::now() >= deadline; },
            50, true);
    } catch (...) {
        if (owned) ::close(in);
        ::close(spool_fd);
        throw;
    }
    signals->set(recording::SignalPhases::kConverting);
    if (owned) ::close(in);  // the program's RTS sees the client go
    ::close(spool_fd);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (captured.bytes == 0) {
        std::fprintf(err, "eventlog2fxprof: error: %s sent no eventlog in %.1f s: %s\n", display.c_str(), seconds,
                     command.source == "-" ? "pipe an eventlog in, e.g. from a program run with +RTS -l -ol/dev/stdout"
                     : endpoint ? "is the program running with its eventlog enabled (+RTS -l) and serving this port? "
                                  "(eventlog-socket serves one client at a time: is another one attached?)"
                                : "is the program running with its eventlog enabled (+RTS -l) and serving this path?");
        return kRecordError;
    }
    if (!command.output.quiet)
        std::fprintf(err, "eventlog2fxprof: %s %llu bytes in %.1f s; converting\n",
                     captured.end_of_stream ? "the stream ended after" : "recorded",
                     static_cast<unsigned long long>(captured.bytes), seconds);
    if (!captured.end_of_stream && !command.output.quiet)
        std::fputs(
            "eventlog2fxprof: the window ends where the program's stream goes on: the eventlog is converted "
            "as a truncated log (the warning below)\n",
            err);
    if (captured.skipped && !command.output.quiet)
        std::fprintf(err,
                     "eventlog2fxprof: left out %llu bytes before the eventlog's header (GHC 9.0 sends a "
                     "stray block marker when it restarts its eventlog for a new client)\n",
                     static_cast<unsigned long long>(captured.skipped));
    RecordingOutput settings = command.output;
    const int converted = recording::convert_spool(spool, display, output, settings, err, true);
    dir.reset();
    signals.reset();
    if (converted != kOk) return converted;
    if (settings.open) {
        ServeCommand serve = settings.serve;
        serve.files = {output};
        return run_serve(serve, err, err);
    }
    return kOk;
}

}  // namespace el2fx::cli
