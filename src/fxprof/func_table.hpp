// shared.funcTable: functions, interned by everything that describes them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "fxprof/flat_index.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/row_view.hpp"
#include "util/chunked_vector.hpp"

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

struct FuncInfoHash {
    std::size_t operator()(const FuncInfo& f) const noexcept;
};

class FuncTable {
public:
    FuncHandle handle_for(const FuncInfo& f);
    // A row the caller knows to differ from every other and asks for once (it keeps the
    // handle): appended without an index entry. For one function per Haskell thread that
    // saves most of the index. handle_for() of an equal row later adds a second one.
    FuncHandle add_distinct(const FuncInfo& f);
    RowView<FuncTable, FuncInfo> rows() const { return RowView<FuncTable, FuncInfo>(*this); }
    FuncInfo row(std::size_t i) const {
        const std::uint32_t r = rows_[i];
        return r & kDetail ? details_[r & ~kDetail] : FuncInfo{.name = StringHandle(r)};
    }
    std::size_t size() const { return rows_.size(); }

private:
    // Most functions are a bare name (a Haskell thread, a state, a reason): a row is then that
    // name, 4 bytes. The few with more (cost centres: a module, a source location) keep their
    // whole row aside and are marked kDetail | their index there.
    static constexpr std::uint32_t kDetail = 0x8000'0000u;  // a bare row from 2^31 on goes aside too
    FuncHandle append(const FuncInfo& f);

    util::ChunkedVector<std::uint32_t> rows_;  // in blocks: one per Haskell thread
    std::vector<FuncInfo> details_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
