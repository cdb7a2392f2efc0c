#include "record/tcp_connect.hpp"

#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/error.hpp"

namespace el2fx::record {
namespace {

// An address as getaddrinfo gave it, numeric ("127.0.0.1", "::1"), for the error message.
std::string numeric_host(const addrinfo& a) {
    char host[NI_MAXHOST] = "?";
    ::getnameinfo(a.ai_addr, a.ai_addrlen, host, sizeof host, nullptr, 0, NI_NUMERICHOST);
    return host;
}

// 0 when connected, else the errno of the failure (ETIMEDOUT when it took too long).
int connect_one(const addrinfo& a, int timeout_ms, int& fd) {
    fd = ::socket(a.ai_family, a.ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a.ai_protocol);
    if (fd < 0) return errno;
    int error = 0;
    if (::connect(fd, a.ai_addr, a.ai_addrlen) != 0) {
        error = errno;
        if (error == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            int n;
            do n = ::poll(&p, 1, timeout_ms);  // a signal restarts the wait: rare, and bounded anyway
            while (n < 0 && errno == EINTR);
            socklen_t size = sizeof error;
            if (n == 0)
                error = ETIMEDOUT;
            else if (n < 0 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0)
                error = errno;
        }
    }
    if (error != 0) {
        ::close(fd);
        fd = -1;
    }
    return error;
}

std::string connect_advice(int error, int timeout_ms) {
    switch (error) {
        case ECONNREFUSED:
            return "nothing listens on this port (connection refused; the program has exited?): start it with "
                   "eventlog-socket serving TCP on this port, then attach";
        case ETIMEDOUT:
            return "no answer in " + std::to_string(timeout_ms / 1000) +
                   " s (a firewall dropping the connection, or the wrong host?)";
        default: return std::string("cannot connect: ") + std::strerror(error);
    }
}

}  // namespace

int connect_tcp(const TcpEndpoint& endpoint, int timeout_ms) {
    const Error::Context where{endpoint.text(), std::nullopt, {}};
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(endpoint.host.c_str(), endpoint.port.c_str(), &hints, &found); rc != 0) {
        std::string why = rc == EAI_SYSTEM ? std::strerror(errno) : ::gai_strerror(rc);
        throw Error("cannot resolve the host " + endpoint.host + " (" + why + "): check the name, or give its address",
                    where);
    }
    // eventlog-socket listens on the first address its host resolves to, so "localhost" may be
    // served on ::1 or on 127.0.0.1 only: every address is tried.
    int fd = -1, error = 0, tried = 0;
    std::string addresses;
    for (const addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        const int e = connect_one(*a, timeout_ms, fd);
        if (fd >= 0) break;
        ++tried;
        if (!addresses.empty()) addresses += ", ";
        addresses += numeric_host(*a);
        // What the user can act on wins: refused says the program is not there.
        if (error != ECONNREFUSED) error = e;
    }
    ::freeaddrinfo(found);
    if (fd >= 0) return fd;
    std::string message = connect_advice(error, timeout_ms);
    if (tried > 1) message += " (tried " + addresses + ")";
    throw Error(message, where);
}

}  // namespace el2fx::record
