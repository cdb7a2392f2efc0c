// A marker type as one C++ struct: it declares its schema once (name, where it shows, labels,
// fields) and gives its values as a tuple, one element per field, whose types the compiler checks
// against the fields' formats. The profile registers the schema when the type's first marker is
// added (Profile::add_marker(thread, timing, name, category, marker)):
//
//   struct DataLostMarker {
//       static constexpr MarkerTypeInfo kType{.name = "DataLost", .display = kTimelineDisplay,
//                                             .tooltip_label = "Data lost: {marker.data.problem}"};
//       static constexpr std::array kFields{StaticField{"problem", "Problem", FieldFormat::string},
//                                           StaticField{"firstByte", "First byte", FieldFormat::integer}};
//       StringHandle problem;
//       std::optional<std::int64_t> first_byte;  // nullopt: the marker has no value for it
//       auto field_values() const { return std::tuple{problem, first_byte}; }
//   };
//
// Marker types whose fields are only known at run time (one field per heap band, say) register a
// MarkerSchema and give FieldValue lists instead (Profile::register_marker_schema).
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/marker_schema.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

struct StaticField {
    std::string_view key;
    std::string_view label;
    FieldFormat format;
    bool hidden = false;
};

struct StaticGraph {
    std::string_view key;
    MarkerGraphType type;
    std::optional<GraphColor> color{};
};

// Where a marker type shows, in the order given (the order the schema lists them).
class DisplaySet {
public:
    constexpr DisplaySet(std::initializer_list<DisplayLocation> locations) {
        for (DisplayLocation d : locations) items_[size_++] = d;
    }
    constexpr std::span<const DisplayLocation> locations() const { return {items_.data(), size_}; }

private:
    std::array<DisplayLocation, v70::kDisplayLocations.size()> items_{};
    std::size_t size_ = 0;
};

// The marker chart and table only; with the timeline's overview track too.
inline constexpr DisplaySet kChartDisplay{DisplayLocation::marker_chart, DisplayLocation::marker_table};
inline constexpr DisplaySet kTimelineDisplay{DisplayLocation::marker_chart, DisplayLocation::marker_table,
                                             DisplayLocation::timeline_overview};

// Everything of a marker type's schema but its fields.
struct MarkerTypeInfo {
    std::string_view name;  // the payloads' "type"
    DisplaySet display;
    std::string_view tooltip_label{};
    std::string_view table_label{};
    std::string_view chart_label{};
    std::string_view description{};
    std::span<const StaticGraph> graphs{};
    std::string_view color_field{};
    bool is_stack_based = false;
};

namespace static_marker_detail {

// The FieldValue type a C++ value becomes; std::optional<T>: T's, or absent.
template <class T>
struct ValueType;
template <>
struct ValueType<StringHandle> : std::integral_constant<FieldValue::Type, FieldValue::Type::string> {};
template <>
struct ValueType<Duration> : std::integral_constant<FieldValue::Type, FieldValue::Type::duration> {};
template <>
struct ValueType<Timestamp> : std::integral_constant<FieldValue::Type, FieldValue::Type::timestamp> {};
template <>
struct ValueType<double> : std::integral_constant<FieldValue::Type, FieldValue::Type::real> {};
template <std::integral T>
requires(!std::same_as<T, bool>) struct ValueType<T>
    : std::integral_constant<FieldValue::Type, FieldValue::Type::integer> {
};
template <class T>
struct ValueType<std::optional<T>> : ValueType<T> {};

template <class T>
FieldValue to_field_value(const T& v) {
    return FieldValue(v);
}
template <class T>
FieldValue to_field_value(const std::optional<T>& v) {
    return v ? FieldValue(*v) : FieldValue();
}

template <class M>
using Values = decltype(std::declval<const M&>().field_values());

template <class M, std::size_t... I>
constexpr bool formats_accept(std::index_sequence<I...>) {
    return (field_accepts(M::kFields[I].format,
                          ValueType<std::remove_cvref_t<std::tuple_element_t<I, Values<M>>>>::value) &&
            ...);
}

}  // namespace static_marker_detail

template <class M>
concept StaticMarker = requires(const M& m) {
    { M::kType } -> std::convertible_to<MarkerTypeInfo>;
    { M::kFields.size() } -> std::convertible_to<std::size_t>;
    { M::kFields[0] } -> std::convertible_to<StaticField>;
    std::tuple_size<static_marker_detail::Values<M>>::value;
};

// Whether a marker type gives one value per field, each of a type its field's format takes.
template <StaticMarker M>
constexpr bool values_match_fields() {
    using Values = static_marker_detail::Values<M>;
    if constexpr (std::tuple_size_v<Values> != M::kFields.size())
        return false;
    else
        return static_marker_detail::formats_accept<M>(std::make_index_sequence<M::kFields.size()>{});
}

// The same, as compile errors that say what is wrong.
template <StaticMarker M>
consteval bool check_static_marker() {
    static_assert(std::tuple_size_v<static_marker_detail::Values<M>> == M::kFields.size(),
                  "field_values() must give one value per field of kFields");
    static_assert(values_match_fields<M>(), "a value of field_values() has a type its field's format does not take");
    return true;
}

// The runtime schema of a marker type.
template <StaticMarker M>
MarkerSchema schema_of() {
    static_assert(check_static_marker<M>());
    const MarkerTypeInfo& t = M::kType;
    MarkerSchema s;
    s.name = t.name;
    s.display.assign(t.display.locations().begin(), t.display.locations().end());
    for (const StaticField& f : M::kFields)
        s.fields.push_back({std::string(f.key), std::string(f.label), f.format, f.hidden});
    s.tooltip_label = t.tooltip_label;
    s.table_label = t.table_label;
    s.chart_label = t.chart_label;
    s.description = t.description;
    for (const StaticGraph& g : t.graphs) s.graphs.push_back({std::string(g.key), g.type, g.color});
    s.color_field = t.color_field;
    s.is_stack_based = t.is_stack_based;
    return s;
}

// A marker's values, in field order.
template <StaticMarker M>
std::array<FieldValue, M::kFields.size()> field_values_of(const M& marker) {
    static_assert(check_static_marker<M>());
    return std::apply(
        [](const auto&... v) {
            return std::array<FieldValue, M::kFields.size()>{static_marker_detail::to_field_value(v)...};
        },
        marker.field_values());
}

// A number per marker type, the same for the whole process (the index of its schema handle in
// each Profile's cache).
std::size_t next_static_marker_type_id();
template <StaticMarker M>
std::size_t static_marker_type_id() {
    static const std::size_t id = next_static_marker_type_id();
    return id;
}

}  // namespace el2fx::fxprof
