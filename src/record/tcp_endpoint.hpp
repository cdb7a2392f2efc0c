// HOST:PORT as `attach` takes it for eventlog-socket's TCP mode: "127.0.0.1:4242",
// "localhost:4242", "[::1]:4242". Syntax only: whether the text names an existing file (which
// wins) is the caller's question, and resolving the host is tcp_connect's.
#pragma once

#include <optional>
#include <string>

namespace el2fx::record {

struct TcpEndpoint {
    std::string host;  // without brackets: "::1"
    std::string port;  // decimal, 1 to 65535
    // As the user writes it: "[::1]:4242" for an IPv6 address, else "host:4242".
    std::string text() const;
};

// nullopt when `text` is not HOST:PORT: it holds a '/' (a path: "./host:1"), has no ':', or the
// part after the last ':' is not all digits. Throws el2fx::Error (naming the text) for what
// is meant as HOST:PORT but cannot be one: a port of 0 or over 65535, an empty host, or an
// IPv6 address without its brackets ("::1:4242").
std::optional<TcpEndpoint> parse_tcp_endpoint(const std::string& text);

}  // namespace el2fx::record
