#include "compare/value_text.hpp"

#include <cmath>
#include <cstdio>

namespace el2fx::compare {
namespace {

std::string printf_text(const char* format, double v, const char* suffix) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v, suffix);
    return buf;
}

// Four significant figures in a unit of a power of 1000.
std::string scaled(double v, const char* const units[], const double scales[], std::size_t n) {
    const double a = std::fabs(v);
    std::size_t i = 0;
    while (i + 1 < n && a >= scales[i + 1] * 0.9995) ++i;
    const double x = v / scales[i];
    const double ax = std::fabs(x);
    const char* format = i == 0 ? "%.0f %s" : ax >= 100 ? "%.1f %s" : ax >= 10 ? "%.2f %s" : "%.3f %s";
    return printf_text(format, x, units[i]);
}

std::string with_separators(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));
    std::string digits = buf, out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (v < 0 && out != "0" ? "-" : "") + out;
}

}  // namespace

std::string format_value(double value, Unit unit) {
    static const char* const bytes[] = {"B", "kB", "MB", "GB", "TB"};
    static const double byte_scales[] = {1, 1e3, 1e6, 1e9, 1e12};
    static const char* const times[] = {"ns", "µs", "ms", "s"};
    static const double time_scales[] = {1, 1e3, 1e6, 1e9};
    switch (unit) {
        case Unit::bytes: return scaled(value, bytes, byte_scales, 5);
        case Unit::ns: return scaled(value, times, time_scales, 4);
        case Unit::ratio: return printf_text("%.1f%s", value * 100.0, "%");
        case Unit::count:
            if (std::fabs(value - std::round(value)) < 1e-9 || std::fabs(value) >= 1e4) return with_separators(value);
            return printf_text("%.3g%s", value, "");
    }
    return {};
}

std::string format_change(double change, Unit unit) {
    if (change == 0) return "0";
    const std::string sign = change > 0 ? "+" : "-";
    if (unit == Unit::ratio) return sign + printf_text("%.1f%s", std::fabs(change) * 100.0, " pp");
    return sign + format_value(std::fabs(change), unit);
}

std::string format_percent(double percent) {
    if (std::isinf(percent)) return percent > 0 ? "+inf%" : "-inf%";
    if (std::fabs(percent) < 0.05) return "0.0%";
    return printf_text("%+.1f%s", percent, "%");
}

std::size_t display_width(const std::string& text) {
    std::size_t w = 0;
    for (unsigned char ch : text)
        if ((ch & 0xC0) != 0x80) ++w;
    return w;
}

}  // namespace el2fx::compare
