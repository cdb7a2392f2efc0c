// Golden files compared as parsed JSON (not bytes): a readable first difference on failure,
// and EL2FX_UPDATE_GOLDEN=1 rewrites the golden file, pretty-printed so that diffs review well.
#pragma once

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "util/rapidjson.hpp"

namespace el2fx::testing {

inline rapidjson::Document parse_golden_json(const std::string& text) {
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
    if (doc.HasParseError())
        throw std::runtime_error("JSON parse error at byte " + std::to_string(doc.GetErrorOffset()));
    return doc;
}

inline std::string compact_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    v.Accept(w);
    return buf.GetString();
}

inline std::string pretty_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    w.SetIndent(' ', 2);
    w.SetFormatOptions(rapidjson::kFormatSingleLineArray);
    v.Accept(w);
    return std::string(buf.GetString()) + "\n";
}

// The first differing path ("$.threads[2].name: ..."), empty when equal.
inline std::string first_json_difference(const rapidjson::Value& a, const rapidjson::Value& b,
                                         const std::string& path) {
    if (a.GetType() != b.GetType()) return path + ": type differs";
    if (a.IsObject()) {
        for (auto it = a.MemberBegin(); it != a.MemberEnd(); ++it) {
            const std::string p = path + "." + it->name.GetString();
            if (!b.HasMember(it->name)) return p + ": missing in golden";
            const std::string d = first_json_difference(it->value, b[it->name], p);
            if (!d.empty()) return d;
        }
        for (auto it = b.MemberBegin(); it != b.MemberEnd(); ++it)
            if (!a.HasMember(it->name)) return path + "." + it->name.GetString() + ": only in golden";
        return {};
    }
    if (a.IsArray()) {
        if (a.Size() != b.Size())
            return path + ": array sizes differ (" + std::to_string(a.Size()) + " vs " + std::to_string(b.Size()) + ")";
        for (rapidjson::SizeType i = 0; i < a.Size(); ++i) {
            const std::string d = first_json_difference(a[i], b[i], path + "[" + std::to_string(i) + "]");
            if (!d.empty()) return d;
        }
        return {};
    }
    return a == b ? std::string() : path + ": " + compact_json(a) + " != " + compact_json(b);
}

inline bool updating_goldens() {
    const char* update = std::getenv("EL2FX_UPDATE_GOLDEN");
    return update && std::string(update) == "1";
}

// Compares `actual` with the golden file at `path` (rewriting it first when updating).
// Returns "" when equal, else what differs.
inline std::string compare_with_golden(const rapidjson::Value& actual, const std::string& path) {
    if (updating_goldens()) std::ofstream(path, std::ios::binary) << pretty_json(actual);
    std::ifstream in(path, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    if (text.empty()) return path + " is missing; run the test with EL2FX_UPDATE_GOLDEN=1";
    const rapidjson::Document golden = parse_golden_json(text);
    const std::string d = first_json_difference(actual, golden, "$");
    return d.empty() ? d : "differs from " + path + ": " + d + " (EL2FX_UPDATE_GOLDEN=1 regenerates it)";
}

}  // namespace el2fx::testing
