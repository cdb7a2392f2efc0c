#include "util/units.hpp"

#include <cstdio>

namespace el2fx::util {
namespace {

// Up to three significant digits, trailing zeros dropped: 8, 1.5, 96, 12.3.
std::string short_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

}  // namespace

std::string format_duration(std::uint64_t ns) {
    const double v = static_cast<double>(ns);
    if (ns >= 60'000'000'000ULL) return short_number(v / 60e9) + " min";
    if (ns >= 1'000'000'000ULL) return short_number(v / 1e9) + " s";
    if (ns >= 1'000'000) return short_number(v / 1e6) + " ms";
    if (ns >= 1'000) return short_number(v / 1e3) + " µs";
    return std::to_string(ns) + " ns";
}

std::string format_bytes(std::uint64_t bytes) {
    const double v = static_cast<double>(bytes);
    if (bytes >= 1'000'000'000ULL) return short_number(v / 1e9) + " GB";
    if (bytes >= 1'000'000) return short_number(v / 1e6) + " MB";
    if (bytes >= 1'000) return short_number(v / 1e3) + " kB";
    return std::to_string(bytes) + " bytes";
}

}  // namespace el2fx::util
