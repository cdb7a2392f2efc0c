#include "serve/server.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.hpp"

namespace el2fx::serve {
namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr std::size_t kChunk = 64 * 1024;  // file bytes read and sent at a time
constexpr int kChunksPerWakeup = 16;       // then the other connections get their turn
constexpr auto kDrainTime = 2s;            // reading what a client still sends before closing
constexpr unsigned kMaxRequestsPerConnection = 1000;

Error system_error(const std::string& what, int err) { return Error(what + ": " + std::strerror(err)); }

void make_nonblocking(int fd) {
    int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int fd_flags = ::fcntl(fd, F_GETFD);
    if (fd_flags >= 0) ::fcntl(fd, F_SETFD, fd_flags | FD_CLOEXEC);
}

bool is_loopback(const sockaddr_storage& a) {
    if (a.ss_family == AF_INET) {
        const auto& in = reinterpret_cast<const sockaddr_in&>(a);
        return (ntohl(in.sin_addr.s_addr) >> 24) == 127;
    }
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(a);
    if (IN6_IS_ADDR_LOOPBACK(&in6.sin6_addr)) return true;
    return IN6_IS_ADDR_V4MAPPED(&in6.sin6_addr) && in6.sin6_addr.s6_addr[12] == 127;
}

bool is_unspecified(const sockaddr_storage& a) {
    if (a.ss_family == AF_INET) return reinterpret_cast<const sockaddr_in&>(a).sin_addr.s_addr == htonl(INADDR_ANY);
    return IN6_IS_ADDR_UNSPECIFIED(&reinterpret_cast<const sockaddr_in6&>(a).sin6_addr);
}

void set_port(sockaddr_storage& a, std::uint16_t port) {
    if (a.ss_family == AF_INET)
        reinterpret_cast<sockaddr_in&>(a).sin_port = htons(port);
    else
        reinterpret_cast<sockaddr_in6&>(a).sin6_port = htons(port);
}

std::string address_text(const sockaddr_storage& a) {
    char buf[INET6_ADDRSTRLEN] = "?";
    if (a.ss_family == AF_INET)
        ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(a).sin_addr, buf, sizeof buf);
    else if (a.ss_family == AF_INET6)
        ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(a).sin6_addr, buf, sizeof buf);
    return buf;
}

// What a client sent, safe to print on a terminal: printable ASCII, the rest as \xNN, bounded.
std::string printable(std::string_view s) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (char c : s.substr(0, 300)) {
        auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7F && c != '\\') {
            out += c;
        } else {
            out += "\\x";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        }
    }
    if (s.size() > 300) out += "...";
    return out;
}

}  // namespace

struct Server::Connection {
    enum class State { reading, sending, draining, closed };
    int fd = -1;
    std::string peer;
    State state = State::reading;
    Clock::time_point deadline;
    Clock::time_point idle_since;  // waiting for a request since (reading, nothing received)
    bool peer_done = false;        // the client shut down its side
    bool parse_pending = false;    // `in` may hold a pipelined request
    unsigned requests = 0;
    std::string in;  // received, not yet answered
    // The answer being sent: `out` holds the head (and a short body), then file chunks.
    std::string out;
    std::size_t out_sent = 0;
    std::uint64_t head_size = 0, total_sent = 0;
    int file = -1;
    std::uint64_t file_offset = 0, file_left = 0;
    bool close_after = false;
    std::string method, path, problem;
    int status = 0;
};

