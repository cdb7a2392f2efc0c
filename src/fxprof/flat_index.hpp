// The index of an interning table: open addressing over 8-byte slots (row number, hash), so a
// table of n rows costs at most 16n bytes of index and no allocation per row. The rows stay in
// the table's own columns; a lookup compares candidates through the caller's `equals(row)`.
// (A node-based std::unordered_map costs 60+ bytes and one allocation per row, which for a
// profile with 100,000s of Haskell threads was most of the conversion's memory.)
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace el2fx::fxprof {

class FlatIndex {
public:
    // The row whose key hashes to `hash` and satisfies `equals(row)`; otherwise `new_row` is
    // remembered under `hash` (the caller appends it to its columns). Returns the row and
    // whether it is new.
    template <class Equals>
    std::pair<std::uint32_t, bool> intern(std::uint64_t hash, std::uint32_t new_row, Equals&& equals) {
        if ((size_ + 1) * 2 > slots_.size()) grow();
        const std::uint32_t h = fold(hash);
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = h & mask;; i = (i + 1) & mask) {
            Slot& s = slots_[i];
            if (s.row_plus_one == 0) {
                s = Slot{new_row + 1, h};
                ++size_;
                return {new_row, true};
            }
            if (s.hash == h && equals(s.row_plus_one - 1)) return {s.row_plus_one - 1, false};
        }
    }

    std::size_t size() const { return size_; }

private:
    struct Slot {
        std::uint32_t row_plus_one = 0;  // 0: empty
        std::uint32_t hash = 0;
    };

    static std::uint32_t fold(std::uint64_t hash) {
        return static_cast<std::uint32_t>(hash >> 32) ^ static_cast<std::uint32_t>(hash);
    }

    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
        const std::size_t mask = slots_.size() - 1;
        for (const Slot& s : old) {
            if (s.row_plus_one == 0) continue;
            std::size_t i = s.hash & mask;
            while (slots_[i].row_plus_one != 0) i = (i + 1) & mask;
            slots_[i] = s;
        }
    }

    std::vector<Slot> slots_;  // a power of two, at most half full
    std::size_t size_ = 0;
};

}  // namespace el2fx::fxprof
