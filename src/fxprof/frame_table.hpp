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
    // A "native" location: the library and the offset in it. The profiler asks a symbol
    // server (/source/v1) for a file's text only with a frame that has both.
    std::optional<LibHandle> lib{};
    std::optional<std::uint32_t> address{};
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
        const std::uint32_t r = rows_[i];
        return r & kDetail ? details_[r & ~kDetail] : FrameInfo{.func = FuncHandle(r)};
    }
    std::size_t size() const { return rows_.size(); }

private:
    // As in FuncTable: a frame that is only its function (a Haskell thread's name) is that
    // function, 4 bytes; one with a category or a line keeps its whole row aside.
    static constexpr std::uint32_t kDetail = 0x8000'0000u;  // a bare row from 2^31 on goes aside too
    FrameHandle append(const FrameInfo& f);

    util::ChunkedVector<std::uint32_t> rows_;  // in blocks: one per Haskell thread
    std::vector<FrameInfo> details_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
