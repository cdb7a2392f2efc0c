// What the profile server answers, decided without sockets (tests call it directly).
// Only the secret paths of the served files exist: GET and HEAD fetch a file, OPTIONS
// answers CORS preflights; with source directories, POST "/<token>/source/v1" answers the
// profiler's source queries (source_request.hpp); every other path is 404 (without CORS headers: other pages
// learn nothing), every other method on a served path 405. Served answers carry
// `Access-Control-Allow-Origin: *` as samply's do: the secret path is the access control,
// and the profiler may be served from any origin (profiler.firefox.com, a local build).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "serve/http_request.hpp"
#include "sources/source_roots.hpp"

namespace el2fx::serve {

struct ServedFile {
    std::string file;          // on disk; opened afresh for every request
    std::string url_path;      // "/<token>/<name>"
    std::string content_type;  // application/gzip, application/json
};

// application/gzip for ".gz", application/json for ".json", else application/octet-stream.
std::string content_type_for(std::string_view file_name);

// Each file at "/<token>/<its name>" (a name unsafe in a URL becomes "profile.json.gz" or
// similar; repeated names get a "2-" prefix, and so on).
std::vector<ServedFile> files_under_token(const std::vector<std::string>& files, std::string_view token);

struct Answer {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Length, Server
    std::string body;                                          // a short text body (errors)
    const ServedFile* file = nullptr;                          // the body is this file instead
    bool send_body = true;                                     // false for HEAD and 204
    bool close = false;                                        // close the connection after this answer

    // The status line and headers, with Content-Length: body_length (not for 204), ending
    // in the blank line.
    std::string head(std::uint64_t body_length) const;
};

// "/<token>/source/v1" for the token of the served files (empty when there are none).
std::string source_api_path(const std::vector<ServedFile>& files);

// `sources`: the --sources directories (nullptr or empty: no source endpoint).
Answer answer_request(const HttpRequest& request, const std::vector<ServedFile>& files,
                      const sources::SourceRoots* sources = nullptr);
// A request that could not be parsed (400, 413, 431, 505); the connection is closed.
Answer answer_unparsable(ParseStatus status);
// 408: the request head did not arrive in time.
Answer answer_timeout();
// 500: a served file could not be opened (it was moved or deleted).
Answer answer_unreadable();

std::string_view reason_phrase(int status);

}  // namespace el2fx::serve
