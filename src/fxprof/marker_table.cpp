#include "fxprof/marker_table.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof {

MarkerHandle MarkerTable::add(MarkerTiming timing, StringHandle name, CategoryHandle category,
                              std::uint32_t schema, const FieldValue* values,
                              std::size_t value_count) {
    if (names_.size() >= UINT32_MAX) throw Error("too many markers on one thread");
    const auto index = static_cast<std::uint32_t>(names_.size());
    names_.push_back(name.index());
    categories_.push_back(static_cast<std::uint16_t>(category.index()));
    phases_.push_back(timing.phase());
    starts_.push_back(timing.start().nanos());
    ends_.push_back(timing.end().nanos());
    schemas_.push_back(schema);
    values_.insert(values_.end(), values, values + value_count);
    return MarkerHandle(index);
}

void MarkerTable::reserve(std::size_t markers, std::size_t values) {
    names_.reserve(markers);
    categories_.reserve(markers);
    phases_.reserve(markers);
    starts_.reserve(markers);
    ends_.reserve(markers);
    schemas_.reserve(markers);
    values_.reserve(values);
}

}  // namespace el2fx::fxprof
