// GHC source spans as cost centres (HEAP_PROF_COST_CENTRE) and info-table provenance (IPE)
// write them: "File.hs:12:5", "File.hs:12:5-20", "File.hs:(12,1)-(14,20)", or a placeholder
// such as "<built-in>", "<entire-module>" or "<no location info>".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace el2fx::profiling {

struct SourceLocation {
    std::string file{};                             // empty: no file (a placeholder, or text that is not a span)
    std::optional<std::uint32_t> line{}, column{};  // the start, 1-based
    std::optional<std::uint32_t> end_line{}, end_column{};  // the end, inclusive
    bool operator==(const SourceLocation&) const = default;
};

// Reads the span from the right, so a file name may hold ':' (C:\src\Main.hs:3:1-9).
// Text that is no span gives no file and no line.
SourceLocation parse_source_location(std::string_view text);

}  // namespace el2fx::profiling
