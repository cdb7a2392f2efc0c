// A small HTTP/1.1 server for profile files, in the manner of `samply load`: one thread,
// poll(2) over non-blocking sockets, many connections (keep-alive, pipelining), bounded
// request heads, timeouts for slow or idle clients, files streamed in chunks. It listens
// on loopback unless told otherwise and answers as responder.hpp decides.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "serve/responder.hpp"
#include "sources/source_roots.hpp"

namespace el2fx::serve {

struct ServerOptions {
    std::string address = "127.0.0.1";                  // a numeric IPv4 or IPv6 address
    std::optional<std::uint16_t> port;                  // exactly this port (0: any free one)…
    std::uint16_t first_port = 3000;                    // …else the first free one from here,
    unsigned port_tries = 100;                          // among this many
    std::chrono::milliseconds request_timeout{10'000};  // for a request head; idle keep-alive
    std::chrono::milliseconds send_timeout{30'000};     // without progress while sending
    std::size_t max_connections = 64;
    // --sources: the profiler's /source/v1 queries are answered from these (empty: 404).
    sources::SourceRoots sources{};
};

class Server {
public:
    // Listens (throws el2fx::Error when it cannot). The files are not opened yet.
    Server(ServerOptions options, std::vector<ServedFile> files);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    std::uint16_t port() const { return port_; }
    // "http://127.0.0.1:3000"; "[…]" around IPv6; a loopback address when listening on all.
    std::string origin() const;
    bool loopback_only() const { return loopback_; }
    const std::vector<ServedFile>& files() const { return files_; }

    // Answers requests until `stop_fd` becomes readable or is closed at the other end,
    // then closes every connection and stops listening (so run once). Writes one line per answer to `log` (may be
    // null):
    // "<client> <method> <path> <status> <body bytes sent>", the secret part of a served
    // path shortened to its first 4 characters and "…". Throws el2fx::Error when poll(2)
    // itself fails. At max_connections, a new client takes the place of the connection that
    // has waited longest for a request with nothing received.
    void run(int stop_fd, std::FILE* log);

private:
    struct Connection;
    void accept_all();
    void on_readable(Connection& c);
    void on_writable(Connection& c);
    void on_input(Connection& c);
    void start_answer(Connection& c, Answer answer, std::string method, std::string path, std::string_view problem);
    void finish_answer(Connection& c, bool completed);
    void close_connection(Connection& c);
    void log_answer(const Connection& c, bool completed);
    std::size_t open_connections() const;
    Connection* oldest_idle();
    std::string without_secrets(std::string text) const;

    ServerOptions options_;
    std::vector<ServedFile> files_;
    int listen_fd_ = -1;
    std::uint16_t port_ = 0;
    bool ipv6_ = false;
    bool loopback_ = true;
    std::vector<std::unique_ptr<Connection>> connections_;
    std::FILE* log_ = nullptr;
    std::chrono::steady_clock::time_point accept_paused_until_{};  // after EMFILE and the like
};

}  // namespace el2fx::serve
