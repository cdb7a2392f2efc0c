// shared.funcTable: functions, interned by everything that describes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "fxprof/handles.hpp"
#include "fxprof/interning_table.hpp"

namespace el2fx::fxprof {

struct FuncInfo {
    StringHandle name;
    std::optional<ResourceHandle> resource{};  // written as -1 when absent
    std::optional<SourceHandle> source{};      // the file; null when absent
    std::optional<std::uint32_t> line{};       // where the function starts (1-based)
    std::optional<std::uint32_t> column{};
    bool is_js = false;
    bool relevant_for_js = false;
    bool operator==(const FuncInfo&) const = default;
};

// Most functions are a bare name (a Haskell thread, a state, a reason): such a row is that
// name, 4 bytes. The few with more (cost centres: a module, a source location) keep their
// whole row aside.
struct FuncRows {
    using Row = FuncInfo;
    using Handle = FuncHandle;
    using Key = StringHandle;
    static Key key(const Row& f) { return f.name; }
    static Row bare(Key name) { return Row{.name = name}; }
    static std::size_t hash(const Row& f) noexcept;
    static constexpr const char* kFull = "profile func table is full";
};

using FuncTable = InterningTable<FuncRows>;

}  // namespace el2fx::fxprof
