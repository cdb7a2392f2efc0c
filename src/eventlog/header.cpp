#include "eventlog/header.hpp"

namespace el2fx::eventlog {

Header::Header() : sizes_(65536, kUndeclared), index_(65536, -1) {}

void Header::declare(EventTypeDecl decl) {
    std::uint16_t tag = decl.tag;
    sizes_[tag] = decl.size ? static_cast<std::int32_t>(*decl.size) : kVariable;
    if (index_[tag] >= 0) {
        types_[static_cast<std::size_t>(index_[tag])] = std::move(decl);  // redeclared: the last one wins
        return;
    }
    index_[tag] = static_cast<std::int32_t>(types_.size());
    types_.push_back(std::move(decl));
}

const EventTypeDecl* Header::find(std::uint16_t tag) const {
    return index_[tag] < 0 ? nullptr : &types_[static_cast<std::size_t>(index_[tag])];
}

}  // namespace el2fx::eventlog
