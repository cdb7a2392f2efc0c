// A map from ids to values for a set that comes and goes by the hundred thousand and whose ids
// are any (a subset of the threads, say every tenth): the values sit side by side in one
// vector, a freed one reused by the next, chained from a table of 4-byte bucket heads (at most
// one value per bucket on average). A node-based hash map costs a node, a bucket and an
// allocator's header per value; the memory here is the values plus 8 to 12 bytes each. The
// values vector never shrinks: it keeps the most values held at once.
//
// An id's bucket is the id itself (modulo the buckets), so that ids made one after another
// are placed and looked up in order: a hashed place would miss the cache each time. Once a
// chain grows longer than kLongestChain (ids that share their low bits, as a hostile log's
// may), the ids are mixed for good (util::mix64), whatever they are.
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
        std::size_t walked = 0;
        const std::uint32_t at = find_in(id, walked);
        return at == kNone ? nullptr : &values_[at].value;
    }
    const V* find(std::uint32_t id) const { return const_cast<SlabIdMap*>(this)->find(id); }
    bool contains(std::uint32_t id) const { return find(id) != nullptr; }

    // The id's value and whether it was made now (value-initialised).
    std::pair<V&, bool> try_emplace(std::uint32_t id) {
        std::size_t walked = 0;
        if (const std::uint32_t at = find_in(id, walked); at != kNone) return {values_[at].value, false};
        if (size_ + 1 > heads_.size()) {
            rehash(std::max<std::size_t>(64, heads_.size() * 2));
        } else if (walked >= kLongestChain && !mixed_) {
            mixed_ = true;
            rehash(heads_.size());
        }
        std::uint32_t at;
        if (free_ != kNone) {
            at = free_;
            free_ = values_[at].next;
        } else {
            at = static_cast<std::uint32_t>(values_.size());
            values_.emplace_back();
        }
        std::uint32_t& head = heads_[bucket(id)];
        values_[at].id = id;
        values_[at].next = head;
        head = at;
        ++size_;
        return {values_[at].value, true};
    }
    V& operator[](std::uint32_t id) { return try_emplace(id).first; }

    // Erases the id's value (its entry kept for the next); false where there is none.
    bool erase(std::uint32_t id) {
        if (size_ == 0) return false;
        for (std::uint32_t* link = &heads_[bucket(id)]; *link != kNone; link = &values_[*link].next) {
            const std::uint32_t at = *link;
            if (values_[at].id != id) continue;
            *link = values_[at].next;
            values_[at].value = V{};
            values_[at].next = free_;
            free_ = at;
            --size_;
            return true;
        }
        return false;
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    // The buckets, and whether ids are mixed (for tests).
    std::size_t buckets() const { return heads_.size(); }
    bool mixed() const { return mixed_; }

    // A chain this long makes the ids mixed.
    static constexpr std::size_t kLongestChain = 16;

private:
    static constexpr std::uint32_t kNone = ~std::uint32_t{0};
    struct Entry {
        std::uint32_t id = 0;
        std::uint32_t next = kNone;  // the next of its chain, or while free the next free entry
        V value{};
    };

    std::size_t bucket(std::uint32_t id) const {
        return static_cast<std::size_t>(mixed_ ? mix64(id) : std::uint64_t{id}) & mask_;
    }
    // The id's entry, or kNone; `walked`: the entries of its chain looked at.
    std::uint32_t find_in(std::uint32_t id, std::size_t& walked) const {
        if (size_ == 0) return kNone;
        for (std::uint32_t at = heads_[bucket(id)]; at != kNone; at = values_[at].next, ++walked)
            if (values_[at].id == id) return at;
        return kNone;
    }
    // `n` buckets (a power of two), every value chained again.
    void rehash(std::size_t n) {
        std::vector<bool> unused(values_.size());
        for (std::uint32_t f = free_; f != kNone; f = values_[f].next) unused[f] = true;
        heads_.assign(n, kNone);
        mask_ = n - 1;
        for (std::uint32_t at = 0; at < values_.size(); ++at) {
            if (unused[at]) continue;
            std::uint32_t& head = heads_[bucket(values_[at].id)];
            values_[at].next = head;
            head = at;
        }
    }

    std::vector<std::uint32_t> heads_;  // by bucket: its chain's first entry, or kNone
    std::size_t mask_ = 0;
    std::vector<Entry> values_;
    std::uint32_t free_ = kNone;  // the first free entry of values_
    std::size_t size_ = 0;
    bool mixed_ = false;  // bucket() mixes the ids
};

}  // namespace el2fx::util
