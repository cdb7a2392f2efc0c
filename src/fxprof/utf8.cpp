#include "fxprof/utf8.hpp"

#include <cstdint>
#include <cstring>

namespace el2fx::fxprof {
namespace {

// Length of the ASCII prefix of [p, end), eight bytes at a time.
std::size_t ascii_prefix(const unsigned char* p, const unsigned char* end) noexcept {
    const unsigned char* start = p;
    while (end - p >= 8) {
        std::uint64_t word;
        std::memcpy(&word, p, 8);
        if (word & 0x8080808080808080ull) break;
        p += 8;
    }
    while (p < end && *p < 0x80) ++p;
    return static_cast<std::size_t>(p - start);
}

// For a non-ASCII lead byte at p: the length of the well-formed sequence starting there, or 0
// with *bad set to the length of the maximal ill-formed subpart (>= 1) to replace.
std::size_t sequence_length(const unsigned char* p, const unsigned char* end,
                            std::size_t* bad) noexcept {
    const unsigned char b = *p;
    std::size_t need;
    unsigned char lo = 0x80, hi = 0xBF;  // bounds of the first continuation byte
    if (b >= 0xC2 && b <= 0xDF) {
        need = 1;
    } else if (b == 0xE0) {
        need = 2, lo = 0xA0;
    } else if (b == 0xED) {
        need = 2, hi = 0x9F;
    } else if (b >= 0xE1 && b <= 0xEF) {
        need = 2;
    } else if (b == 0xF0) {
        need = 3, lo = 0x90;
    } else if (b >= 0xF1 && b <= 0xF3) {
        need = 3;
    } else if (b == 0xF4) {
        need = 3, hi = 0x8F;
    } else {  // 80..C1, F5..FF: never valid as a lead byte
        *bad = 1;
        return 0;
    }
    std::size_t i = 1;
    for (; i <= need; ++i) {
        if (p + i >= end) break;
        const unsigned char c = p[i];
        const bool ok = (i == 1) ? (c >= lo && c <= hi) : (c >= 0x80 && c <= 0xBF);
        if (!ok) break;
    }
    if (i == need + 1) return need + 1;
    *bad = i;  // the lead byte and the continuation bytes that were still acceptable
    return 0;
}

}  // namespace

bool is_valid_utf8(std::string_view s) noexcept {
    auto p = reinterpret_cast<const unsigned char*>(s.data());
    auto end = p + s.size();
    while (p < end) {
        p += ascii_prefix(p, end);
        if (p == end) break;
        std::size_t bad = 0;
        std::size_t n = sequence_length(p, end, &bad);
        if (n == 0) return false;
        p += n;
    }
    return true;
}

std::size_t append_sanitized_utf8(std::string& out, std::string_view s) {
    auto begin = reinterpret_cast<const unsigned char*>(s.data());
    auto p = begin;
    auto end = p + s.size();
    std::size_t replaced = 0;
    const unsigned char* run = p;  // start of the well-formed run not yet copied
    while (p < end) {
        p += ascii_prefix(p, end);
        if (p == end) break;
        std::size_t bad = 0;
        std::size_t n = sequence_length(p, end, &bad);
        if (n != 0) {
            p += n;
            continue;
        }
        out.append(s.data() + (run - begin), static_cast<std::size_t>(p - run));
        out.append(kReplacementCharacter);
        ++replaced;
        p += bad;
        run = p;
    }
    out.append(s.data() + (run - begin), static_cast<std::size_t>(end - run));
    return replaced;
}

}  // namespace el2fx::fxprof
