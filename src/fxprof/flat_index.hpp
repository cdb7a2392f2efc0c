// The index of an interning table: linear probing over 8-byte slots (row number, hash), so a
// table of n rows costs 11n to 16n bytes of index and no allocation per row. The rows stay in
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
        if (size_ + 1 > slots_.size() / 4 * 3) grow();
        const std::uint32_t h = fold(hash);
        const std::size_t n = slots_.size();
        for (std::size_t i = home(h, n);; i = i + 1 == n ? 0 : i + 1) {
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

    // Forgets every row, keeping the slots for the next rows.
    void clear() {
        slots_.assign(slots_.size(), Slot{});
        size_ = 0;
    }

private:
    struct Slot {
        std::uint32_t row_plus_one = 0;  // 0: empty
        std::uint32_t hash = 0;
    };

    static std::uint32_t fold(std::uint64_t hash) {
        return static_cast<std::uint32_t>(hash >> 32) ^ static_cast<std::uint32_t>(hash);
    }

    // A slot's first place: the hash scaled to the table (any size, not only powers of two).
    static std::size_t home(std::uint32_t h, std::size_t n) {
        return static_cast<std::size_t>((std::uint64_t{h} * n) >> 32);
    }

    // By half again, so the index stays between 1.33 and 2 slots a row.
    void grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 64 : old.size() + old.size() / 2, Slot{});
        const std::size_t n = slots_.size();
        for (const Slot& s : old) {
            if (s.row_plus_one == 0) continue;
            std::size_t i = home(s.hash, n);
            while (slots_[i].row_plus_one != 0) i = i + 1 == n ? 0 : i + 1;
            slots_[i] = s;
        }
    }

    std::vector<Slot> slots_;  // at most three quarters full
    std::size_t size_ = 0;
};

}  // namespace el2fx::fxprof
