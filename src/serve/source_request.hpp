// The profiler's /source/v1 query (samply's API, API.md in mstange/samply), answered from the
// `--sources` directories: the request `{"debugName", "debugId", "moduleOffset", "file"}` names
// a file of the profile's pseudo-library of source locations (sources::kLibDebugName); the
// answer is `{"symbolsLastModified": null, "sourceLastModified": null, "file", "source"}`, or
// `{"error": "…"}`. Only files that sources::SourceRoots gives are read: under a directory,
// Haskell sources, bounded, UTF-8. Pure: no sockets.
#pragma once

#include <string>
#include <string_view>

#include "sources/source_roots.hpp"

namespace el2fx::serve {

struct SourceAnswer {
    std::string json;    // the response body
    bool found = false;  // the file's text is in it
};

SourceAnswer answer_source_request(std::string_view request_body, const sources::SourceRoots& roots);

}  // namespace el2fx::serve
