// A set of ids fixed once made, which two threads may ask at once (util::IdSet counts its
// lookups): a bit per id below kBitIds, a hash set for the few beyond.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_set>
#include <vector>

#include "util/bit_row.hpp"

namespace el2fx::util {

class FixedIdSet {
public:
    static constexpr std::uint32_t kBitIds = 1u << 22;  // half a megabyte at most

    FixedIdSet() = default;
    explicit FixedIdSet(std::span<const std::uint32_t> ids) {
        for (std::uint32_t id : ids) {
            if (id >= kBitIds) {
                far_.insert(id);
                continue;
            }
            if (id >= bits_.size()) bits_.resize(std::size_t{id} + 1);
            if (!bits_.test(id)) ++bit_count_;
            bits_.set(id);
        }
    }
    // How many ids it holds.
    std::size_t size() const { return bit_count_ + far_.size(); }
    bool contains(std::uint32_t id) const {
        if (id < bits_.size()) return bits_.test(id);
        return !far_.empty() && far_.contains(id);
    }

private:
    BitRow bits_;
    std::size_t bit_count_ = 0;
    std::unordered_set<std::uint32_t> far_;
};

}  // namespace el2fx::util
