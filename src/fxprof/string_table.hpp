// shared.stringArray: every string of the profile, interned once. Strings are kept as given
// (bytes); the writer repairs invalid UTF-8 when it writes them.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

#include "fxprof/handles.hpp"

namespace el2fx::fxprof {

class StringTable {
public:
    StringTable() = default;
    // The index holds views into the stored strings: a copy would point into the original.
    // Moving keeps the deque's elements where they are, so moves are fine.
    StringTable(const StringTable&) = delete;
    StringTable& operator=(const StringTable&) = delete;
    StringTable(StringTable&&) = default;
    StringTable& operator=(StringTable&&) = default;

    StringHandle handle_for(std::string_view s);
    std::string_view get(StringHandle h) const { return strings_[h.index()]; }
    std::size_t size() const { return strings_.size(); }
    bool contains(StringHandle h) const { return h.index() < strings_.size(); }

private:
    // A deque never moves its elements, so the views used as keys stay valid.
    std::deque<std::string> strings_;
    std::unordered_map<std::string_view, std::uint32_t> index_;
};

}  // namespace el2fx::fxprof
