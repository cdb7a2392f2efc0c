// The answers of an id lookup (a hash map's, a chain of tables') for the ids asked recently,
// one slot per id modulo N: the scheduler events of a log (tens of millions) name the same
// few threads again and again, and a slot answers with one load where the lookup takes several.
// The owner keeps it true: it forgets an id whose answer changes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace el2fx::util {

template <typename V, std::size_t N = 64>
class RecentIds {
public:
    // The answer noted for `id`, or nullptr.
    V* find(std::uint32_t id) {
        Slot& s = slots_[id % N];
        return s.id_plus_one == std::uint64_t{id} + 1 ? &s.value : nullptr;
    }
    // Notes `id`'s answer, in place of the slot's earlier one.
    V& note(std::uint32_t id, V value) {
        Slot& s = slots_[id % N];
        s = Slot{std::uint64_t{id} + 1, std::move(value)};
        return s.value;
    }
    void forget(std::uint32_t id) {
        if (find(id)) slots_[id % N] = Slot{};
    }
    void clear() { slots_ = {}; }

private:
    struct Slot {
        std::uint64_t id_plus_one = 0;  // 0: empty
        V value{};
    };
    std::array<Slot, N> slots_{};
};

}  // namespace el2fx::util
