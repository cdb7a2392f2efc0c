// Hands each event of the second pass to the contributors that want its tag
// (ProfileContributor::wants), in their order. Most contributors act on a few tags only: a
// mask per tag, computed once, spares a virtual call per event for each of the others.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "convert/profile_contributor.hpp"
#include "eventlog/event.hpp"

namespace el2fx::convert {

class TagDispatch {
public:
    static constexpr std::size_t kMaxParts = 32;  // a bit each in a tag's mask

    // Asks every part about every tag. At most kMaxParts parts (el2fx::Error beyond); they
    // must outlive the dispatch.
    explicit TagDispatch(const std::vector<std::unique_ptr<ProfileContributor>>& parts);

    void handle(const eventlog::Event& event) const {
        for (std::uint32_t mask = masks_[event.tag]; mask != 0; mask &= mask - 1)
            parts_[static_cast<std::size_t>(std::countr_zero(mask))]->handle(event);
    }

private:
    std::vector<ProfileContributor*> parts_;
    std::vector<std::uint32_t> masks_;  // by tag, every one of the 65,536: bit i for parts_[i]
};

}  // namespace el2fx::convert
