#include "fxprof/string_table.hpp"

#include <cstring>
#include <functional>

#include "util/hash_mix.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {
constexpr std::size_t kBlockBytes = 64 * 1024;
constexpr unsigned char kEmpty[1] = {0};  // every empty string: its length, 0

std::size_t varint_size(std::size_t v) {
    std::size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
}

unsigned char* put_varint(unsigned char* p, std::size_t v) {
    for (; v >= 0x80; v >>= 7) *p++ = static_cast<unsigned char>(v | 0x80);
    *p++ = static_cast<unsigned char>(v);
    return p;
}
}  // namespace

const unsigned char* StringTable::store(std::string_view s) {
    if (s.empty()) return kEmpty;
    const std::size_t bytes = varint_size(s.size()) + s.size();
    unsigned char* at;
    if (bytes > kBlockBytes / 4) {  // a long string: a block of its own
        large_.push_back(std::make_unique_for_overwrite<unsigned char[]>(bytes));
        at = large_.back().get();
    } else {
        if (bytes > block_free_) {
            blocks_.push_back(std::make_unique_for_overwrite<unsigned char[]>(kBlockBytes));
            block_next_ = blocks_.back().get();
            block_free_ = kBlockBytes;
        }
        at = block_next_;
        block_next_ += bytes;
        block_free_ -= bytes;
    }
    std::memcpy(put_varint(at, s.size()), s.data(), s.size());
    return at;
}

StringHandle StringTable::add_distinct(std::string_view s) {
    if (strings_.size() >= UINT32_MAX) throw Error("profile string table is full");
    strings_.push_back(store(s));
    return StringHandle(static_cast<std::uint32_t>(strings_.size() - 1));
}

void StringTable::replace_distinct(StringHandle h, std::string_view s) {
    if (!contains(h)) throw Error("profile string table: no such string");
    strings_[h.index()] = store(s);
}

StringHandle StringTable::handle_for(std::string_view s) {
    if (strings_.size() >= UINT32_MAX) throw Error("profile string table is full");
    const auto next = static_cast<std::uint32_t>(strings_.size());
    const std::uint64_t hash = util::mix64(std::hash<std::string_view>{}(s));
    auto [row, added] = index_.intern(hash, next, [&](std::uint32_t r) { return stored(strings_[r]) == s; });
    if (added) strings_.push_back(store(s));
    return StringHandle(row);
}

}  // namespace el2fx::fxprof
