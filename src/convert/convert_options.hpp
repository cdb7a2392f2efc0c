#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace el2fx::convert {

struct ConvertOptions {
    std::uint64_t sampling_interval_ns = 1'000'000;
    std::size_t max_threads = 64;    // Haskell thread tracks; the rest share one track
    bool all_threads = false;        // a track for every Haskell thread
    bool include_env = false;        // PROGRAM_ENV into the profile (never by default: secrets)
    std::string input_name;          // names the profile when the log has no program arguments
};

}  // namespace el2fx::convert
