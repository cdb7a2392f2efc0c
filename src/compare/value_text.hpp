// A figure's value and change as the table prints them: bytes in kB/MB/GB, times in ns/µs/ms/s,
// ratios in per cent (changes in percentage points), counts with thousands separators.
#pragma once

#include <string>

#include "compare/run_figures.hpp"

namespace el2fx::compare {

std::string format_value(double value, Unit unit);
// With a sign: "+1.25 MB", "-3.1 ms", "+0.4 pp", "0".
std::string format_change(double change, Unit unit);
// "+12.3%", "-0.5%", "0.0%".
std::string format_percent(double percent);
// Columns as a terminal shows them: UTF-8 continuation bytes take no room.
std::size_t display_width(const std::string& text);

}  // namespace el2fx::compare
