// The validator behind profile_check.hpp: one pass over the parsed profile that remembers what
// later tables index into (string, stack and thread counts, categories, marker schemas). Its
// checks are split by part of the profile: validator.cpp (reporting, generic table checks),
// validate_meta.cpp, validate_shared.cpp, validate_threads.cpp, validate_counters.cpp.
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "util/rapidjson.hpp"

namespace el2fx::check {

namespace v70 = fxprof::v70;
namespace key = v70::key;
using Value = rapidjson::Value;

inline constexpr std::size_t kMaxProblems = 300;

inline std::string at(const std::string& where, std::size_t i) { return where + "[" + std::to_string(i) + "]"; }
inline std::string dot(const std::string& where, std::string_view k) {
    return where.empty() ? std::string(k) : where + "." + std::string(k);
}

inline const Value* get(const Value& obj, std::string_view k) {
    if (!obj.IsObject()) return nullptr;
    Value name(rapidjson::StringRef(k.data(), static_cast<rapidjson::SizeType>(k.size())));
    auto it = obj.FindMember(name);
    return it == obj.MemberEnd() ? nullptr : &it->value;
}

inline bool is_index(const Value& v) { return v.IsUint64(); }

// How a schema field's value must look in a payload.
enum class Expect { json_string, string_index, number, array };

struct SchemaInfo {
    std::vector<std::pair<std::string, Expect>> fields;
};

class Validator {
public:
    std::vector<std::string> run(std::string_view text);

private:
    // ---- reporting and small checks (validator.cpp) ------------------------------------------
    void problem(const std::string& where, const std::string& what);
    const Value* require(const Value& obj, std::string_view k, const std::string& where, bool (Value::*pred)() const,
                         const char* what);
    void require_nullable_number(const Value& obj, std::string_view k, const std::string& where);
    void optional_of(const Value& obj, std::string_view k, const std::string& where, bool (Value::*pred)() const,
                     const char* what);
    template <std::size_t N>
    void require_spelling(const Value& obj, std::string_view k, const std::string& where,
                          const std::array<std::string_view, N>& allowed, bool required = true) {
        const Value* v = get(obj, k);
        if (!v) {
            if (required) problem(dot(where, k), "missing");
            return;
        }
        if (!v->IsString() || !v70::is_one_of(allowed, std::string_view(v->GetString(), v->GetStringLength())))
            problem(dot(where, k), "is not one of the format's values");
    }

    // A table: an object whose `length` is a count and whose listed columns are arrays of that
    // length. Returns the length when the table is usable.
    std::optional<std::size_t> table(const Value& obj, std::string_view k, const std::string& where,
                                     std::initializer_list<std::string_view> columns);
    // Every entry of column k: an index below `bound`, or null / -1 where allowed.
    void index_column(const Value& t, std::string_view k, const std::string& where, std::size_t bound,
                      const char* target, bool nullable = false, bool minus_one = false);
    void kind_column(const Value& t, std::string_view k, const std::string& where, bool (Value::*pred)() const,
                     const char* what, bool nullable = false);
    // Times given as `time` (absolute) or `timeDeltas` (first absolute, then gaps): checks
    // length and order.
    void time_column(const Value& t, const std::string& where, std::size_t n);

    // ---- meta (validate_meta.cpp) ------------------------------------------------------------
    void check_meta(const Value& m);
    void check_categories(const Value& m, const std::string& w);
    void check_schemas(const Value& list, const std::string& w);
    std::optional<Expect> field_expectation(const Value& f, const std::string& where);
    void check_extra(const Value& ex, const std::string& w);
    void check_thread_lists(const Value& m);
    void check_shown_threads_first(const Value& m);

    // ---- shared (validate_shared.cpp) --------------------------------------------------------
    void check_shared(const Value& s);

    // ---- threads (validate_threads.cpp) ------------------------------------------------------
    void check_threads(const Value& threads);
    void check_samples(const Value& thread, const std::string& w);
    void check_markers(const Value& thread, const std::string& w);
    void check_marker_data(const Value& d, const std::string& w);

    // ---- counters (validate_counters.cpp) ----------------------------------------------------
    void check_counters(const Value& counters);
    void check_counter_display(const Value& d, const std::string& w);

    std::vector<std::string> problems_;
    std::map<std::string, SchemaInfo> schemas_;
    std::vector<std::size_t> subcategory_counts_;  // per category
    bool categories_known_ = true;
    std::size_t string_count_ = 0;
    std::size_t stack_count_ = 0;
    std::size_t lib_count_ = 0;
    std::size_t thread_count_ = 0;
    std::vector<std::string> thread_pids_;
    std::vector<bool> thread_is_main_;
};

}  // namespace el2fx::check
