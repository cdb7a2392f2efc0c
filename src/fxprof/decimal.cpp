#include "fxprof/decimal.hpp"

#include <array>
#include <bit>
#include <cstring>

namespace el2fx::fxprof {

namespace {

// "00" "01" ... "99": two digits per division instead of one.
constexpr std::array<char, 200> kDigitPairs = [] {
    std::array<char, 200> t{};
    for (int i = 0; i < 100; ++i) {
        t[2 * i] = static_cast<char>('0' + i / 10);
        t[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
    return t;
}();

constexpr std::array<std::uint64_t, 20> kPow10 = [] {  // up to 10^19
    std::array<std::uint64_t, 20> t{};
    std::uint64_t p = 1;
    for (std::uint64_t& x : t) {
        x = p;
        p *= 10;
    }
    return t;
}();

void put_pair(char* p, std::uint64_t two_digits) { std::memcpy(p, &kDigitPairs[2 * two_digits], 2); }

// Writes exactly `width` digits of v (v < 10^width, leading zeros included) ending at `end`.
void fixed_digits(std::uint64_t v, unsigned width, char* end) {
    char* const begin = end - width;
    while (end - begin >= 2) {
        end -= 2;
        put_pair(end, v % 100);
        v /= 100;
    }
    if (end != begin) *--end = static_cast<char>('0' + v);
}

// The number of decimal digits of v (1 for 0).
unsigned digit_count(std::uint64_t v) {
    if (v == 0) return 1;
    // bit_width * log10(2) is the count or one less.
    const unsigned guess = static_cast<unsigned>(std::bit_width(v) * 1233) >> 12;
    return guess + (v >= kPow10[guess] ? 1 : 0);
}

}  // namespace

std::size_t format_scaled_decimal(std::int64_t value, unsigned scale, char* buf) noexcept {
    if (scale > 18) scale = 18;
    std::size_t n = 0;
    std::uint64_t magnitude;
    if (value < 0) {
        buf[n++] = '-';
        magnitude = std::uint64_t(0) - static_cast<std::uint64_t>(value);  // INT64_MIN too
    } else {
        magnitude = static_cast<std::uint64_t>(value);
    }
    // Milliseconds from nanoseconds is nearly every call: a constant divisor is a multiply.
    const std::uint64_t pow10 = scale == 6 ? 1000000 : kPow10[scale];
    const std::uint64_t whole = scale == 6 ? magnitude / 1000000 : magnitude / pow10;
    const std::uint64_t frac = magnitude - whole * pow10;

    const unsigned whole_width = digit_count(whole);
    n += whole_width;
    fixed_digits(whole, whole_width, buf + n);

    if (frac != 0) {
        buf[n++] = '.';
        n += scale;
        fixed_digits(frac, scale, buf + n);
        while (buf[n - 1] == '0') --n;  // trailing zeros; frac != 0 stops this before the point
    }
    return n;
}

std::string ns_as_ms_string(std::int64_t ns) {
    char buf[kDecimalBufferSize];
    return std::string(buf, format_ns_as_ms(ns, buf));
}

}  // namespace el2fx::fxprof
