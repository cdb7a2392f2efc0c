// A TCP server for the attach tests, on a loopback address only (127.0.0.1 or ::1) and a port
// the kernel chooses: it serves some bytes to one client, as eventlog-socket's TCP mode does
// (the eventlog from the first byte, nothing read from the client), then ends the connection
// as asked. Never anything but loopback: the tests send no traffic off this machine.
#pragma once

#include <arpa/inet.h>
#include <atomic>
#include <cstring>
#include <netinet/in.h>
#include <string>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <linux/sockios.h>

namespace el2fx::testing {

class LoopbackServer {
public:
    enum class End {
        close,  // FIN after the bytes: the program exited (or the stream was cut there)
        hold,   // keep the connection open, silent, for `hold` seconds: a program still running
        reset,  // RST once the client has the bytes: the connection reset mid-stream
    };

    // `family`: AF_INET (127.0.0.1) or AF_INET6 (::1). ok() is false when that loopback
    // address cannot be bound here (no IPv6).
    LoopbackServer(int family, std::string bytes, End end, double hold = 0) {
        fd_ = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd_ < 0) return;
        sockaddr_storage addr = loopback(family, 0);
        socklen_t size = sizeof addr;
        if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), length(family)) != 0 || ::listen(fd_, 1) != 0 ||
            ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &size) != 0) {
            ::close(fd_);
            fd_ = -1;
            return;
        }
        port_ = ntohs(family == AF_INET ? reinterpret_cast<sockaddr_in&>(addr).sin_port
                                        : reinterpret_cast<sockaddr_in6&>(addr).sin6_port);
        thread_ = std::thread([this, bytes = std::move(bytes), end, hold] { serve(bytes, end, hold); });
    }
    ~LoopbackServer() {
        stop_ = true;
        if (fd_ >= 0) ::shutdown(fd_, SHUT_RDWR);  // wakes accept
        if (thread_.joinable()) thread_.join();
        if (fd_ >= 0) ::close(fd_);
    }
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;

    bool ok() const { return fd_ >= 0; }
    int port() const { return port_; }
    // Whether every byte has gone to the client (into its kernel's buffers, at least).
    bool sent() const { return sent_; }

    // A loopback port that nothing listens on: bound by the kernel's choice, then closed.
    static int closed_port(int family = AF_INET) {
        const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_storage addr = loopback(family, 0);
        socklen_t size = sizeof addr;
        int port = 0;
        if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&addr), length(family)) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size) == 0)
            port = ntohs(family == AF_INET ? reinterpret_cast<sockaddr_in&>(addr).sin_port
                                           : reinterpret_cast<sockaddr_in6&>(addr).sin6_port);
        if (fd >= 0) ::close(fd);
        return port;
    }

private:
    static sockaddr_storage loopback(int family, int port) {
        sockaddr_storage addr{};
        if (family == AF_INET) {
            auto& in = reinterpret_cast<sockaddr_in&>(addr);
            in.sin_family = AF_INET;
            in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            in.sin_port = htons(static_cast<std::uint16_t>(port));
        } else {
            auto& in6 = reinterpret_cast<sockaddr_in6&>(addr);
            in6.sin6_family = AF_INET6;
            in6.sin6_addr = in6addr_loopback;
            in6.sin6_port = htons(static_cast<std::uint16_t>(port));
        }
        return addr;
    }
    static socklen_t length(int family) { return family == AF_INET ? sizeof(sockaddr_in) : sizeof(sockaddr_in6); }

    void serve(const std::string& bytes, End end, double hold) {
        const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
        if (c < 0) return;
        std::size_t at = 0;
        while (at < bytes.size()) {
            const ssize_t w = ::send(c, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
            if (w <= 0) break;
            at += static_cast<std::size_t>(w);
        }
        sent_ = at == bytes.size();
        if (end == End::hold)
            for (int i = 0; i < hold * 100 && !stop_; ++i) ::usleep(10000);
        if (end == End::reset) {
            // Once the client's kernel has everything (nothing left unacknowledged), and the
            // client a moment to read it, the reset is what ends the stream.
            int unsent = 1;
            for (int i = 0; i < 1000 && !stop_ && ::ioctl(c, SIOCOUTQ, &unsent) == 0 && unsent > 0; ++i)
                ::usleep(10000);
            ::usleep(300000);
            const linger abort{1, 0};
            ::setsockopt(c, SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
        }
        ::close(c);
    }

    int fd_ = -1;
    int port_ = 0;
    std::atomic<bool> stop_{false};
    std::atomic<bool> sent_{false};
    std::thread thread_;
};

}  // namespace el2fx::testing
