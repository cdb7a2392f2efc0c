// Source files of the profile's functions (cost centres with a source location):
//  - the pseudo-library their frames point at, so that the profiler can ask a local server
//    (`serve --sources`) for a file's text (sources::kLibDebugName);
//  - `--sources DIR`: the text of each file the profile names, found under a DIR
//    (sources::SourceRoots: hostile names refused, bounded, UTF-8), embedded in
//    shared.sources.content, and a Profile Info section "Source files" that lists which files
//    were embedded and which were not (and why). File names stay as the locations give them
//    (relative ones relative; with --redact-paths absolute ones are already file names): the
//    directories' own paths never enter the profile.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fxprof/profile.hpp"
#include "sources/source_roots.hpp"

namespace el2fx::convert {

fxprof::Lib source_locations_lib();

struct SourcesReport {
    std::vector<std::string> embedded;                         // file names, as in the profile
    std::vector<std::pair<std::string, std::string>> missing;  // file name, why it is not there
    std::uint64_t bytes = 0;                                   // embedded text
};

struct SourceLimits {
    std::uint64_t max_file_bytes = sources::kDefaultMaxFileBytes;
    std::uint64_t max_total_bytes = sources::kDefaultMaxTotalBytes;
};

// Embeds every source file of the profile found under `roots`, in the order of the sources
// table, while the total stays within the limit; adds the "Source files" section.
SourcesReport embed_sources(fxprof::Profile& profile, const sources::SourceRoots& roots,
                            const SourceLimits& limits = {});

}  // namespace el2fx::convert
