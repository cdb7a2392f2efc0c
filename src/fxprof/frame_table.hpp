// shared.frameTable: a function at a line, with a category. Interned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "fxprof/handles.hpp"
#include "fxprof/interning_table.hpp"

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

// Most frames are only their function (a Haskell thread's name): such a row is that function,
// 4 bytes; one with a category or a line keeps its whole row aside.
struct FrameRows {
    using Row = FrameInfo;
    using Handle = FrameHandle;
    using Key = FuncHandle;
    static Key key(const Row& f) { return f.func; }
    static Row bare(Key func) { return Row{.func = func}; }
    static std::size_t hash(const Row& f) noexcept;
    static constexpr const char* kFull = "profile frame table is full";
};

using FrameTable = InterningTable<FrameRows>;

}  // namespace el2fx::fxprof
