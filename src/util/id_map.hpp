// Maps and sets keyed by ids that a program hands out counting up (GHC's thread ids: 1, 2, 3 …).
// While the ids stay dense they index a table directly: a lookup is one load, an entry costs
// sizeof(V) plus a bit, not a 40-byte hash node. An id far beyond the others (an odd or hostile
// log) goes to a hash map instead, so memory stays proportional to the number of ids whatever
// their values. The table starts where the ids cluster: a log whose ids start in the millions
// (a program attached to late), or a map rebuilt with a few old ids and then the new ones,
// still gets direct lookups.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "util/bit_row.hpp"

namespace el2fx::util {

template <class V>
class IdMap {
public:
    // Inline to the hash lookup, which few ids need.
    V* find(std::uint32_t id) {
        const std::uint32_t i = id - base_;  // an id below the base wraps far beyond the table
        if (i < present_.size() && present_.test(i)) return &direct_[i];
        if (sparse_.empty() || id > far_max_) return nullptr;
        if (far_max_ < kFarBits && !far_bits_.test(id)) return nullptr;
        return find_far(id);
    }
    const V* find(std::uint32_t id) const { return const_cast<IdMap*>(this)->find(id); }
    bool contains(std::uint32_t id) const { return find(id) != nullptr; }

    // The id's value, default-constructed the first time.
    V& operator[](std::uint32_t id) { return try_emplace(id).first; }

    // The id's value and whether it was added now (from `value`).
    std::pair<V&, bool> try_emplace(std::uint32_t id, V value = V{}) {
        if (V* v = find(id)) return {*v, false};
        ++size_;
        if (!near(id)) {
            if (!new_cluster(id)) {
                last_far_ = id;
                note_far(id);
                return {sparse_.emplace(id, std::move(value)).first->second, true};
            }
            rebase(id);
        }
        const std::uint32_t i = id - base_;
        if (i >= present_.size()) {
            const std::size_t n = std::max<std::size_t>(std::size_t{i} + 1, present_.size() + present_.size() / 2);
            present_.reserve(n);  // exactly: resize alone may double the capacity
            present_.resize(n);
            direct_.reserve(n);
            direct_.resize(n);
        }
        present_.set(i);
        direct_[i] = std::move(value);
        ++direct_count_;
        return {direct_[i], true};
    }

    std::size_t size() const { return size_; }

    // Ids from the base on that the direct table spans (for tests).
    std::size_t direct_span() const { return present_.size(); }

private:
    [[gnu::noinline]] V* find_far(std::uint32_t id) {
        auto it = sparse_.find(id);
        return it == sparse_.end() ? nullptr : &it->second;
    }
    // Whether the id belongs in the direct table: at or above its base, within it or where it
    // may grow, to a few times the number of ids (plus some slack).
    bool near(std::uint32_t id) const {
        const std::uint32_t i = id - base_;
        return id >= base_ && (i < present_.size() || std::size_t{i} < 4 * size_ + 4096);
    }
    // Far ids that now come close together and outnumber the direct table's (a log whose ids
    // start in the millions, or new threads after most old ones were forgotten): the table
    // moves to them, and what it held goes to the hash map (each entry moves once at most).
    bool new_cluster(std::uint32_t id) const {
        return sparse_.size() >= direct_count_ + 64 && id > last_far_ && id - last_far_ <= 4096;
    }
    void rebase(std::uint32_t id) {
        for (std::size_t i = 0; i < present_.size(); ++i)
            if (present_.test(i)) {
                note_far(static_cast<std::uint32_t>(base_ + i));
                sparse_.emplace(static_cast<std::uint32_t>(base_ + i), std::move(direct_[i]));
            }
        direct_ = {};
        present_ = {};
        direct_count_ = 0;
        base_ = id;
    }

