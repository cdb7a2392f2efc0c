#include "convert/variant_schema.hpp"

#include <cstdio>

#include "util/error.hpp"

namespace el2fx::convert {

using namespace el2fx::fxprof;

MarkerSchemaHandle VariantSchema::get(Profile& p, std::uint64_t mask) {
    auto it = by_mask_.find(mask);
    if (it != by_mask_.end()) return it->second;
    MarkerSchema s = full_;
    s.fields.clear();
    for (std::size_t i = 0; i < full_.fields.size(); ++i)
        if (mask & (std::uint64_t{1} << i)) s.fields.push_back(full_.fields[i]);
    std::uint64_t all = (std::uint64_t{1} << full_.fields.size()) - 1;
    if (mask != all) {
        char suffix[24];
        std::snprintf(suffix, sizeof suffix, "-%llx", static_cast<unsigned long long>(mask));
        s.name += suffix;
    }
    MarkerSchemaHandle h = p.register_marker_schema(std::move(s));
    by_mask_.emplace(mask, h);
    return h;
}

void VariantSchema::Values::set(unsigned bit, FieldValue v) {
    if (bit < next_) throw Error("GC marker fields out of order");
    mask_ |= std::uint64_t{1} << bit;
    next_ = bit + 1;
    values_.push_back(v);
}

}  // namespace el2fx::convert
