// Exact decimal text for scaled integers: 1234567 ns at scale 6 -> "1.234567" (milliseconds).
// The JSON number is exactly the decimal value, so a reader gets the correctly rounded double,
// and the same input always gives the same bytes (no floating-point printing involved).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace el2fx::fxprof {

// Enough for a sign, 20 digits and a point.
inline constexpr std::size_t kDecimalBufferSize = 32;

// Writes value / 10^scale (scale 0..18) into buf, without trailing zeros in the fraction and
// without a point for whole numbers; returns the number of chars written (no terminator).
std::size_t format_scaled_decimal(std::int64_t value, unsigned scale, char* buf) noexcept;

// Nanoseconds as milliseconds: format_scaled_decimal(ns, 6).
inline std::size_t format_ns_as_ms(std::int64_t ns, char* buf) noexcept { return format_scaled_decimal(ns, 6, buf); }

std::string ns_as_ms_string(std::int64_t ns);

}  // namespace el2fx::fxprof
