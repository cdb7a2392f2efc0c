// A raw-socket HTTP/1.1 client for the server tests: loopback only, every read and
// write bounded by a timeout.
#pragma once

#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <netinet/in.h>
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace el2fx::testing {

struct HttpResponse {
    int status = 0;
    std::string status_line;
    std::map<std::string, std::string> headers;  // names in lower case
    std::string body;
    std::string header(const std::string& name) const {
        auto it = headers.find(name);
        return it == headers.end() ? "<none>" : it->second;
    }
};

class Socket {
public:
    explicit Socket(std::uint16_t port, int timeout_ms = 5000) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        if (fd_ < 0) throw std::runtime_error("socket");
        timeval tv{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
    }
    ~Socket() {
        if (fd_ >= 0) ::close(fd_);
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;

    void send(std::string_view data) {
        while (!data.empty()) {
            ssize_t w = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
            if (w <= 0) throw std::runtime_error("send failed");
            data.remove_prefix(static_cast<std::size_t>(w));
        }
    }

    // Reads more into the buffer; false at the end of the stream (or a reset).
    bool fill() {
        char buf[65536];
        ssize_t r = ::recv(fd_, buf, sizeof buf, 0);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) throw std::runtime_error("read timed out");
        if (r <= 0) return false;
        buffer_.append(buf, static_cast<std::size_t>(r));
        return true;
    }

    // One response; `no_body`: an answer to HEAD.
    HttpResponse read_response(bool no_body = false) {
        std::size_t end;
        while ((end = buffer_.find("\r\n\r\n")) == std::string::npos)
            if (!fill()) throw std::runtime_error("connection closed before a response head: [" + buffer_ + "]");
        HttpResponse r;
        std::string head = buffer_.substr(0, end + 2);
        buffer_.erase(0, end + 4);
        std::size_t eol = head.find("\r\n");
        r.status_line = head.substr(0, eol);
        if (r.status_line.rfind("HTTP/1.1 ", 0) != 0) throw std::runtime_error("bad status line " + r.status_line);
        r.status = std::stoi(r.status_line.substr(9, 3));
        for (std::size_t pos = eol + 2; pos < head.size();) {
            std::size_t next = head.find("\r\n", pos);
            std::string line = head.substr(pos, next - pos);
            std::size_t colon = line.find(':');
            std::string name = line.substr(0, colon);
            for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            std::size_t v = line.find_first_not_of(' ', colon + 1);
            r.headers[name] = v == std::string::npos ? "" : line.substr(v);
            pos = next + 2;
        }
        std::size_t length = 0;
        if (!no_body && r.status != 204 && r.headers.count("content-length"))
            length = std::stoull(r.headers["content-length"]);
        while (buffer_.size() < length)
            if (!fill()) throw std::runtime_error("connection closed in the body");
        r.body = buffer_.substr(0, length);
        buffer_.erase(0, length);
        return r;
    }

    // True when the server closes the connection (nothing more to read) in time.
    bool closed_by_server() {
        try {
            while (fill()) {}
            return true;
        } catch (const std::runtime_error&) {
            return false;
        }
    }

    const std::string& buffered() const { return buffer_; }

private:
    int fd_ = -1;
    std::string buffer_;
};

// One request on its own connection.
inline HttpResponse http_exchange(std::uint16_t port, const std::string& request, bool no_body = false) {
    Socket s(port);
    s.send(request);
    return s.read_response(no_body);
}

}  // namespace el2fx::testing
