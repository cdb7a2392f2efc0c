// Serialises a Profile as processed-profile JSON (format_v70.hpp), streaming through RapidJSON's
// SAX Writer into a ByteSink: no DOM, memory does not grow with the output.
#pragma once

#include <cstdint>
#include <string>

#include "fxprof/byte_sink.hpp"
#include "fxprof/profile.hpp"

namespace el2fx::fxprof {

struct WriteStats {
    std::uint64_t json_bytes = 0;        // uncompressed JSON size
    std::uint64_t repaired_strings = 0;  // strings written with U+FFFD for invalid UTF-8
};

// Throws el2fx::Error on any failure (the sink's, or a profile that cannot be written, such as
// a counter whose process has no thread).
WriteStats write_profile_json(const Profile& profile, ByteSink& sink);
// The same JSON as one gzip member, written by two threads (segmented_gzip.hpp): each renders
// and deflates its share of the profile's parts. `level` as GzipSink's.
WriteStats write_profile_json_gz(const Profile& profile, ByteSink& sink, int level);

// The JSON text in memory (tests).
std::string profile_to_json(const Profile& profile, WriteStats* stats = nullptr);

}  // namespace el2fx::fxprof
