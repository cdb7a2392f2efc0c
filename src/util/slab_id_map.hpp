// A map from ids to values for a set that comes and goes by the hundred thousand and whose ids
// are any (a subset of the threads, say every tenth): the values sit side by side in one
// vector, a freed one reused by the next, and a table of their indexes finds
// them by open addressing (a mixed id, linear probing, no tombstones; a slot holds the id
// and the value's index, 8 bytes, at most three quarters of them used). A node-based hash map
// costs a node, a bucket and an allocator's header per value, and a division per lookup; the
// memory here is the values plus 11 to 22 bytes each. The values vector never shrinks: it
// keeps the most values held at once.
//
// Values move when others are added: hold no reference across an addition; look up by id.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "util/hash_mix.hpp"

namespace el2fx::util {

template <class V>
class SlabIdMap {
public:
    V* find(std::uint32_t id) {
        if (size_ == 0) return nullptr;
        for (std::size_t s = home(id);; s = (s + 1) & mask_) {
            const Slot slot = slots_[s];
            if (slot.at == kEmpty) return nullptr;
            if (slot.id == id) return &values_[slot.at].value;
        }
    }
    const V* find(std::uint32_t id) const { return const_cast<SlabIdMap*>(this)->find(id); }
    bool contains(std::uint32_t id) const { return find(id) != nullptr; }

    // The id's value and whether it was made now (value-initialised).
    std::pair<V&, bool> try_emplace(std::uint32_t id) {
        if (V* v = find(id)) return {*v, false};
        if ((size_ + 1) * 4 > slots_.size() * 3) grow();
        std::uint32_t at;
        if (free_ != kEmpty) {
            at = free_;
            free_ = values_[at].next_free;
            values_[at] = Entry{id, kHeld, V{}};
        } else {
            at = static_cast<std::uint32_t>(values_.size());
            values_.push_back(Entry{id, kHeld, V{}});
        }
        std::size_t s = home(id);
        while (slots_[s].at != kEmpty) s = (s + 1) & mask_;
        slots_[s] = Slot{id, at};
        ++size_;
        return {values_[at].value, true};
    }
    V& operator[](std::uint32_t id) { return try_emplace(id).first; }

    // Erases the id's value (its memory kept for the next); false where there is none.
    bool erase(std::uint32_t id) {
        if (size_ == 0) return false;
        std::size_t s = home(id);
        for (;; s = (s + 1) & mask_) {
            if (slots_[s].at == kEmpty) return false;
            if (slots_[s].id == id) break;
        }
        const std::uint32_t at = slots_[s].at;
        values_[at].value = V{};
        values_[at].next_free = free_;
        free_ = at;
        --size_;
        // Backward shift: a later value of the run moves into the hole where its home is not
        // between the hole and it, so that no probe meets an empty slot before its value.
        slots_[s] = Slot{};
        for (std::size_t hole = s, next = (s + 1) & mask_; slots_[next].at != kEmpty; next = (next + 1) & mask_) {
            const std::size_t want = home(slots_[next].id);
            if (((next - want) & mask_) >= ((next - hole) & mask_)) {
                slots_[hole] = slots_[next];
                slots_[next] = Slot{};
                hole = next;
            }
        }
        return true;
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // The table's slots (for tests).
    std::size_t slots() const { return slots_.size(); }

private:
    static constexpr std::uint32_t kEmpty = ~std::uint32_t{0};  // no slot; the free list's end
    static constexpr std::uint32_t kHeld = kEmpty - 1;           // an entry that holds a value
    struct Entry {
        std::uint32_t id = 0;
        std::uint32_t next_free = kHeld;  // while free: the next free entry (kEmpty: none)
        V value{};
    };

    std::size_t home(std::uint32_t id) const { return static_cast<std::size_t>(mix64(id)) & mask_; }

    // Twice the slots (at least 64), every value's index placed again.
    void grow() {
        const std::size_t n = std::max<std::size_t>(64, slots_.size() * 2);
        slots_.assign(n, Slot{});
        mask_ = n - 1;
        for (std::uint32_t at = 0; at < values_.size(); ++at) {
            if (values_[at].next_free != kHeld) continue;  // a free entry
            std::size_t s = home(values_[at].id);
            while (slots_[s].at != kEmpty) s = (s + 1) & mask_;
            slots_[s] = Slot{values_[at].id, at};
        }
    }

    // The id beside its value's index: a probe and the shift after an erasure read the table
    // alone, not the values they pass.
    struct Slot {
        std::uint32_t id = 0;
        std::uint32_t at = kEmpty;  // an index into values_, or kEmpty
    };
    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
    std::vector<Entry> values_;
    std::uint32_t free_ = kEmpty;  // the first free entry of values_
    std::size_t size_ = 0;
};

}  // namespace el2fx::util
