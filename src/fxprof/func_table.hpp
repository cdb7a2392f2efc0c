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
        const Stored& s = rows_[i];
        return s.detail == kBare ? FuncInfo{.name = StringHandle(s.name)} : details_[s.detail];
    }
    std::size_t size() const { return rows_.size(); }

private:
    // Most functions are a bare name (a Haskell thread, a state, a reason): 8 bytes. The few
    // with more (cost centres: a module, a source location) keep their whole row aside.
    struct Stored {
        std::uint32_t name;
        std::uint32_t detail;  // index in details_, or kBare
    };
    static constexpr std::uint32_t kBare = UINT32_MAX;
    FuncHandle append(const FuncInfo& f);

    util::ChunkedVector<Stored> rows_;  // in blocks: one per Haskell thread
    std::vector<FuncInfo> details_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
