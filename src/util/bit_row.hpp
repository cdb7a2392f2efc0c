// A row of bits indexed by id, for the id tables' hot lookups (id_map.hpp): its size is a field
// and a bit is one word's load and a shift. std::vector<bool> works out its size from two bit
// iterators at every bounds check, which costs several loads in lookups made per event.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace el2fx::util {

class BitRow {
public:
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // i < size().
    bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1u; }
    void set(std::size_t i) { words_[i / 64] |= std::uint64_t{1} << (i % 64); }
    void reset(std::size_t i) { words_[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
    // Grows or shrinks to `n` bits; the new ones are clear, the kept ones keep their values.
    void resize(std::size_t n) {
        if (n < size_) {  // clear the bits dropped from the last kept word: a later growth reads them
            for (std::size_t i = n; i < size_ && i % 64 != 0; ++i) reset(i);
        }
        words_.resize((n + 63) / 64, 0);
        size_ = n;
    }
    // Room for `n` bits without a reallocation.
    void reserve(std::size_t n) { words_.reserve((n + 63) / 64); }

private:
    std::vector<std::uint64_t> words_;
    std::size_t size_ = 0;
};

}  // namespace el2fx::util