Server::Server(ServerOptions options, std::vector<ServedFile> files)
    : options_(std::move(options)), files_(std::move(files)) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE;
    addrinfo* found = nullptr;
    int rc = ::getaddrinfo(options_.address.c_str(), "0", &hints, &found);
    if (rc != 0 || !found)
        throw Error("cannot listen on \"" + options_.address + "\": not a numeric IP address (" + ::gai_strerror(rc) +
                    ")");
    sockaddr_storage address{};
    std::memcpy(&address, found->ai_addr, std::min<std::size_t>(found->ai_addrlen, sizeof address));
    socklen_t address_size = found->ai_addrlen;
    ::freeaddrinfo(found);
    ipv6_ = address.ss_family == AF_INET6;
    loopback_ = is_loopback(address);

    std::vector<std::uint16_t> ports;
    if (options_.port) {
        ports.push_back(*options_.port);
    } else {
        for (unsigned i = 0; i < options_.port_tries && options_.first_port + i <= 65535u; ++i)
            ports.push_back(static_cast<std::uint16_t>(options_.first_port + i));
    }
    int last_error = 0;
    for (std::uint16_t port : ports) {
        int fd = ::socket(address.ss_family, SOCK_STREAM, 0);
        if (fd < 0) throw system_error("cannot make a socket", errno);
        int one = 1;
        // Restarting right after a run must find the port free (TIME_WAIT); another
        // listener on the port still makes bind fail.
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (ipv6_) ::setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        set_port(address, port);
        if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), address_size) == 0 && ::listen(fd, 64) == 0) {
            make_nonblocking(fd);
            sockaddr_storage bound{};
            socklen_t bound_size = sizeof bound;
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &bound_size);
            port_ = ntohs(bound.ss_family == AF_INET ? reinterpret_cast<const sockaddr_in&>(bound).sin_port
                                                     : reinterpret_cast<const sockaddr_in6&>(bound).sin6_port);
            listen_fd_ = fd;
            if (is_unspecified(address)) loopback_ = false;
            return;
        }
        last_error = errno;
        ::close(fd);
        if (last_error != EADDRINUSE || options_.port) break;
    }
    std::string where = options_.address + ":" +
                        (options_.port ? std::to_string(*options_.port)
                                       : std::to_string(ports.front()) + "-" + std::to_string(ports.back()));
    throw system_error("cannot listen on " + where, last_error);
}

Server::~Server() {
    for (auto& c : connections_) close_connection(*c);
    if (listen_fd_ >= 0) ::close(listen_fd_);
}

std::string Server::origin() const {
    std::string host = options_.address;
    if (host == "0.0.0.0") host = "127.0.0.1";
    if (host == "::") host = "::1";
    if (ipv6_) host = "[" + host + "]";
    return "http://" + host + ":" + std::to_string(port_);
}

void Server::run(int stop_fd, std::FILE* log) {
    log_ = log;
    std::vector<pollfd> fds;
    while (true) {
        Clock::time_point now = Clock::now();
        Clock::time_point wake = now + 1h;
        bool pending = false;
        fds.clear();
        fds.push_back({stop_fd, POLLIN, 0});
        // At the cap, a new client takes the place of the connection idle the longest.
        bool room = connections_.size() < options_.max_connections || oldest_idle() != nullptr;
        bool accepting = room && now >= accept_paused_until_;
        if (!accepting && now < accept_paused_until_) wake = std::min(wake, accept_paused_until_);
        fds.push_back({accepting ? listen_fd_ : -1, POLLIN, 0});  // a negative fd is left out by poll
        for (const auto& c : connections_) {
            fds.push_back({c->fd, static_cast<short>(c->state == Connection::State::sending ? POLLOUT : POLLIN), 0});
            wake = std::min(wake, c->deadline);
            pending = pending || c->parse_pending;
        }
        auto wait = std::chrono::ceil<std::chrono::milliseconds>(wake - now).count();
        int timeout = pending ? 0 : static_cast<int>(std::clamp<long long>(wait, 0, 60'000));
        int n = ::poll(fds.data(), static_cast<nfds_t>(fds.size()), timeout);
        if (n < 0) {
            if (errno == EINTR) continue;  // a signal: its handler writes to stop_fd
            throw system_error("poll", errno);
        }
        if (fds[0].revents) break;
        std::size_t polled = connections_.size();
        if (fds[1].revents & POLLIN) accept_all();
        for (std::size_t i = 0; i < polled; ++i) {
            Connection& c = *connections_[i];
            if (c.state == Connection::State::closed) continue;  // evicted by accept_all
            short events = fds[i + 2].revents;
            if (events && c.state == Connection::State::sending)
                on_writable(c);
            else if (events)
                on_readable(c);
            if (c.parse_pending && c.state == Connection::State::reading) {
                c.parse_pending = false;
                on_input(c);
            }
        }
        now = Clock::now();
        for (auto& cp : connections_) {
            Connection& c = *cp;
            if (c.state == Connection::State::closed || now < c.deadline) continue;
            switch (c.state) {
                case Connection::State::reading:
                    // Idle between requests: close quietly. In the middle of one: say so.
                    if (c.in.empty())
                        close_connection(c);
                    else
                        start_answer(c, answer_timeout(), "-", "-", "request head not received in time");
                    break;
                case Connection::State::sending: finish_answer(c, false); break;
                case Connection::State::draining:
                case Connection::State::closed: close_connection(c); break;
            }
        }
        std::erase_if(connections_, [](const auto& c) { return c->state == Connection::State::closed; });
    }
    for (auto& c : connections_) {
        if (c->state == Connection::State::sending) log_answer(*c, false);
        close_connection(*c);
    }
    connections_.clear();
    // Connections still waiting to be accepted are refused, not left hanging.
    ::close(listen_fd_);
    listen_fd_ = -1;
}

std::size_t Server::open_connections() const {
    return static_cast<std::size_t>(std::count_if(connections_.begin(), connections_.end(),
                                                  [](const auto& c) { return c->state != Connection::State::closed; }));
}

// Idle: waiting for a request with nothing of one received (a browser's spare keep-alive
// connection, or a client that connected and said nothing). Connections in the middle of a
// request or an answer are never taken for idle.
Server::Connection* Server::oldest_idle() {
    Connection* oldest = nullptr;
    for (auto& c : connections_)
        if (c->state == Connection::State::reading && c->in.empty() && !c->parse_pending && !c->peer_done &&
            (!oldest || c->idle_since < oldest->idle_since))
            oldest = c.get();
    return oldest;
}

// At the cap (or out of file descriptors), the connection idle the longest is closed to make
// room: idle clients, however many, cannot lock new ones out.
void Server::accept_all() {
    while (true) {
        bool full = open_connections() >= options_.max_connections;
        if (full && !oldest_idle()) return;
        sockaddr_storage peer{};
        socklen_t size = sizeof peer;
        int fd = ::accept(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &size);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EMFILE || errno == ENFILE) {
                if (Connection* idle = oldest_idle()) {
                    close_connection(*idle);
                    continue;
                }
            }
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                accept_paused_until_ = Clock::now() + 100ms;  // no busy loop on a readable listener
            return;
        }
        if (Connection* idle = full ? oldest_idle() : nullptr) close_connection(*idle);
        make_nonblocking(fd);
        auto c = std::make_unique<Connection>();
        c->fd = fd;
        c->peer = address_text(peer);
        c->idle_since = Clock::now();
        c->deadline = c->idle_since + options_.request_timeout;
        connections_.push_back(std::move(c));
    }
}

