// The head of an HTTP/1.x request, parsed defensively: bounded in size and in the number
// of headers, strict about its grammar (RFC 9112), refusing what this server never needs
// (request bodies except a small one with POST and Content-Length, chunked bodies, folded
// header lines, versions other than 1.x). Pure: no sockets.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace el2fx::serve {

inline constexpr std::size_t kMaxHeadSize = 16 * 1024;  // request line and headers
inline constexpr std::size_t kMaxHeaders = 100;
inline constexpr std::size_t kMaxBodySize = 16 * 1024;  // a POST's body (a /source/v1 query)

struct HttpRequest {
    std::string method;     // as sent (methods are case-sensitive)
    std::string target;     // the request-target as sent
    std::string path;       // its path: no query or fragment; "/…" for an absolute-form target
    int minor_version = 1;  // HTTP/1.<minor_version>
    std::vector<std::pair<std::string, std::string>> headers;  // names in lower case, values trimmed
    std::string body;  // a POST's body (the server fills it in once it has arrived)

    // The first header of that name (lower case), or nullptr.
    const std::string* header(std::string_view lower_case_name) const;
    // Whether the client wants the connection kept after the answer (HTTP/1.1 by default).
    bool keep_alive() const;
};

enum class ParseStatus {
    incomplete,  // the blank line that ends the head has not arrived yet
    complete,
    bad_request,            // 400: not HTTP/1.x request syntax
    head_too_large,         // 431: more than kMaxHeadSize bytes or kMaxHeaders headers
    body_not_accepted,      // 413: a body other than a POST's of at most kMaxBodySize bytes, or chunked
    version_not_supported,  // 505: HTTP/2.0 or other majors in an HTTP/1 request line
};

struct ParseResult {
    ParseStatus status = ParseStatus::incomplete;
    std::size_t head_size = 0;  // bytes of the head, blank line included (complete only)
    std::string_view problem;   // what was wrong, for the log
    std::size_t body_size = 0;  // Content-Length of a POST (complete only); it follows the head
};

// Parses the request head at the start of `data`; bytes after it (a pipelined request)
// are left alone. `out` is filled only when the result is complete.
ParseResult parse_request_head(std::string_view data, HttpRequest& out);

}  // namespace el2fx::serve
