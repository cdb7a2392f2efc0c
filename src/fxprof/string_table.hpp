// shared.stringArray: every string of the profile, interned once. Strings are kept as given
// (bytes); the writer repairs invalid UTF-8 when it writes them.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "fxprof/flat_index.hpp"
#include "fxprof/handles.hpp"

namespace el2fx::fxprof {

class StringTable {
public:
    StringTable() = default;
    // Views point into the table's own blocks: a copy would point into the original.
    // Moving keeps the blocks where they are, so moves are fine.
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;
    StringTable(StringTable&&) = default;
    StringTable& operator=(StringTable&&) = default;

    StringHandle handle_for(std::string_view s);
    // A string the caller knows to be new and keeps the handle of: stored without an index
    // entry (handle_for() of the same string later stores it again).
    StringHandle add_distinct(std::string_view s);
    // Valid as long as the table lives: stored bytes never move.
    std::string_view get(StringHandle h) const { return strings_[h.index()]; }
    std::size_t size() const { return strings_.size(); }
    bool contains(StringHandle h) const { return h.index() < strings_.size(); }

private:
    std::string_view store(std::string_view s);

    // The bytes, packed into blocks that are never reallocated (so the views stay valid).
    std::vector<std::unique_ptr<char[]>> blocks_;
    std::vector<std::unique_ptr<char[]>> large_;  // one string each
    std::size_t block_free_ = 0;  // bytes left at the end of the last block
    char* block_next_ = nullptr;
    std::vector<std::string_view> strings_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
