// The answers of an id lookup (a hash map's, a chain of tables') for the ids asked recently,
// one slot per id modulo the slots' count: the scheduler events of a log (tens of millions)
// name the same few threads again and again, and a slot answers with one load where the
// lookup takes several. Where the ids asked are a known few (the threads with a track of their
// own), recent_slots_for() gives them room enough to rarely share a slot; where they are any of
// millions, a few slots keep the recent ones in the nearest cache.
// The owner keeps it true: it forgets an id whose answer changes.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace el2fx::util {

// A RecentIds's slots: a few by default, at most the most.
inline constexpr std::size_t kFewRecentSlots = 64;
inline constexpr std::size_t kMostRecentSlots = 1024;

// Slots for `ids` ids known in advance: four times as many, within the bounds above.
constexpr std::size_t recent_slots_for(std::size_t ids) {
    return std::clamp(std::bit_ceil(std::max<std::size_t>(ids, 1) * 4), kFewRecentSlots, kMostRecentSlots);
}

template <typename V>
class RecentIds {
public:
    // `slots` rounded up to a power of two, at most kMostRecentSlots.
    explicit RecentIds(std::size_t slots = kFewRecentSlots) : mask_(mask_for(slots)) {}

    // The answer noted for `id`, or nullptr.
    V* find(std::uint32_t id) {
        Slot& s = slots_[id & mask_];
        return s.id_plus_one == std::uint64_t{id} + 1 ? &s.value : nullptr;
    }
    // Notes `id`'s answer, in place of the slot's earlier one.
    V& note(std::uint32_t id, V value) {
        Slot& s = slots_[id & mask_];
        s = Slot{std::uint64_t{id} + 1, std::move(value)};
        return s.value;
    }
    void forget(std::uint32_t id) {
        if (find(id)) slots_[id & mask_] = Slot{};
    }
    void clear() { std::fill_n(slots_.begin(), mask_ + 1, Slot{}); }
    // Forgets every answer and takes `slots` slots from now on (as the constructor's).
    void reset(std::size_t slots) {
        clear();
        mask_ = mask_for(slots);
    }
    std::size_t slots() const { return mask_ + 1; }

private:
    static std::size_t mask_for(std::size_t slots) {
        return std::bit_ceil(std::clamp<std::size_t>(slots, 1, kMostRecentSlots)) - 1;
    }
    struct Slot {
        std::uint64_t id_plus_one = 0;  // 0: empty
        V value{};
    };
    // Inline, as many as it may take (16 KB of pointers' slots): a lookup reads no pointer
    // first. Those past the mask stay empty (reset() clears before it narrows).
    std::size_t mask_;
    std::array<Slot, kMostRecentSlots> slots_{};
};

}  // namespace el2fx::util
