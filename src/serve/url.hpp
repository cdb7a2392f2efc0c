// URLs for sharing a served profile: percent-encoding, the secret path token, and the
// Firefox Profiler links that load a profile from a URL or compare two.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace el2fx::serve {

inline constexpr std::string_view kProfilerOrigin = "https://profiler.firefox.com";

// As JavaScript's encodeURIComponent (the profiler decodes with decodeURIComponent): keeps
// A-Z a-z 0-9 - _ . ! ~ * ' ( ) and writes every other byte as %XX (upper-case hex).
std::string percent_encode(std::string_view text);

// `bytes` random bytes (getrandom, else /dev/urandom) as lower-case hex. Throws el2fx::Error
// when the system gives no randomness: a guessable path is never made.
std::string random_token(std::size_t bytes = 16);

// "<origin>/from-url/<encoded profile URL>/": the profiler fetches and opens the profile.
// With a symbol server ("http://127.0.0.1:3000/<token>"), "?symbolServer=<encoded>" follows:
// the profiler asks it for source files (POST <symbol server>/source/v1), as samply's link does.
std::string from_url_link(std::string_view profile_url, std::string_view profiler_origin = kProfilerOrigin,
                          std::string_view symbol_server = {});

// "<origin>/compare/?profiles[]=…&profiles[]=…": the profiler's comparison of the profiles
// at these URLs, each with the track `thread` (an index into the profile's threads) selected.
std::string compare_link(const std::vector<std::string>& profile_urls, std::size_t thread,
                         std::string_view profiler_origin = kProfilerOrigin);

}  // namespace el2fx::serve
