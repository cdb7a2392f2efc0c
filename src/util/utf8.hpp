// UTF-8 for text that comes from outside (eventlog strings may hold any bytes):
// decoding one step at a time, a fast sanitiser that replaces ill-formed input
// with U+FFFD, and Haskell's `isPrint` for the `ghc-events show` printer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace el2fx::utf8 {

inline constexpr char32_t kReplacement = 0xFFFD;

// One step of decoding at the start of a non-empty byte range. A well-formed
// sequence (Unicode Table 3-7: no overlongs, no surrogates, at most U+10FFFF) gives
// its code point and length 1-4. An ill-formed one gives valid == false and the
// length of its maximal subpart (1-3): the bytes that one U+FFFD stands for under
// Unicode's "substitution of maximal subparts" practice (what Python, ICU and the
// WHATWG decoder do).
struct Step {
    char32_t code_point;
    std::uint32_t length;
    bool valid;
};
Step decode(const unsigned char* p, const unsigned char* end) noexcept;

// True when the bytes are well-formed UTF-8.
bool is_valid(std::string_view bytes) noexcept;

// Appends the UTF-8 encoding of a code point (at most U+10FFFF; surrogates are
// encoded as they are).
void append_code_point(std::string& out, char32_t cp);

// Appends `bytes`, each ill-formed subsequence replaced by U+FFFD (EF BF BD) as
// decode() delimits it. Well-formed runs are copied in one piece. Returns the number
// of replacements made.
std::size_t append_sanitized(std::string& out, std::string_view bytes);

// Appends Latin-1 bytes as UTF-8 (each byte is the code point of the same value).
void append_latin1(std::string& out, std::string_view bytes);

// Haskell's Data.Char.isPrint: false for the general categories Cc, Cf, Cs, Co,
// Cn (unassigned), Zl and Zp, true otherwise. Unicode 15.0.
bool is_printable(char32_t cp) noexcept;

}  // namespace el2fx::utf8
