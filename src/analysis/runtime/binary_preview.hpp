// Previews of a traceBinaryEvent payload, for a marker: the first bytes in hex, and as
// text (UTF-8 where it is well-formed, U+FFFD where not, control characters as their
// visible Unicode pictures so NULs and newlines show).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace el2fx::runtime {

struct BinaryPreview {
    std::string hex;    // "01 00 ff …": at most `max_bytes` bytes, "…" when cut
    std::string text;   // at most `max_bytes` bytes decoded, "…" when cut
    bool utf8 = false;  // the whole payload is well-formed UTF-8
};

BinaryPreview preview_binary(std::string_view bytes, std::size_t max_bytes = 32);

// Text for display: ill-formed UTF-8 as U+FFFD, C0 controls and DEL as U+2400…U+2421
// (␀ ␊ …), at most `max_bytes` input bytes (cut at a character boundary, then "…").
std::string visible_text(std::string_view bytes, std::size_t max_bytes);

// At most `max_bytes` bytes of sanitized UTF-8 text, cut at a character boundary, with
// "…" appended when cut (for marker names from long messages).
std::string shortened_text(std::string_view bytes, std::size_t max_bytes);

}  // namespace el2fx::runtime
