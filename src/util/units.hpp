// Durations and sizes as people read them, for messages and Profile Info: "8 ms", "1.5 s",
// "250 µs"; "200 MB" (decimal units, as the budget is given).
#pragma once

#include <cstdint>
#include <string>

namespace el2fx::util {

std::string format_duration(std::uint64_t ns);
std::string format_bytes(std::uint64_t bytes);

}  // namespace el2fx::util
