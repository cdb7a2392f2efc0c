#include "eventlog/header.hpp"

#include <algorithm>

namespace el2fx::eventlog {

Header::Header() { sizes_.fill(kUndeclared); }

void Header::declare(EventTypeDecl decl) {
    std::int32_t size = decl.size ? static_cast<std::int32_t>(*decl.size) : kVariable;
    if (decl.tag < kFastTags) sizes_[decl.tag] = size;
    auto it = std::find_if(types_.begin(), types_.end(), [&](const EventTypeDecl& t) { return t.tag == decl.tag; });
    if (it != types_.end()) {
        *it = std::move(decl);  // redeclared: the last one wins
        return;
    }
    types_.push_back(std::move(decl));
}

const EventTypeDecl* Header::find(std::uint16_t tag) const {
    auto it = std::find_if(types_.begin(), types_.end(), [&](const EventTypeDecl& t) { return t.tag == tag; });
    return it == types_.end() ? nullptr : &*it;
}

std::int32_t Header::slow_size_of(std::uint16_t tag) const {
    const EventTypeDecl* decl = find(tag);
    if (!decl) return kUndeclared;
    return decl->size ? static_cast<std::int32_t>(*decl->size) : kVariable;
}

}  // namespace el2fx::eventlog
