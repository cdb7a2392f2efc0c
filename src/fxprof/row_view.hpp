// A read-only view of a table whose rows are stored packed and handed out as values:
// `view[i]`, `view.size()` and range-for (each row a temporary, so `const T&` binds to it).
#pragma once

#include <cstddef>
#include <iterator>

namespace el2fx::fxprof {

template <class Table, class Row>
class RowView {
public:
    explicit RowView(const Table& table) : table_(&table) {}

    std::size_t size() const { return table_->size(); }
    Row operator[](std::size_t i) const { return table_->row(i); }

    class iterator {
    public:
        using iterator_category = std::input_iterator_tag;
        using value_type = Row;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Row;

        iterator(const Table* table, std::size_t i) : table_(table), i_(i) {}
        Row operator*() const { return table_->row(i_); }
        iterator& operator++() {
            ++i_;
            return *this;
        }
        bool operator==(const iterator& o) const { return i_ == o.i_; }

    private:
        const Table* table_;
        std::size_t i_;
    };
    iterator begin() const { return iterator(table_, 0); }
    iterator end() const { return iterator(table_, table_->size()); }

private:
    const Table* table_;
};

}  // namespace el2fx::fxprof
