#include "record/stream_capture.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <vector>

#include "util/error.hpp"

namespace el2fx::record {
namespace {

void write_all(int fd, const char* data, std::size_t size, const std::string& name) {
    while (size > 0) {
        const ssize_t w = ::write(fd, data, size);
        if (w < 0) {
            if (errno == EINTR) continue;
            throw Error(std::string("writing the recorded eventlog: ") + std::strerror(errno) +
                            (errno == ENOSPC ? " (set TMPDIR to a file system with room for the eventlog)" : ""),
                        {name, std::nullopt, {}});
        }
        data += w;
        size -= static_cast<std::size_t>(w);
    }
}

}  // namespace

int open_fifo_for_reading(const std::string& fifo) {
    const int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw Error(std::string("cannot open the FIFO: ") + std::strerror(errno), {fifo, std::nullopt, {}});
    return fd;
}

int connect_unix_socket(const std::string& path) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path)
        throw Error("the socket's path is longer than a Unix socket path may be (" +
                        std::to_string(sizeof addr.sun_path - 1) + " bytes): use a shorter path or a symbolic link",
                    {path, std::nullopt, {}});
    std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw Error(std::string("cannot make a socket: ") + std::strerror(errno));
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
        const int e = errno;
        ::close(fd);
        if (e == ENOENT)
            throw Error("no such socket: start the program with eventlog-socket serving on this path first",
                        {path, std::nullopt, {}});
        if (e == ECONNREFUSED)
            throw Error("nothing listens on this socket (the program has exited?): restart it, then attach",
                        {path, std::nullopt, {}});
        if (e == ENOTSOCK)
            throw Error("not a socket: give the path that eventlog-socket serves on, a FIFO, or - for standard input",
                        {path, std::nullopt, {}});
        throw Error(std::string("cannot connect: ") + std::strerror(e), {path, std::nullopt, {}});
    }
    return fd;
}

CaptureResult capture_stream(int in, int spool_fd, const std::string& spool_name,
                             const std::function<bool()>& should_stop, int tick_ms, bool find_header) {
    const int flags = ::fcntl(in, F_GETFL);
    if (flags >= 0) ::fcntl(in, F_SETFL, flags | O_NONBLOCK);
    struct stat st {};
    const bool fifo = ::fstat(in, &st) == 0 && S_ISFIFO(st.st_mode);
    CaptureResult result;
    std::vector<char> buffer(1 << 16);
    // The stream's first bytes, held back until the header is found (find_header).
    std::string head;
    bool searching = find_header;
    auto settle_head = [&](bool at_end) {
        if (!searching) return;
        const std::size_t at = head.find("hdrb");
        if (at == std::string::npos && head.size() < kHeaderSearchBytes + 4 && !at_end) return;
        const std::size_t from = at == std::string::npos || at > kHeaderSearchBytes ? 0 : at;
        result.skipped = from;
        write_all(spool_fd, head.data() + from, head.size() - from, spool_name);
        head.clear();
        searching = false;
    };
    auto store = [&](const char* data, std::size_t size) {
        if (searching) {
            head.append(data, size);
            settle_head(false);
        } else {
            write_all(spool_fd, data, size, spool_name);
        }
    };
    // Reads what is readable now. Returns false at end of stream.
    auto drain = [&](bool hangup) -> bool {
        for (;;) {
            const ssize_t r = ::read(in, buffer.data(), buffer.size());
            if (r > 0) {
                store(buffer.data(), static_cast<std::size_t>(r));
                result.bytes += static_cast<std::uint64_t>(r);
                continue;
            }
            if (r == 0) {
                // A FIFO reads as ended while no writer has come yet: only data proves one came.
                // (A pipe or socket has its writer from the start.)
                // POLLHUP says one came and went without writing anything.
                if (fifo && result.bytes == 0 && !hangup) return true;
                return false;
            }
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return true;
            if (errno == ECONNRESET) return false;  // the program went away: what came is kept
            throw Error(std::string("reading the eventlog stream: ") + std::strerror(errno));
        }
    };
    for (;;) {
        pollfd p{in, POLLIN, 0};
        const int n = ::poll(&p, 1, tick_ms);
        if (n < 0 && errno != EINTR)
            throw Error(std::string("waiting for the eventlog stream: ") + std::strerror(errno));
        if (n > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
            if (!drain((p.revents & POLLHUP) != 0)) {
                result.end_of_stream = true;
                settle_head(true);
                return result;
            }
        }
        if (should_stop()) {
            if (!drain(false)) result.end_of_stream = true;
            settle_head(true);
            return result;
        }
    }
}

}  // namespace el2fx::record