    // Lookups of ids that are in neither table (threads a part does not keep, asked about at
    // each of their events) must not each cost a hash lookup: no far id is above far_max_, and
    // while that is below kFarBits a bit per id tells which are far ones.
    static constexpr std::uint32_t kFarBits = std::uint32_t{1} << 23;  // a MiB of bits at most
    // Called before `id` goes into sparse_.
    void note_far(std::uint32_t id) {
        far_max_ = sparse_.empty() ? id : std::max(far_max_, id);
        if (far_max_ >= kFarBits) {  // for good: a hostile log's far ids are found by hashing
            if (!far_bits_.empty()) far_bits_ = {};
            return;
        }
        if (id >= far_bits_.size())
            far_bits_.resize(std::clamp<std::size_t>(2 * far_bits_.size(), std::size_t{id} + 1, kFarBits));
        far_bits_.set(id);
    }

    std::vector<V> direct_;      // by id - base_
    BitRow present_;  // which direct_ entries hold a value
    std::unordered_map<std::uint32_t, V> sparse_;
    std::size_t size_ = 0;
    std::size_t direct_count_ = 0;
    std::uint32_t base_ = 0;      // the direct table's first id
    std::uint32_t last_far_ = 0;  // the latest id that went to sparse_
    std::uint32_t far_max_ = 0;   // the largest id in sparse_ (when it has any)
    BitRow far_bits_;  // by id: whether it is in sparse_ (while far_max_ < kFarBits)
};

// A set of such ids: a bit per id while they stay dense (a hash node takes hundreds of bits),
// a hash set for the far ones. When the bitmap grows over ids of the hash set they move into
// it, so an id within the bitmap is answered by its bit alone (a set of few ids among millions
// is asked about every id: a hash lookup each would miss the cache).
class IdSet {
public:
    bool contains(std::uint32_t id) const {
        if (id < bits_.size()) return bits_.test(id);
        if (id > sparse_max_ || sparse_.empty()) return false;
        ++looked_up_;  // a hash lookup: the bitmap may grow over such ids (dense_enough)
        return sparse_.contains(id);
    }
    // True when the id was not in the set.
    bool insert(std::uint32_t id) {
        if (contains(id)) return false;
        ++size_;
        ++inserted_;
        if (id < bits_.size()) {
            bits_.set(id);
        } else if (dense_enough(id)) {
            grow(std::max<std::size_t>(std::size_t{id} + 1, bits_.size() + bits_.size() / 2));
            bits_.set(id);
        } else {
            sparse_.insert(id);
            sparse_max_ = std::max(sparse_max_, id);
        }
        return true;
    }
    // True when the id was in the set. The bitmap keeps its size.
    bool erase(std::uint32_t id) {
        if (id < bits_.size()) {
            if (!bits_.test(id)) return false;
            bits_.reset(id);
        } else if (sparse_.empty() || sparse_.erase(id) == 0) {
            return false;
        }
        --size_;
        return true;
    }
    std::size_t size() const { return size_; }
    // How many of its ids live in the hash set, and how often contains() asked it (tests).
    std::size_t hashed() const { return sparse_.size(); }
    std::size_t looked_up() const { return looked_up_; }

private:
    // The bitmap may take up to 16 bytes per id ever inserted, plus 8 KiB: by insertions, not
    // the size, so that a set that keeps few ids at a time (they come and go) still gets one.
    // And a byte per hash lookup, up to 8 MiB: a set of few ids asked about many others (a
    // thread's finish, of millions of threads) answers from its bits once it has grown over
    // them.
    static constexpr std::size_t kLookedUpBits = std::size_t{1} << 26;
    bool dense_enough(std::uint32_t id) const {
        return std::size_t{id} < 128 * inserted_ + std::min(8 * looked_up_, kLookedUpBits) + 65536;
    }

    // The bitmap spans ids below `n` from now on: the hash set's ids there move into it.
    void grow(std::size_t n) {
        bits_.resize(n);
        for (auto it = sparse_.begin(); it != sparse_.end();) {
            if (*it < n) {
                bits_.set(*it);
                it = sparse_.erase(it);
            } else {
                ++it;
            }
        }
    }

    BitRow bits_;
    std::unordered_set<std::uint32_t> sparse_;
    std::size_t size_ = 0;
    std::size_t inserted_ = 0;  // insertions ever (erased ones included)
    mutable std::size_t looked_up_ = 0;  // contains() asked the hash set
    // No id of the hash set is above it (the largest ever put there): the ids counting up past
    // every one in the set, the usual question, need no hash lookup.
    std::uint32_t sparse_max_ = 0;
};

}  // namespace el2fx::util
