#include "analysis/ghc_profiling/source_location.hpp"

#include <charconv>

namespace el2fx::profiling {
namespace {

std::optional<std::uint32_t> number(std::string_view s) {
    std::uint32_t n = 0;
    if (s.empty()) return std::nullopt;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

// "(12,1)" -> 12, 1
bool line_column(std::string_view s, std::uint32_t& line, std::uint32_t& column) {
    if (s.size() < 5 || s.front() != '(' || s.back() != ')') return false;
    s = s.substr(1, s.size() - 2);
    std::size_t comma = s.find(',');
    if (comma == std::string_view::npos) return false;
    auto l = number(s.substr(0, comma)), c = number(s.substr(comma + 1));
    if (!l || !c) return false;
    line = *l, column = *c;
    return true;
}

}  // namespace

SourceLocation parse_source_location(std::string_view text) {
    SourceLocation loc;
    // Multi-line: FILE:(L1,C1)-(L2,C2)
    if (std::size_t open = text.rfind(":("); open != std::string_view::npos && open > 0) {
        std::string_view span = text.substr(open + 1);
        std::size_t dash = span.find(")-(");
        std::uint32_t l1 = 0, c1 = 0, l2 = 0, c2 = 0;
        if (dash != std::string_view::npos && line_column(span.substr(0, dash + 1), l1, c1) &&
            line_column(span.substr(dash + 2), l2, c2)) {
            loc.file = std::string(text.substr(0, open));
            loc.line = l1, loc.column = c1, loc.end_line = l2, loc.end_column = c2;
            return loc;
        }
    }
    // One line: FILE:L:C or FILE:L:C1-C2
    std::size_t last = text.rfind(':');
    if (last == std::string_view::npos || last == 0) return loc;
    std::size_t before = text.rfind(':', last - 1);
    if (before == std::string_view::npos || before == 0) return loc;
    auto line = number(text.substr(before + 1, last - before - 1));
    std::string_view columns = text.substr(last + 1);
    std::size_t dash = columns.find('-');
    auto c1 = number(columns.substr(0, dash));
    std::optional<std::uint32_t> c2 = dash == std::string_view::npos ? c1 : number(columns.substr(dash + 1));
    if (!line || !c1 || !c2) return loc;
    loc.file = std::string(text.substr(0, before));
    loc.line = line, loc.column = c1, loc.end_line = line, loc.end_column = c2;
    return loc;
}

}  // namespace el2fx::profiling
