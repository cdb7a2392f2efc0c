#include "fxprof/string_table.hpp"

#include <cstring>
#include <functional>

#include "fxprof/hash_mix.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {
constexpr std::size_t kBlockBytes = 64 * 1024;
}

std::string_view StringTable::store(std::string_view s) {
    if (s.empty()) return std::string_view();
    if (s.size() > kBlockBytes / 4) {  // a long string: a block of its own
        large_.push_back(std::make_unique<char[]>(s.size()));
        std::memcpy(large_.back().get(), s.data(), s.size());
        return std::string_view(large_.back().get(), s.size());
    }
    if (s.size() > block_free_) {
        blocks_.push_back(std::make_unique<char[]>(kBlockBytes));
        block_next_ = blocks_.back().get();
        block_free_ = kBlockBytes;
    }
    std::memcpy(block_next_, s.data(), s.size());
    std::string_view stored(block_next_, s.size());
    block_next_ += s.size();
    block_free_ -= s.size();
    return stored;
}

StringHandle StringTable::add_distinct(std::string_view s) {
    if (strings_.size() >= UINT32_MAX) throw Error("profile string table is full");
    strings_.push_back(store(s));
    return StringHandle(static_cast<std::uint32_t>(strings_.size() - 1));
}

StringHandle StringTable::handle_for(std::string_view s) {
    if (strings_.size() >= UINT32_MAX) throw Error("profile string table is full");
    const auto next = static_cast<std::uint32_t>(strings_.size());
    const std::uint64_t hash = mix64(std::hash<std::string_view>{}(s));
    auto [row, added] = index_.intern(hash, next, [&](std::uint32_t r) { return strings_[r] == s; });
    if (added) strings_.push_back(store(s));
    return StringHandle(row);
}

}  // namespace el2fx::fxprof
