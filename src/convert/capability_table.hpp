// Per-capability state found by capability number with one indexed load: a capability's
// spans come by the million, too many for a tree lookup each. Capabilities are numbered from
// 0 and few, so a table by number (up to the largest one's) says where each entry is; the
// entries themselves lie side by side in ascending capability order, the order a
// std::map<CapNo, T> would visit them in.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "eventlog/event_types.hpp"

namespace el2fx::convert {

template <typename T>
class CapabilityTable {
public:
    struct Entry {
        eventlog::CapNo cap;
        T value;
    };

    // Adds `value` for `cap`, unless it has one already (then returns false and keeps it).
    // Setup-time: O(entries + largest capability) per call.
    bool emplace(eventlog::CapNo cap, T value) {
        if (find(cap)) return false;
        auto at = std::lower_bound(entries_.begin(), entries_.end(), cap,
                                   [](const Entry& e, eventlog::CapNo c) { return e.cap < c; });
        const auto place = static_cast<std::uint32_t>(at - entries_.begin());
        entries_.insert(at, Entry{cap, std::move(value)});
        if (cap >= slot_.size()) slot_.resize(std::size_t{cap} + 1, kNone);
        for (std::uint32_t& s : slot_)
            if (s != kNone && s >= place) ++s;
        slot_[cap] = place;
        return true;
    }

    T* find(eventlog::CapNo cap) {
        if (cap >= slot_.size() || slot_[cap] == kNone) return nullptr;
        return &entries_[slot_[cap]].value;
    }
    const T* find(eventlog::CapNo cap) const { return const_cast<CapabilityTable*>(this)->find(cap); }

    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    // In ascending capability order.
    auto begin() { return entries_.begin(); }
    auto end() { return entries_.end(); }
    auto begin() const { return entries_.begin(); }
    auto end() const { return entries_.end(); }

private:
    static constexpr std::uint32_t kNone = UINT32_MAX;
    std::vector<Entry> entries_;       // ascending by cap
    std::vector<std::uint32_t> slot_;  // by capability number: its place in entries_, or kNone
};

}  // namespace el2fx::convert