void Server::on_readable(Connection& c) {
    char buf[16 * 1024];
    std::size_t room = sizeof buf;
    if (c.state == Connection::State::reading) {
        if (c.in.size() > kMaxHeadSize + kMaxBodySize) {  // enough to answer (or refuse) the request
            on_input(c);
            return;
        }
        room = std::min(room, kMaxHeadSize + kMaxBodySize + 1 - c.in.size());
    }
    ssize_t r = ::recv(c.fd, buf, room, 0);
    if (r < 0) {
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) return;
        close_connection(c);  // reset by the peer
        return;
    }
    if (c.state == Connection::State::draining) {
        if (r == 0) close_connection(c);
        return;
    }
    if (r == 0) c.peer_done = true;
    c.in.append(buf, static_cast<std::size_t>(r));
    on_input(c);
}

void Server::on_input(Connection& c) {
    if (c.state != Connection::State::reading) return;
    HttpRequest request;
    ParseResult parsed = c.in.empty() ? ParseResult{} : parse_request_head(c.in, request);
    if (parsed.status == ParseStatus::incomplete) {
        if (c.peer_done) close_connection(c);  // the client left mid-request (or between requests)
        return;
    }
    if (parsed.status != ParseStatus::complete) {
        start_answer(c, answer_unparsable(parsed.status), "-", "-", parsed.problem);
        return;
    }
    if (c.in.size() < parsed.head_size + parsed.body_size) {  // the body is still on its way
        if (c.peer_done) close_connection(c);
        return;
    }
    request.body = c.in.substr(parsed.head_size, parsed.body_size);
    c.in.erase(0, parsed.head_size + parsed.body_size);
    Answer answer = answer_request(request, files_, &options_.sources);
    if (c.peer_done || ++c.requests >= kMaxRequestsPerConnection) answer.close = true;
    start_answer(c, std::move(answer), request.method, request.path, {});
}

