// Where the profile shows each event type: the registry behind `convert --stats`, and
// the promise that no event type the decoder knows is silently dropped. Every tag of
// eventlog::AllPayloads is shown by some part of the conversion (a contributor's
// shown_tags(): contributors.hpp lists them) or is listed in not_shown_event_types()
// with the reason.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "convert/convert_options.hpp"
#include "convert/profile_contributor.hpp"

namespace el2fx::convert {

// Event types nothing shows, and why (PROGRAM_ENV is here unless --include-env).
std::vector<NotShown> not_shown_event_types(const ConvertOptions& options);

struct EventTypeCoverage {
    std::uint16_t tag = 0;
    std::string_view name;              // GHC's name for it
    std::vector<std::string> shown_by;  // the parts that show it, in conversion order
    std::string_view not_shown;         // why nothing shows it (when shown_by is empty)
};

// Every event type of the table, in tag order, for a conversion with these options and
// contributors (make_contributors' when none are given). A type neither shown nor
// listed gets kNoPartShowsIt as its reason; tests make sure none does.
std::vector<EventTypeCoverage> event_coverage(const ConvertOptions& options);
std::vector<EventTypeCoverage> event_coverage(const ConvertOptions& options,
                                              std::span<const ProfileContributor* const> contributors);

inline constexpr std::string_view kNoPartShowsIt = "no part of the conversion shows this event type";

// The `convert --stats` table: for each event type the log holds (events_by_tag[tag]
// events), its count and where the profile shows it, or "not shown: <reason>".
std::string coverage_report(std::span<const std::uint64_t> events_by_tag, const ConvertOptions& options);

}  // namespace el2fx::convert
