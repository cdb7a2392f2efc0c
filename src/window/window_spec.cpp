#include "window/window_spec.hpp"

#include <cstdio>

#include "util/error.hpp"

namespace el2fx::window {

void check_spec(const WindowSpec& spec) {
    if (spec.from && spec.to && *spec.from >= *spec.to)
        throw Error("--from " + format_time(*spec.from) + " is not before --to " + format_time(*spec.to));
}

std::string format_time(std::uint64_t ns) {
    char text[64];
    if (ns >= 1'000'000'000ull)
        std::snprintf(text, sizeof text, "%.6f s", static_cast<double>(ns) / 1e9);
    else if (ns >= 1'000'000ull)
        std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
    else if (ns >= 1'000ull)
        std::snprintf(text, sizeof text, "%.3f us", static_cast<double>(ns) / 1e3);
    else
        std::snprintf(text, sizeof text, "%llu ns", static_cast<unsigned long long>(ns));
    return text;
}

}  // namespace el2fx::window
