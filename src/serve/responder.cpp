#include "serve/responder.hpp"

#include <algorithm>

#include "serve/source_request.hpp"

namespace el2fx::serve {
namespace {

constexpr std::string_view kMethods = "GET, HEAD, OPTIONS";
constexpr std::string_view kSourceMethods = "POST, OPTIONS";

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string_view base_name(std::string_view path) {
    std::size_t slash = path.find_last_of('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool url_safe(std::string_view name) {
    if (name.empty() || name.size() > 200 || name[0] == '.') return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
               c == '-';
    });
}

// A list of header names as a preflight asks for them ("content-type, x-foo"): echoed
// back only when it is one.
bool is_header_list(std::string_view s) {
    if (s.empty() || s.size() > 1000) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
               c == ',' || c == ' ';
    });
}

Answer text(int status, std::string body) {
    Answer a;
    a.status = status;
    a.headers = {{"Content-Type", "text/plain; charset=utf-8"}};
    a.body = std::move(body);
    return a;
}

}  // namespace

std::string content_type_for(std::string_view file_name) {
    if (ends_with(file_name, ".gz")) return "application/gzip";
    if (ends_with(file_name, ".json")) return "application/json";
    return "application/octet-stream";
}

std::vector<ServedFile> files_under_token(const std::vector<std::string>& files, std::string_view token) {
    std::vector<ServedFile> out;
    for (const std::string& file : files) {
        std::string_view name = base_name(file);
        std::string safe = url_safe(name)             ? std::string(name)
                           : ends_with(name, ".json") ? std::string("profile.json")
                           : ends_with(name, ".gz")   ? std::string("profile.json.gz")
                                                      : std::string("profile");
        std::string unique = safe;
        for (int n = 2; std::any_of(out.begin(), out.end(),
                                    [&](const ServedFile& f) { return f.url_path.ends_with("/" + unique); });
             ++n)
            unique = std::to_string(n) + "-" + safe;
        out.push_back({file, "/" + std::string(token) + "/" + unique, content_type_for(name)});
    }
    return out;
}

std::string Answer::head(std::uint64_t body_length) const {
    std::string h = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason_phrase(status)) + "\r\n";
    h += "Server: eventlog2fxprof\r\n";
    for (const auto& [name, value] : headers) h += name + ": " + value + "\r\n";
    if (status != 204) h += "Content-Length: " + std::to_string(body_length) + "\r\n";
    if (close) h += "Connection: close\r\n";
    h += "\r\n";
    return h;
}

std::string source_api_path(const std::vector<ServedFile>& files) {
    if (files.empty()) return {};
    const std::string& p = files.front().url_path;
    const std::size_t end = p.find('/', 1);
    return end == std::string::npos ? std::string() : p.substr(0, end) + "/source/v1";
}

namespace {

void add_preflight_headers(Answer& a, const HttpRequest& request, std::string_view methods) {
    a.headers.emplace_back("Access-Control-Allow-Methods", std::string(methods));
    if (const std::string* asked = request.header("access-control-request-headers"); asked && is_header_list(*asked))
        a.headers.emplace_back("Access-Control-Allow-Headers", *asked);
    // Chromium's Private Network Access: a public page may reach loopback only if we say so.
    if (const std::string* pna = request.header("access-control-request-private-network"); pna && *pna == "true")
        a.headers.emplace_back("Access-Control-Allow-Private-Network", "true");
    a.headers.emplace_back("Access-Control-Max-Age", "86400");
}

// POST /<token>/source/v1 (and its preflight).
Answer answer_source_api(const HttpRequest& request, const sources::SourceRoots& roots) {
    Answer a;
    if (request.method == "POST") {
        a.status = 200;
        a.body = answer_source_request(request.body, roots).json;
        a.headers = {{"Content-Type", "application/json"},
                     {"Access-Control-Allow-Origin", "*"},
                     {"Cache-Control", "no-store"},
                     {"X-Content-Type-Options", "nosniff"}};
    } else if (request.method == "OPTIONS") {
        a.status = 204;
        a.send_body = false;
        a.headers = {{"Access-Control-Allow-Origin", "*"}};
        if (request.header("access-control-request-method"))
            add_preflight_headers(a, request, kSourceMethods);
        else
            a.headers.emplace_back("Allow", std::string(kSourceMethods));
    } else {
        a = text(405, "method not allowed\n");
        a.headers.emplace_back("Allow", std::string(kSourceMethods));
        a.headers.emplace_back("Access-Control-Allow-Origin", "*");
    }
    return a;
}

}  // namespace

Answer answer_request(const HttpRequest& request, const std::vector<ServedFile>& files,
                      const sources::SourceRoots* sources) {
    auto it = std::find_if(files.begin(), files.end(), [&](const ServedFile& f) { return f.url_path == request.path; });
    Answer a;
    if (sources && !sources->empty() && it == files.end() && request.path == source_api_path(files)) {
        a = answer_source_api(request, *sources);
    } else if (it == files.end()) {
        a = text(404, "not found\n");
    } else if (request.method == "GET" || request.method == "HEAD") {
        a.status = 200;
        a.file = &*it;
        a.send_body = request.method == "GET";
        a.headers = {{"Content-Type", it->content_type},
                     {"Access-Control-Allow-Origin", "*"},
                     {"Cache-Control", "no-store"},
                     {"X-Content-Type-Options", "nosniff"},
                     {"Cross-Origin-Resource-Policy", "cross-origin"}};
    } else if (request.method == "OPTIONS") {
        a.status = 204;
        a.send_body = false;
        a.headers = {{"Access-Control-Allow-Origin", "*"}};
        if (request.header("access-control-request-method")) {  // a CORS preflight
            add_preflight_headers(a, request, kMethods);
        } else {
            a.headers.emplace_back("Allow", std::string(kMethods));
        }
    } else {
        a = text(405, "method not allowed\n");
        a.headers.emplace_back("Allow", std::string(kMethods));
        a.headers.emplace_back("Access-Control-Allow-Origin", "*");
    }
    if (request.method == "HEAD") a.send_body = false;
    a.close = !request.keep_alive();
    if (!a.close && request.minor_version == 0) a.headers.emplace_back("Connection", "keep-alive");
    return a;
}

Answer answer_unparsable(ParseStatus status) {
    Answer a;
    switch (status) {
        case ParseStatus::head_too_large: a = text(431, "request header fields too large\n"); break;
        case ParseStatus::body_not_accepted: a = text(413, "request bodies are not accepted\n"); break;
        case ParseStatus::version_not_supported: a = text(505, "only HTTP/1.x is spoken here\n"); break;
        case ParseStatus::incomplete:
        case ParseStatus::complete:
        case ParseStatus::bad_request: a = text(400, "bad request\n"); break;
    }
    a.close = true;
    return a;
}

Answer answer_timeout() {
    Answer a = text(408, "request timeout\n");
    a.close = true;
    return a;
}

Answer answer_unreadable() {
    Answer a = text(500, "the profile file cannot be read any more\n");
    a.close = true;
    return a;
}

std::string_view reason_phrase(int status) {
    switch (status) {
        case 200: return "OK";
        case 204: return "No Content";
        case 400: return "Bad Request";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 408: return "Request Timeout";
        case 413: return "Content Too Large";
        case 431: return "Request Header Fields Too Large";
        case 500: return "Internal Server Error";
        case 505: return "HTTP Version Not Supported";
        default: return "Unknown";
    }
}

}  // namespace el2fx::serve