void Server::start_answer(Connection& c, Answer answer, std::string method, std::string path,
                          std::string_view problem) {
    std::uint64_t length = answer.body.size();
    if (answer.file) {
        int fd = ::open(answer.file->file.c_str(), O_RDONLY | O_CLOEXEC);
        struct stat st {};
        if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            if (fd >= 0) ::close(fd);
            problem = "cannot open the file";
            answer = answer_unreadable();
            length = answer.body.size();
        } else {
            length = static_cast<std::uint64_t>(st.st_size);
            if (answer.send_body) {
                c.file = fd;
                c.file_offset = 0;
                c.file_left = length;
            } else {
                ::close(fd);
            }
        }
    }
    c.out = answer.head(length);
    c.head_size = c.out.size();
    if (answer.send_body && !answer.file) c.out += answer.body;
    c.out_sent = 0;
    c.total_sent = 0;
    c.status = answer.status;
    c.method = std::move(method);
    c.path = std::move(path);
    c.problem = problem;
    c.close_after = answer.close;
    c.state = Connection::State::sending;
    c.deadline = Clock::now() + options_.send_timeout;
    on_writable(c);
}

void Server::on_writable(Connection& c) {
    for (int round = 0; round < kChunksPerWakeup;) {
        if (c.out_sent == c.out.size()) {
            if (c.file_left == 0) {
                finish_answer(c, true);
                return;
            }
            c.out.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, c.file_left)));
            ssize_t r = ::pread(c.file, c.out.data(), c.out.size(), static_cast<off_t>(c.file_offset));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) {  // the file shrank under us, or cannot be read
                finish_answer(c, false);
                return;
            }
            c.out.resize(static_cast<std::size_t>(r));
            c.out_sent = 0;
            c.file_offset += static_cast<std::uint64_t>(r);
            c.file_left -= static_cast<std::uint64_t>(r);
            ++round;
        }
        ssize_t w = ::send(c.fd, c.out.data() + c.out_sent, c.out.size() - c.out_sent, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            finish_answer(c, false);  // the client went away
            return;
        }
        c.out_sent += static_cast<std::size_t>(w);
        c.total_sent += static_cast<std::uint64_t>(w);
        c.deadline = Clock::now() + options_.send_timeout;
    }
}

void Server::finish_answer(Connection& c, bool completed) {
    log_answer(c, completed);
    if (c.file >= 0) ::close(c.file);
    c.file = -1;
    c.file_left = 0;
    c.out.clear();
    c.out.shrink_to_fit();
    c.out_sent = 0;
    if (!completed) {
        close_connection(c);
        return;
    }
    if (c.close_after) {
        // Half-close, then read what the client still sends for a moment: closing with
        // unread data would reset the connection and could lose the answer's end.
        ::shutdown(c.fd, SHUT_WR);
        c.in.clear();
        c.state = Connection::State::draining;
        c.deadline = Clock::now() + kDrainTime;
        return;
    }
    c.state = Connection::State::reading;
    c.idle_since = Clock::now();
    c.deadline = c.idle_since + options_.request_timeout;
    c.parse_pending = !c.in.empty() || c.peer_done;
}

void Server::close_connection(Connection& c) {
    if (c.file >= 0) ::close(c.file);
    c.file = -1;
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
    c.state = Connection::State::closed;
}

void Server::log_answer(const Connection& c, bool completed) {
    if (!log_) return;
    std::uint64_t body = c.total_sent > c.head_size ? c.total_sent - c.head_size : 0;
    std::string line = c.peer + " " + printable(c.method) + " " + without_secrets(printable(c.path)) + " " +
                       std::to_string(c.status) + " " + std::to_string(body);
    if (!c.problem.empty()) line += " (" + c.problem + ")";
    if (!completed) line += " (aborted)";
    std::fprintf(log_, "%s\n", line.c_str());
    std::fflush(log_);
}

// The log may be seen by others (a shared terminal, a CI log): the secret path shows as its
// first 4 characters and "…", enough to tell files apart.
std::string Server::without_secrets(std::string text) const {
    for (const ServedFile& f : files_) {
        const std::size_t end = f.url_path.find('/', 1);
        if (end == std::string::npos || end < 2) continue;
        const std::string token = f.url_path.substr(1, end - 1);
        const std::string shown = token.substr(0, 4) + "\u2026";
        for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + shown.size()))
            text.replace(at, token.size(), shown);
    }
    return text;
}

}  // namespace el2fx::serve
