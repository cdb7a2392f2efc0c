#include "fxprof/string_table.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof {

StringHandle StringTable::handle_for(std::string_view s) {
    if (auto it = index_.find(s); it != index_.end()) return StringHandle(it->second);
    if (strings_.size() >= UINT32_MAX) throw Error("profile string table is full");
    const auto index = static_cast<std::uint32_t>(strings_.size());
    const std::string& stored = strings_.emplace_back(s);
    index_.emplace(std::string_view(stored), index);
    return StringHandle(index);
}

}  // namespace el2fx::fxprof
