#include "check/validator.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "check/profile_check.hpp"
#include "fxprof/gzip.hpp"
#include "util/error.hpp"

namespace el2fx::check {

std::vector<std::string> Validator::run(std::string_view text) {
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
    if (doc.HasParseError()) {
        problem("", std::string("JSON parse error at byte ") + std::to_string(doc.GetErrorOffset()) + ": " +
                        rapidjson::GetParseError_En(doc.GetParseError()));
        return std::move(problems_);
    }
    if (!doc.IsObject()) {
        problem("", "the profile is not a JSON object");
        return std::move(problems_);
    }
    const Value* meta = require(doc, key::meta, "", &Value::IsObject, "an object");
    const Value* shared = require(doc, key::shared, "", &Value::IsObject, "an object");
    if (const Value* libs = get(doc, key::libs); libs && !libs->IsArray())
        problem(std::string(key::libs), "is not an array");
    if (const Value* libs = get(doc, key::libs); libs && libs->IsArray()) lib_count_ = libs->Size();
    if (meta) check_meta(*meta);
    if (shared) check_shared(*shared);
    const Value* threads = require(doc, key::threads, "", &Value::IsArray, "an array");
    if (threads) check_threads(*threads);
    if (const Value* counters = get(doc, key::counters)) {
        if (!counters->IsArray())
            problem(std::string(key::counters), "is not an array");
        else
            check_counters(*counters);
    }
    if (meta) check_thread_lists(*meta);
    if (problems_.size() >= kMaxProblems) problems_.push_back("(more problems not listed)");
    return std::move(problems_);
}

// ---- reporting and small checks -----------------------------------------------------------

void Validator::problem(const std::string& where, const std::string& what) {
    if (problems_.size() < kMaxProblems) problems_.push_back(where.empty() ? what : where + ": " + what);
}

const Value* Validator::require(const Value& obj, std::string_view k, const std::string& where,
                                bool (Value::*pred)() const, const char* what) {
    const Value* v = get(obj, k);
    if (!v) {
        problem(dot(where, k), "missing");
        return nullptr;
    }
    if (!(v->*pred)()) {
        problem(dot(where, k), std::string("is not ") + what);
        return nullptr;
    }
    return v;
}
void Validator::require_nullable_number(const Value& obj, std::string_view k, const std::string& where) {
    const Value* v = get(obj, k);
    if (!v)
        problem(dot(where, k), "missing");
    else if (!v->IsNull() && !v->IsNumber())
        problem(dot(where, k), "is neither a number nor null");
}
void Validator::optional_of(const Value& obj, std::string_view k, const std::string& where, bool (Value::*pred)() const,
                            const char* what) {
    if (const Value* v = get(obj, k); v && !(v->*pred)()) problem(dot(where, k), std::string("is not ") + what);
}
std::optional<std::size_t> Validator::table(const Value& obj, std::string_view k, const std::string& where,
                                            std::initializer_list<std::string_view> columns) {
    const std::string path = dot(where, k);
    const Value* t = get(obj, k);
    if (!t) {
        problem(path, "missing");
        return std::nullopt;
    }
    if (!t->IsObject()) {
        problem(path, "is not an object");
        return std::nullopt;
    }
    const Value* len = get(*t, key::length);
    if (!len || !len->IsUint64()) {
        problem(dot(path, key::length), len ? "is not a count" : "missing");
        return std::nullopt;
    }
    const std::size_t n = len->GetUint64();
    bool ok = true;
    for (std::string_view c : columns) {
        const Value* col = get(*t, c);
        if (!col) {
            problem(dot(path, c), "missing");
            ok = false;
        } else if (!col->IsArray()) {
            problem(dot(path, c), "is not an array");
            ok = false;
        } else if (col->Size() != n) {
            problem(dot(path, c),
                    "has " + std::to_string(col->Size()) + " entries, the table's length is " + std::to_string(n));
            ok = false;
        }
    }
    return ok ? std::optional<std::size_t>(n) : std::nullopt;
}

void Validator::index_column(const Value& t, std::string_view k, const std::string& where, std::size_t bound,
                             const char* target, bool nullable, bool minus_one) {
    const Value& col = *get(t, k);
    for (rapidjson::SizeType i = 0; i < col.Size(); ++i) {
        const Value& v = col[i];
        if (nullable && v.IsNull()) continue;
        if (minus_one && v.IsInt64() && v.GetInt64() == -1) continue;
        if (!is_index(v) || v.GetUint64() >= bound)
            problem(at(dot(where, k), i),
                    std::string("is not an index into ") + target + " (size " + std::to_string(bound) + ")");
    }
}
void Validator::kind_column(const Value& t, std::string_view k, const std::string& where, bool (Value::*pred)() const,
                            const char* what, bool nullable) {
    const Value& col = *get(t, k);
    for (rapidjson::SizeType i = 0; i < col.Size(); ++i) {
        const Value& v = col[i];
        if (nullable && v.IsNull()) continue;
        if (!(v.*pred)()) problem(at(dot(where, k), i), std::string("is not ") + what);
    }
}

void Validator::time_column(const Value& t, const std::string& where, std::size_t n) {
    const Value* time = get(t, key::time);
    const Value* deltas = get(t, key::timeDeltas);
    if (!time && !deltas) {
        problem(where, "has neither time nor timeDeltas");
        return;
    }
    const Value* col = time ? time : deltas;
    const std::string path = dot(where, time ? key::time : key::timeDeltas);
    if (!col->IsArray() || col->Size() != n) {
        problem(path, "is not an array of the table's length");
        return;
    }
    double previous = 0;
    for (rapidjson::SizeType i = 0; i < n; ++i) {
        const Value& v = (*col)[i];
        if (!v.IsNumber()) {
            problem(at(path, i), "is not a number");
            return;
        }
        const double x = v.GetDouble();
        if (time) {
            if (i > 0 && x < previous) {
                problem(at(path, i), "is earlier than the previous one (not time-ordered)");
                return;
            }
            previous = x;
        } else if (i > 0 && x < 0) {
            problem(at(path, i), "is negative (not time-ordered)");
            return;
        }
    }
}
std::vector<std::string> validate_profile(std::string_view json_text) { return Validator().run(json_text); }

std::vector<std::string> validate_profile_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {path + ": cannot open: " + std::strerror(errno)};
    std::ostringstream buf;
    buf << in.rdbuf();
    std::string bytes = std::move(buf).str();
    if (fxprof::looks_gzipped(bytes)) {
        try {
            bytes = fxprof::gunzip(bytes);
        } catch (const Error& e) {
            return {path + ": " + e.what()};
        }
    }
    return validate_profile(bytes);
}

}  // namespace el2fx::check
