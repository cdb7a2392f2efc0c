// A marker type with optional fields: the profile format has no "absent" value, so each
// combination of present fields gets a schema of its own, registered when first used.
// Field i of the full list is present when bit i of the mask is set.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "fxprof/profile.hpp"

namespace el2fx::convert {

class VariantSchema {
public:
    explicit VariantSchema(fxprof::MarkerSchema full) : full_(std::move(full)) {}
    fxprof::MarkerSchemaHandle get(fxprof::Profile& p, std::uint64_t mask);

    // The values of one marker, given in field order.
    class Values {
    public:
        void set(unsigned bit, fxprof::FieldValue v);
        std::uint64_t mask() const { return mask_; }
        std::span<const fxprof::FieldValue> values() const { return values_; }
        void clear() {
            values_.clear();
            mask_ = 0;
            next_ = 0;
        }

    private:
        std::vector<fxprof::FieldValue> values_;
        std::uint64_t mask_ = 0;
        unsigned next_ = 0;
    };

private:
    fxprof::MarkerSchema full_;
    std::map<std::uint64_t, fxprof::MarkerSchemaHandle> by_mask_;
};

}  // namespace el2fx::convert
