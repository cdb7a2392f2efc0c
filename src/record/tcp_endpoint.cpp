#include "record/tcp_endpoint.hpp"

#include "util/error.hpp"

namespace el2fx::record {

std::string TcpEndpoint::text() const {
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

std::optional<TcpEndpoint> parse_tcp_endpoint(const std::string& text) {
    if (text.find('/') != std::string::npos) return std::nullopt;
    const std::size_t colon = text.rfind(':');
    if (colon == std::string::npos) return std::nullopt;
    const std::string port = text.substr(colon + 1);
    if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    std::string host = text.substr(0, colon);
    const Error::Context where{text, std::nullopt, {}};
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string::npos) {
        throw Error("an IPv6 address needs brackets before the port: [" + host + "]:" + port, where);
    }
    if (host.empty()) throw Error("no host before the port: write HOST:PORT, e.g. 127.0.0.1:" + port, where);
    // Leading zeros are allowed, so only the digits that count are compared.
    const std::size_t first = port.find_first_not_of('0');
    const std::string digits = first == std::string::npos ? "0" : port.substr(first);
    if (digits == "0" || digits.size() > 5 || std::stoul(digits) > 65535)
        throw Error("the port must be 1 to 65535", where);
    return TcpEndpoint{host, digits};
}

}  // namespace el2fx::record
