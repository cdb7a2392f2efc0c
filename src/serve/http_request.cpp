#include "serve/http_request.hpp"

#include <optional>

namespace el2fx::serve {
namespace {

// RFC 9110 tchar.
bool is_tchar(char c) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
    return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

ParseResult fail(ParseStatus status, std::string_view problem) { return {status, 0, problem}; }

// Where the head ends (after its blank line), or npos. Lines end in CRLF or a bare LF.
std::size_t head_end(std::string_view data) {
    std::size_t from = 0;
    while (true) {
        std::size_t lf = data.find('\n', from);
        if (lf == std::string_view::npos) return std::string_view::npos;
        std::size_t next = lf + 1;
        if (next < data.size() && data[next] == '\n') return next + 1;
        if (next + 1 < data.size() && data[next] == '\r' && data[next + 1] == '\n') return next + 2;
        from = next;
    }
}

// The path of a request-target, or nullopt when it is not one this server understands.
std::optional<std::string> target_path(std::string_view target, std::string_view method) {
    if (target == "*") {
        if (method != "OPTIONS") return std::nullopt;
        return std::string(target);
    }
    if (target.front() != '/') {  // absolute-form: "http://host:port/path?query"
        constexpr std::string_view scheme = "http://";
        if (target.size() < scheme.size() || !iequals(target.substr(0, scheme.size()), scheme)) return std::nullopt;
        std::string_view rest = target.substr(scheme.size());
        std::size_t slash = rest.find_first_of("/?#");
        if (slash == 0) return std::nullopt;  // no host
        target = slash == std::string_view::npos || rest[slash] != '/' ? std::string_view("/") : rest.substr(slash);
    }
    std::size_t end = target.find_first_of("?#");
    return std::string(target.substr(0, end));
}

}  // namespace

const std::string* HttpRequest::header(std::string_view name) const {
    for (const auto& [key, value] : headers)
        if (key == name) return &value;
    return nullptr;
}

bool HttpRequest::keep_alive() const {
    bool close = false, keep = false;
    for (const auto& [key, value] : headers) {
        if (key != "connection") continue;
        std::string_view rest = value;
        while (!rest.empty()) {
            std::size_t comma = rest.find(',');
            std::string_view token = rest.substr(0, comma);
            while (!token.empty() && (token.front() == ' ' || token.front() == '\t')) token.remove_prefix(1);
            while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
            if (iequals(token, "close")) close = true;
            if (iequals(token, "keep-alive")) keep = true;
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }
    if (close) return false;
    return minor_version >= 1 || keep;
}

ParseResult parse_request_head(std::string_view data, HttpRequest& out) {
    // A client may send empty lines before a request (RFC 9112 §2.2): skip a few.
    std::size_t skipped = 0;
    for (int i = 0; i < 4; ++i) {
        if (data.substr(skipped, 2) == "\r\n")
            skipped += 2;
        else if (data.substr(skipped, 1) == "\n")
            skipped += 1;
        else
            break;
    }
    std::string_view rest = data.substr(skipped);
    std::size_t end = head_end(rest);
    if (end == std::string_view::npos) {
        if (data.size() >= kMaxHeadSize) return fail(ParseStatus::head_too_large, "request head too large");
        // Refuse early what can never become a request line (binary junk, TLS handshakes).
        for (char c : rest.substr(0, rest.find(' ')))
            if (!is_tchar(c)) return fail(ParseStatus::bad_request, "bad method");
        return {};
    }
    if (skipped + end > kMaxHeadSize) return fail(ParseStatus::head_too_large, "request head too large");
    std::string_view head = rest.substr(0, end);

    // Lines, without their line ends; a CR anywhere else is an error.
    std::vector<std::string_view> lines;
    while (!head.empty()) {
        std::size_t lf = head.find('\n');
        std::string_view line = head.substr(0, lf);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find('\r') != std::string_view::npos) return fail(ParseStatus::bad_request, "stray CR");
        lines.push_back(line);
        head.remove_prefix(lf + 1);
    }
    lines.pop_back();  // the blank line
    if (lines.empty()) return fail(ParseStatus::bad_request, "no request line");

    // request-line = method SP request-target SP HTTP-version
    HttpRequest request;
    std::string_view line = lines.front();
    std::size_t sp1 = line.find(' ');
    std::size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
    if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos)
        return fail(ParseStatus::bad_request, "malformed request line");
    std::string_view method = line.substr(0, sp1);
    std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string_view version = line.substr(sp2 + 1);
    if (method.empty() || method.size() > 32) return fail(ParseStatus::bad_request, "bad method");
    for (char c : method)
        if (!is_tchar(c)) return fail(ParseStatus::bad_request, "bad method");
    if (target.empty()) return fail(ParseStatus::bad_request, "empty request target");
    for (char c : target)
        if (c <= ' ' || c >= 0x7F) return fail(ParseStatus::bad_request, "bad character in request target");
    if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' || version[5] < '0' ||
        version[5] > '9' || version[7] < '0' || version[7] > '9')
        return fail(ParseStatus::bad_request, "bad HTTP version");
    if (version[5] != '1') return fail(ParseStatus::version_not_supported, "HTTP version not supported");
    request.method = method;
    request.target = target;
    request.minor_version = version[7] - '0';
    std::optional<std::string> path = target_path(target, method);
    if (!path) return fail(ParseStatus::bad_request, "unsupported request target");
    request.path = std::move(*path);

    // field-line = field-name ":" OWS field-value OWS
    if (lines.size() - 1 > kMaxHeaders) return fail(ParseStatus::head_too_large, "too many headers");
    for (std::size_t i = 1; i < lines.size(); ++i) {
        std::string_view field = lines[i];
        if (field.front() == ' ' || field.front() == '\t') return fail(ParseStatus::bad_request, "folded header line");
        std::size_t colon = field.find(':');
        if (colon == std::string_view::npos || colon == 0) return fail(ParseStatus::bad_request, "malformed header");
        std::string name;
        for (char c : field.substr(0, colon)) {
            if (!is_tchar(c)) return fail(ParseStatus::bad_request, "bad header name");
            name += lower(c);
        }
        std::string_view value = field.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
        while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
        for (char c : value) {
            auto u = static_cast<unsigned char>(c);
            if ((u < 0x20 && c != '\t') || u == 0x7F)
                return fail(ParseStatus::bad_request, "control character in header");
        }
        request.headers.emplace_back(std::move(name), std::string(value));
    }

    // Host: exactly one in HTTP/1.1 (RFC 9112 §3.2).
    std::size_t hosts = 0;
    for (const auto& [key, value] : request.headers) hosts += key == "host";
    if (hosts > 1 || (hosts == 0 && request.minor_version >= 1))
        return fail(ParseStatus::bad_request, "missing or repeated Host header");

    // Bodies: only a POST's (a /source/v1 query), small, with one Content-Length; never chunked.
    if (request.header("transfer-encoding")) return fail(ParseStatus::body_not_accepted, "request body");
    std::size_t body_size = 0, lengths = 0;
    for (const auto& [key, value] : request.headers) {
        if (key != "content-length") continue;
        if (++lengths > 1) return fail(ParseStatus::bad_request, "repeated Content-Length");
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos)
            return fail(ParseStatus::bad_request, "bad Content-Length");
        std::string_view digits = value;
        while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
        if (digits == "0") continue;
        if (request.method != "POST" || digits.size() > 6) return fail(ParseStatus::body_not_accepted, "request body");
        body_size = std::stoul(std::string(digits));
        if (body_size > kMaxBodySize) return fail(ParseStatus::body_not_accepted, "request body too large");
    }
    out = std::move(request);
    return {ParseStatus::complete, skipped + end, {}, body_size};
}

}  // namespace el2fx::serve
