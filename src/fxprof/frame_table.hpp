// shared.frameTable: a function at a line, with a category. Interned.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fxprof/flat_index.hpp"
#include "fxprof/handles.hpp"

namespace el2fx::fxprof {

struct FrameInfo {
    FuncHandle func;
    // Null: the stack takes its parent's category (or the default one at the root).
    std::optional<SubcategoryHandle> category{};
    std::optional<std::uint32_t> line{};  // 1-based
    std::optional<std::uint32_t> column{};
    bool operator==(const FrameInfo&) const = default;
};

struct FrameInfoHash {
    std::size_t operator()(const FrameInfo& f) const noexcept;
};

class FrameTable {
public:
    FrameHandle handle_for(const FrameInfo& f);
    // As FuncTable::add_distinct: appended without an index entry.
    FrameHandle add_distinct(const FrameInfo& f);
    const std::vector<FrameInfo>& rows() const { return rows_; }
    std::size_t size() const { return rows_.size(); }

private:
    std::vector<FrameInfo> rows_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
