// Connecting to the TCP port that eventlog-socket (0.1.1.0 and later) serves the eventlog on:
// the same stream as its Unix socket, sent as soon as the program accepts the client.
#pragma once

#include "record/tcp_endpoint.hpp"

namespace el2fx::record {

// How long one address may take to answer: a host that drops the connection attempt unanswered
// must not hang attach (loopback and a listening or closed port answer at once).
constexpr int kTcpConnectTimeoutMs = 10'000;

// Resolves the endpoint's host (getaddrinfo: IPv4 and IPv6, a name or a numeric address) and
// tries each address in turn, each for at most `timeout_ms`; returns the first connected
// descriptor (non-blocking, close-on-exec). Throws el2fx::Error located at endpoint.text()
// with what to do: a host that does not resolve, nothing listening on the port, no answer.
int connect_tcp(const TcpEndpoint& endpoint, int timeout_ms = kTcpConnectTimeoutMs);

}  // namespace el2fx::record
