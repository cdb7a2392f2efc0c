#include "analysis/ghc_profiling/info_tables.hpp"

#include <charconv>

namespace el2fx::profiling {

void InfoTableCatalog::add(const eventlog::InfoProv& event) {
    InfoTable t;
    t.info = event.info;
    t.table_name = std::string(event.table_name.bytes);
    t.closure_desc = std::string(event.closure_desc.bytes);
    t.ty_desc = std::string(event.ty_desc.bytes);
    t.label = std::string(event.label.bytes);
    t.module = std::string(event.module.bytes);
    t.src_loc = std::string(event.src_loc.bytes);
    tables_.insert_or_assign(t.info, std::move(t));
}

const InfoTable* InfoTableCatalog::find(std::uint64_t info) const {
    auto it = tables_.find(info);
    return it == tables_.end() ? nullptr : &it->second;
}

const InfoTable* InfoTableCatalog::find_label(std::string_view label) const {
    auto address = parse_hex_address(label);
    return address ? find(*address) : nullptr;
}

std::optional<std::uint64_t> parse_hex_address(std::string_view text) {
    if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
    if (text.empty() || text.size() > 16) return std::nullopt;
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace el2fx::profiling
