// A marker type's schema (meta.markerSchema[]), declared once per type, and the typed values a
// marker gives for the schema's fields.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

using v70::DisplayLocation;
using v70::FieldFormat;
using v70::GraphColor;
using v70::MarkerGraphType;

struct MarkerField {
    std::string key{};    // the payload key; not "type" or "cause"
    std::string label{};  // shown in tooltips and the sidebar; empty: the key is shown
    FieldFormat format = FieldFormat::string;
    bool hidden = false;  // usable in labels and search, not listed
    bool operator==(const MarkerField&) const = default;
};

// A track drawn from a numeric field of this marker type.
struct MarkerGraph {
    std::string key{};
    MarkerGraphType type = MarkerGraphType::bar;
    std::optional<GraphColor> color{};
    bool operator==(const MarkerGraph&) const = default;
};

struct MarkerSchema {
    std::string name{};  // matched against each payload's "type"
    std::vector<DisplayLocation> display{};
    std::vector<MarkerField> fields{};
    // Label templates such as "{marker.name} {marker.data.key}"; empty ones are not written.
    std::string tooltip_label{};
    std::string table_label{};
    std::string chart_label{};
    std::string description{};
    std::vector<MarkerGraph> graphs{};
    std::string color_field{};  // key of a string field holding a GraphColor spelling
    bool is_stack_based = false;
    bool operator==(const MarkerSchema&) const = default;
};

// Throws el2fx::Error if the schema is malformed (empty name, duplicate or reserved field keys,
// a graph on a missing or non-numeric field, a colour field that is not a string field).
void check_marker_schema(const MarkerSchema& schema);

// One value for one schema field. The accepted value type follows the field's format:
//   url, file-path, sanitized-string, string      StringHandle (written as the text)
//   unique-string, flow-id, terminating-flow-id   StringHandle (written as the index)
//   duration, milliseconds, seconds, microseconds,
//   nanoseconds                                    Duration (written in the format's unit)
//   time                                           Timestamp (ms after meta.startTime)
//   bytes, percentage (0..1), integer, decimal,
//   hexadecimal, pid, tid                          an integer or a finite double
//   any format                                     absent (FieldValue()): the marker has no
//                                                  value for the field; the profiler skips it
class FieldValue {
public:
    enum class Type : std::uint8_t { string, integer, real, duration, timestamp, absent };

    FieldValue() : type_(Type::absent) { u_.integer = 0; }
    FieldValue(StringHandle s) : type_(Type::string) { u_.string = s.index(); }
    template <std::integral T>
    requires(!std::same_as<T, bool>) FieldValue(T i) : type_(Type::integer) {
        u_.integer = static_cast<std::int64_t>(i);
    }
    FieldValue(double d) : type_(Type::real) { u_.real = d; }
    FieldValue(Duration d) : type_(Type::duration) { u_.integer = d.nanos(); }
    FieldValue(Timestamp t) : type_(Type::timestamp) { u_.integer = t.nanos(); }

    Type type() const { return type_; }
    StringHandle string() const { return StringHandle(u_.string); }
    std::int64_t integer() const { return u_.integer; }  // also ns of duration/timestamp
    double real() const { return u_.real; }

private:
    union {
        std::uint32_t string;
        std::int64_t integer;
        double real;
    } u_;
    Type type_;
};

// Whether a value of this type may be given for a field of this format (constexpr: static
// marker types check their fields against their values when they are compiled).
constexpr bool field_accepts(FieldFormat format, FieldValue::Type type) {
    using T = FieldValue::Type;
    if (type == T::absent) return true;
    switch (v70::kind_of(format)) {
        case v70::FieldKind::json_string:
        case v70::FieldKind::string_index: return type == T::string;
        case v70::FieldKind::number: break;
    }
    switch (format) {
        case FieldFormat::duration:
        case FieldFormat::seconds:
        case FieldFormat::milliseconds:
        case FieldFormat::microseconds:
        case FieldFormat::nanoseconds: return type == T::duration;
        case FieldFormat::time: return type == T::timestamp;
        default: return type == T::integer || type == T::real;
    }
}
const char* field_value_type_name(FieldValue::Type type);

// The decimal scale used to write a Duration/Timestamp for a format (ns -> unit).
unsigned duration_scale(FieldFormat format);

}  // namespace el2fx::fxprof
