// UTF-8 checking and repair for everything the writer puts into JSON strings. Each maximal
// ill-formed subsequence (Unicode 15, §3.9, "U+FFFD substitution of maximal subparts", as in
// WHATWG's decoder) becomes one U+FFFD; well-formed multibyte sequences are kept.
// Overlong forms, surrogates (ED A0..BF) and code points above U+10FFFF are ill-formed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace el2fx::fxprof {

inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";  // U+FFFD

bool is_valid_utf8(std::string_view s) noexcept;

// Appends s to out with ill-formed subsequences replaced; returns how many were replaced.
std::size_t append_sanitized_utf8(std::string& out, std::string_view s);

inline std::string sanitize_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    append_sanitized_utf8(out, s);
    return out;
}

}  // namespace el2fx::fxprof
