// A map from ids that count up (GHC's thread ids) to the values of the ones alive now, for a
// log that starts and finishes threads by the million with thousands alive at once. A value
// sits in a ring at its id's place (the id modulo the ring's size): threads made one after
// another sit side by side, and the analyses meet them in about that order, so a lookup finds
// its value in a cache line it just used or the next one (a hash map's nodes lie scattered,
// and a lookup of a cold one is a miss). An id whose place another alive value holds goes to
// a hash map beside the ring: of the two, the older one (a long-lived thread, so that the new
// ones keep their places). The ring doubles while a sixteenth of the values it holds sit
// beside it and it has fewer than twice as many places as values: its memory follows the most
// values alive at once, whatever the ids (a hostile log's ids that share a place all go beside
// it, as they would into any hash map). It does not shrink: a program's live threads come in
// waves, and a ring halved in a trough is doubled again at the next crest.
//
// Values move when others are added: hold no reference across an addition; look up by id.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace el2fx::util {

template <class V>
class LiveIdRing {
public:
    static constexpr std::size_t kMinSlots = 1024;

    V* find(std::uint32_t id) {
        Slot& s = ring_[id & mask_];
        if (s.id_plus_one == std::uint64_t{id} + 1) return &s.value;
        if (beside_.empty()) return nullptr;
        const auto it = beside_.find(id);
        return it == beside_.end() ? nullptr : &it->second;
    }
    const V* find(std::uint32_t id) const { return const_cast<LiveIdRing*>(this)->find(id); }
    bool contains(std::uint32_t id) const { return find(id) != nullptr; }

    // The id's value and whether it was made now (value-initialised).
    std::pair<V&, bool> try_emplace(std::uint32_t id) {
        if (V* v = find(id)) return {*v, false};
        ++size_;
        if (ring_[id & mask_].id_plus_one != 0 && beside_.size() * 16 > in_ring_ && ring_.size() < 2 * size_)
            resize(ring_.size() * 2);
        return {place(id, V{}), true};
    }
    V& operator[](std::uint32_t id) { return try_emplace(id).first; }

    // Erases the id's value; false where there is none.
    bool erase(std::uint32_t id) {
        Slot& s = ring_[id & mask_];
        if (s.id_plus_one == std::uint64_t{id} + 1) {
            s.id_plus_one = 0;
            s.value = V{};
            --in_ring_;
        } else if (beside_.erase(id) == 0) {
            return false;
        }
        --size_;
        return true;
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // The ring's slots, and the values beside it (for tests).
    std::size_t slots() const { return ring_.size(); }
    std::size_t beside() const { return beside_.size(); }

    // f(id, value) for every value, in no particular order; f must not add or erase.
    template <class F>
    void for_each(F&& f) const {
        for (const Slot& s : ring_)
            if (s.id_plus_one != 0) f(static_cast<std::uint32_t>(s.id_plus_one - 1), s.value);
        for (const auto& [id, v] : beside_) f(id, v);
    }

private:
    struct Slot {
        std::uint64_t id_plus_one = 0;  // 0: free
        V value{};
    };

    // Every value placed again in a ring of `n` slots (a power of two).
    void resize(std::size_t n) {
        std::vector<Slot> old = std::exchange(ring_, std::vector<Slot>(n));
        std::unordered_map<std::uint32_t, V> was_beside = std::exchange(beside_, {});
        mask_ = n - 1;
        in_ring_ = 0;
        for (Slot& s : old)
            if (s.id_plus_one != 0) place(static_cast<std::uint32_t>(s.id_plus_one - 1), std::move(s.value));
        for (auto& [id, v] : was_beside) place(id, std::move(v));
    }
    // Puts `v` at the id's place, or beside the ring where an older id's value holds it (the
    // newer id takes the place, the older value goes beside); where it went.
    V& place(std::uint32_t id, V&& v) {
        Slot& s = ring_[id & mask_];
        if (s.id_plus_one == 0) {
            ++in_ring_;
        } else {
            const auto other = static_cast<std::uint32_t>(s.id_plus_one - 1);
            if (other > id) return beside_.try_emplace(id, std::move(v)).first->second;
            beside_.try_emplace(other, std::move(s.value));
        }
        s.id_plus_one = std::uint64_t{id} + 1;
        s.value = std::move(v);
        return s.value;
    }

    std::vector<Slot> ring_ = std::vector<Slot>(kMinSlots);
    std::size_t mask_ = kMinSlots - 1;
    std::unordered_map<std::uint32_t, V> beside_;
    std::size_t size_ = 0;     // values in all
    std::size_t in_ring_ = 0;  // of them in the ring
};

}  // namespace el2fx::util
