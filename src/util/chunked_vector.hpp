// An append-only sequence stored in fixed blocks, for the big tables that grow all through a
// conversion (a profile's stacks, frames, strings). A std::vector doubles: at the moment it
// grows it holds its old and new arrays (three times the data), and afterwards up to half of
// it is slack. Here growth adds one block and copies nothing, so the memory is the data plus
// at most one block. The first block grows like a vector up to the block size, so that a
// small table stays small. Elements never move once in a full block, but the first block
// moves while it grows: hold indexes, not pointers.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

namespace el2fx::util {

template <class T, std::size_t kBlockBytes = std::size_t{64} << 10>
class ChunkedVector {
public:
    // Elements per block: a power of two, so an index splits with a shift and a mask.
    static constexpr std::size_t kBlockSize = std::bit_floor(std::max<std::size_t>(kBlockBytes / sizeof(T), 1));

    ChunkedVector() = default;
    ChunkedVector(ChunkedVector&&) noexcept = default;
    ChunkedVector& operator=(ChunkedVector&&) noexcept = default;
    ChunkedVector(const ChunkedVector&) = delete;
    ChunkedVector& operator=(const ChunkedVector&) = delete;

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }

    T& operator[](std::size_t i) { return blocks_[i / kBlockSize][i % kBlockSize]; }
    const T& operator[](std::size_t i) const { return blocks_[i / kBlockSize][i % kBlockSize]; }
    T& back() { return (*this)[size_ - 1]; }
    const T& back() const { return (*this)[size_ - 1]; }

    void push_back(const T& value) {
        if (size_ == capacity_) grow();
        (*this)[size_++] = value;
    }

    void clear() {
        blocks_.clear();
        size_ = capacity_ = 0;
    }

    // Bytes held for elements (used or not), for tests and statistics.
    std::size_t capacity_bytes() const { return capacity_ * sizeof(T); }

private:
    void grow() {
        // Here, not on the class: a nested row type is complete only after its enclosing class.
        static_assert(std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>,
                      "rows are copied as bytes when the first block grows");
        if (capacity_ >= kBlockSize) {  // the first block is full-sized: add one more
            blocks_.push_back(std::make_unique_for_overwrite<T[]>(kBlockSize));
            capacity_ += kBlockSize;
            return;
        }
        const std::size_t n = std::min(kBlockSize, std::max<std::size_t>(16, capacity_ * 2));
        auto first = std::make_unique_for_overwrite<T[]>(n);
        if (size_) std::memcpy(first.get(), blocks_[0].get(), size_ * sizeof(T));
        if (blocks_.empty())
            blocks_.push_back(std::move(first));
        else
            blocks_[0] = std::move(first);
        capacity_ = n;
    }

    std::vector<std::unique_ptr<T[]>> blocks_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

}  // namespace el2fx::util
