#include "convert/tag_dispatch.hpp"

#include <limits>

#include "util/error.hpp"

namespace el2fx::convert {

TagDispatch::TagDispatch(const std::vector<std::unique_ptr<ProfileContributor>>& parts)
    : masks_(std::size_t{std::numeric_limits<std::uint16_t>::max()} + 1, 0) {
    if (parts.size() > kMaxParts) throw Error("too many profile contributors for the tag dispatch");
    for (const auto& part : parts) parts_.push_back(part.get());
    for (std::size_t tag = 0; tag < masks_.size(); ++tag)
        for (std::size_t i = 0; i < parts_.size(); ++i)
            if (parts_[i]->wants(static_cast<std::uint16_t>(tag))) masks_[tag] |= std::uint32_t{1} << i;
}

}  // namespace el2fx::convert
