#include "fxprof/decimal.hpp"

namespace el2fx::fxprof {

std::size_t format_scaled_decimal(std::int64_t value, unsigned scale, char* buf) noexcept {
    if (scale > 18) scale = 18;
    std::uint64_t pow10 = 1;
    for (unsigned i = 0; i < scale; ++i) pow10 *= 10;

    std::size_t n = 0;
    std::uint64_t magnitude;
    if (value < 0) {
        buf[n++] = '-';
        magnitude = std::uint64_t(0) - static_cast<std::uint64_t>(value);  // INT64_MIN too
    } else {
        magnitude = static_cast<std::uint64_t>(value);
    }
    std::uint64_t whole = magnitude / pow10;
    std::uint64_t frac = magnitude % pow10;

    char digits[20];
    std::size_t d = 0;
    do {
        digits[d++] = static_cast<char>('0' + whole % 10);
        whole /= 10;
    } while (whole != 0);
    while (d > 0) buf[n++] = digits[--d];

    if (frac != 0) {
        unsigned width = scale;
        while (frac % 10 == 0) {  // trailing zeros
            frac /= 10;
            --width;
        }
        buf[n++] = '.';
        for (unsigned i = width; i > 0; --i) {
            buf[n + i - 1] = static_cast<char>('0' + frac % 10);
            frac /= 10;
        }
        n += width;
    }
    return n;
}

std::string ns_as_ms_string(std::int64_t ns) {
    char buf[kDecimalBufferSize];
    return std::string(buf, format_ns_as_ms(ns, buf));
}

}  // namespace el2fx::fxprof
