// shared.stringArray: every string of the profile, interned once. Strings are kept as given
// (bytes); the writer repairs invalid UTF-8 when it writes them.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "fxprof/flat_index.hpp"
#include "fxprof/handles.hpp"
#include "util/chunked_vector.hpp"

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
    // A new text for a string from add_distinct() (one no index entry names); the old bytes
    // stay unused.
    void replace_distinct(StringHandle h, std::string_view s);
    // Valid as long as the table lives: stored bytes never move.
    std::string_view get(StringHandle h) const { return stored(strings_[h.index()]); }
    std::size_t size() const { return strings_.size(); }
    bool contains(StringHandle h) const { return h.index() < strings_.size(); }

private:
    // A string is kept as its length (a LEB128 varint) then its bytes, and named by where
    // that starts: 8 bytes a row instead of a 16-byte view, for 100,000s of thread names.
    static std::string_view stored(const unsigned char* at) {
        std::size_t size = 0;
        for (unsigned shift = 0;; shift += 7) {
            const unsigned char b = *at++;
            size |= std::size_t{b & 0x7fu} << shift;
            if (!(b & 0x80)) break;
        }
        return std::string_view(reinterpret_cast<const char*>(at), size);
    }
    const unsigned char* store(std::string_view s);

    // The bytes, packed into blocks that are never reallocated (so the views stay valid).
    std::vector<std::unique_ptr<unsigned char[]>> blocks_;
    std::vector<std::unique_ptr<unsigned char[]>> large_;  // one string each
    std::size_t block_free_ = 0;                           // bytes left at the end of the last block
    unsigned char* block_next_ = nullptr;
    util::ChunkedVector<const unsigned char*> strings_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
