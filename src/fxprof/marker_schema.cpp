#include "fxprof/marker_schema.hpp"

#include <string_view>

#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {
Error schema_error(const MarkerSchema& s, const std::string& what) {
    return Error("marker schema \"" + s.name + "\": " + what);
}

const MarkerField* find_field(const MarkerSchema& s, std::string_view key) {
    for (const auto& f : s.fields)
        if (f.key == key) return &f;
    return nullptr;
}
}  // namespace

void check_marker_schema(const MarkerSchema& schema) {
    if (schema.name.empty()) throw Error("marker schema without a name");
    for (std::size_t i = 0; i < schema.fields.size(); ++i) {
        const auto& f = schema.fields[i];
        if (f.key.empty()) throw schema_error(schema, "field without a key");
        for (auto reserved : v70::kReservedMarkerDataKeys)
            if (f.key == reserved) throw schema_error(schema, "field key \"" + f.key + "\" is reserved");
        if (static_cast<std::size_t>(f.format) >= v70::kFieldFormats.size())
            throw schema_error(schema, "field \"" + f.key + "\" has an unknown format");
        for (std::size_t j = 0; j < i; ++j)
            if (schema.fields[j].key == f.key) throw schema_error(schema, "duplicate field key \"" + f.key + "\"");
    }
    for (const auto& g : schema.graphs) {
        const MarkerField* f = find_field(schema, g.key);
        if (!f || v70::kind_of(f->format) != v70::FieldKind::number)
            throw schema_error(schema, "graph key \"" + g.key + "\" is not a numeric field");
    }
    if (!schema.color_field.empty()) {
        const MarkerField* f = find_field(schema, schema.color_field);
        if (!f || v70::kind_of(f->format) != v70::FieldKind::json_string)
            throw schema_error(schema, "colour field \"" + schema.color_field + "\" is not a string field");
    }
}

const char* field_value_type_name(FieldValue::Type type) {
    switch (type) {
        case FieldValue::Type::string: return "a string";
        case FieldValue::Type::integer: return "an integer";
        case FieldValue::Type::real: return "a number";
        case FieldValue::Type::duration: return "a Duration";
        case FieldValue::Type::timestamp: return "a Timestamp";
        case FieldValue::Type::absent: return "no value";
    }
    return "?";
}

unsigned duration_scale(FieldFormat format) {
    switch (format) {
        case FieldFormat::seconds: return 9;
        case FieldFormat::microseconds: return 3;
        case FieldFormat::nanoseconds: return 0;
        default: return 6;  // duration, milliseconds, time: milliseconds
    }
}

}  // namespace el2fx::fxprof
