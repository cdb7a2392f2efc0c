// Info-table provenance (IPE, tag 169, GHC >= 9.2): where each info table comes from. An -hi heap
// profile names its bands by info-table address; these events give them names and source
// locations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "eventlog/event.hpp"
#include "eventlog/event_types.hpp"
#include "pass/interests.hpp"

namespace el2fx::profiling {

struct InfoTable {
    std::uint64_t info = 0;
    std::string table_name;    // "main_info"
    std::string closure_desc;  // the closure type, as a decimal number
    std::string ty_desc;       // the Haskell type
    std::string label;
    std::string module;
    std::string src_loc;  // "Test.hs:5:1-4"; ":" from GHC 9.6 where the table has none
};

// Whether the entry names where its closure is defined (GHC 9.6 and newer write ":" for none).
inline bool has_source_location(const InfoTable& t) { return !t.src_loc.empty() && t.src_loc != ":"; }

class InfoTableCatalog {
public:
    // The info tables' provenance (IPE), given and read.
    static pass::Interests interests() { return pass::Interests::of({eventlog::InfoProv::tag}); }
    // Any event: an IPE entry is added, the others are passed over.
    void handle(const eventlog::Event& event) {
        if (const auto* ipe = event.as<eventlog::InfoProv>()) add(*ipe);
    }
    void add(const eventlog::InfoProv& event);
    const InfoTable* find(std::uint64_t info) const;
    // An -hi band label: the address in hexadecimal, with or without "0x".
    const InfoTable* find_label(std::string_view label) const;
    std::size_t size() const { return tables_.size(); }

private:
    std::unordered_map<std::uint64_t, InfoTable> tables_;
};

std::optional<std::uint64_t> parse_hex_address(std::string_view text);

}  // namespace el2fx::profiling
