// shared.frameTable: a function at a line, with a category. Interned.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fxprof/flat_index.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/row_view.hpp"
#include "util/chunked_vector.hpp"

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
    RowView<FrameTable, FrameInfo> rows() const { return RowView<FrameTable, FrameInfo>(*this); }
    FrameInfo row(std::size_t i) const {
        const Stored& s = rows_[i];
        return s.detail == kBare ? FrameInfo{.func = FuncHandle(s.func)} : details_[s.detail];
    }
    std::size_t size() const { return rows_.size(); }

private:
    // As in FuncTable: a frame that is only its function (a Haskell thread's name) takes 8
    // bytes; one with a category or a line keeps its whole row aside.
    struct Stored {
        std::uint32_t func;
        std::uint32_t detail;  // index in details_, or kBare
    };
    static constexpr std::uint32_t kBare = UINT32_MAX;
    FrameHandle append(const FrameInfo& f);

    util::ChunkedVector<Stored> rows_;  // in blocks: one per Haskell thread
    std::vector<FrameInfo> details_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
