// An interning table of rows that are mostly one handle (a frame that is only its function, a
// function that is only its name): such a row is stored as that handle, 4 bytes; one with more
// keeps its whole row aside and is stored as kDetail | its index there. Rows are numbered in
// the order they were added. FrameTable and FuncTable are instances (frame_table.hpp,
// func_table.hpp).
//
// Traits says what the rows are:
//   using Row, Handle (the table's own handle), Key (the handle a bare row is);
//   static Key key(const Row&);           the handle a row is made of
//   static Row bare(Key);                 the row that is only that handle
//   static std::size_t hash(const Row&);
//   static constexpr const char* kFull;   the error when the table reaches 2^31 rows
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fxprof/flat_index.hpp"
#include "fxprof/row_view.hpp"
#include "util/chunked_vector.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

template <class Traits>
class InterningTable {
public:
    using Row = typename Traits::Row;
    using Handle = typename Traits::Handle;
    using Key = typename Traits::Key;

    Handle handle_for(const Row& r) {
        if (rows_.size() >= INT32_MAX) throw Error(Traits::kFull);
        const auto next = static_cast<std::uint32_t>(rows_.size());
        auto [i, added] = index_.intern(Traits::hash(r), next, [&](std::uint32_t j) { return row(j) == r; });
        return added ? append(r) : Handle(i);
    }
    // A row the caller knows to differ from every other and asks for once (it keeps the
    // handle): appended without an index entry. For one row per Haskell thread that saves most
    // of the index. handle_for() of an equal row later adds a second one.
    Handle add_distinct(const Row& r) { return append(r); }

    RowView<InterningTable, Row> rows() const { return RowView<InterningTable, Row>(*this); }
    Row row(std::size_t i) const {
        const std::uint32_t r = rows_[i];
        return r & kDetail ? details_[r & ~kDetail] : Traits::bare(Key(r));
    }
    std::size_t size() const { return rows_.size(); }

private:
    static constexpr std::uint32_t kDetail = 0x8000'0000u;  // a bare row from 2^31 on goes aside too

    Handle append(const Row& r) {
        if (rows_.size() >= INT32_MAX) throw Error(Traits::kFull);
        const std::uint32_t k = Traits::key(r).index();
        if (r == Traits::bare(Traits::key(r)) && k < kDetail) {
            rows_.push_back(k);
        } else {
            rows_.push_back(kDetail | static_cast<std::uint32_t>(details_.size()));
            details_.push_back(r);
        }
        return Handle(static_cast<std::uint32_t>(rows_.size() - 1));
    }

    util::ChunkedVector<std::uint32_t> rows_;  // in blocks: one per Haskell thread
    std::vector<Row> details_;
    FlatIndex index_;
};

}  // namespace el2fx::fxprof
