#include "fxprof/validate.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "fxprof/format_v70.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/rapidjson.hpp"
#include "fxprof/thread_order.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

namespace key = v70::key;
using Value = rapidjson::Value;

namespace {

constexpr std::size_t kMaxProblems = 300;

std::string at(const std::string& where, std::size_t i) {
    return where + "[" + std::to_string(i) + "]";
}
std::string dot(const std::string& where, std::string_view k) {
    return where.empty() ? std::string(k) : where + "." + std::string(k);
}

const Value* get(const Value& obj, std::string_view k) {
    if (!obj.IsObject()) return nullptr;
    Value name(rapidjson::StringRef(k.data(), static_cast<rapidjson::SizeType>(k.size())));
    auto it = obj.FindMember(name);
    return it == obj.MemberEnd() ? nullptr : &it->value;
}

bool is_index(const Value& v) { return v.IsUint64(); }

// How a schema field's value must look in a payload.
enum class Expect { json_string, string_index, number, array };

struct SchemaInfo {
    std::vector<std::pair<std::string, Expect>> fields;
};

class Validator {
public:
    std::vector<std::string> run(std::string_view text) {
        rapidjson::Document doc;
        doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
        if (doc.HasParseError()) {
            problem("", std::string("JSON parse error at byte ") +
                            std::to_string(doc.GetErrorOffset()) + ": " +
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
        if (const Value* libs = get(doc, key::libs); libs && libs->IsArray())
            lib_count_ = libs->Size();
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

private:
    // ---- reporting and small checks ---------------------------------------------------------
    void problem(const std::string& where, const std::string& what) {
        if (problems_.size() < kMaxProblems)
            problems_.push_back(where.empty() ? what : where + ": " + what);
    }

    const Value* require(const Value& obj, std::string_view k, const std::string& where,
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
    void require_nullable_number(const Value& obj, std::string_view k, const std::string& where) {
        const Value* v = get(obj, k);
        if (!v)
            problem(dot(where, k), "missing");
        else if (!v->IsNull() && !v->IsNumber())
            problem(dot(where, k), "is neither a number nor null");
    }
    void optional_of(const Value& obj, std::string_view k, const std::string& where,
                     bool (Value::*pred)() const, const char* what) {
        if (const Value* v = get(obj, k); v && !(v->*pred)())
            problem(dot(where, k), std::string("is not ") + what);
    }
    template <std::size_t N>
    void require_spelling(const Value& obj, std::string_view k, const std::string& where,
                          const std::array<std::string_view, N>& allowed, bool required = true) {
        const Value* v = get(obj, k);
        if (!v) {
            if (required) problem(dot(where, k), "missing");
            return;
        }
        if (!v->IsString() ||
            !v70::is_one_of(allowed, std::string_view(v->GetString(), v->GetStringLength())))
            problem(dot(where, k), "is not one of the format's values");
    }

    // A table: an object whose `length` is a count and whose listed columns are arrays of that
    // length. Returns the length when the table is usable.
    std::optional<std::size_t> table(const Value& obj, std::string_view k, const std::string& where,
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
                problem(dot(path, c), "has " + std::to_string(col->Size()) +
                                          " entries, the table's length is " + std::to_string(n));
                ok = false;
            }
        }
        return ok ? std::optional<std::size_t>(n) : std::nullopt;
    }

    // Every entry of column k: an index below `bound`, or null / -1 where allowed.
    void index_column(const Value& t, std::string_view k, const std::string& where,
                      std::size_t bound, const char* target, bool nullable = false,
                      bool minus_one = false) {
        const Value& col = *get(t, k);
        for (rapidjson::SizeType i = 0; i < col.Size(); ++i) {
            const Value& v = col[i];
            if (nullable && v.IsNull()) continue;
            if (minus_one && v.IsInt64() && v.GetInt64() == -1) continue;
            if (!is_index(v) || v.GetUint64() >= bound)
                problem(at(dot(where, k), i), std::string("is not an index into ") + target +
                                                  " (size " + std::to_string(bound) + ")");
        }
    }
    void kind_column(const Value& t, std::string_view k, const std::string& where,
                     bool (Value::*pred)() const, const char* what, bool nullable = false) {
        const Value& col = *get(t, k);
        for (rapidjson::SizeType i = 0; i < col.Size(); ++i) {
            const Value& v = col[i];
            if (nullable && v.IsNull()) continue;
            if (!(v.*pred)()) problem(at(dot(where, k), i), std::string("is not ") + what);
        }
    }

    // Times given as `time` (absolute) or `timeDeltas` (first absolute, then gaps): checks
    // length and order. Returns false if neither is usable.
    void time_column(const Value& t, const std::string& where, std::size_t n) {
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

    // ---- meta -------------------------------------------------------------------------------
    void check_meta(const Value& m) {
        const std::string w(key::meta);
        if (const Value* iv = require(m, key::interval, w, &Value::IsNumber, "a number");
            iv && iv->GetDouble() <= 0)
            problem(dot(w, key::interval), "is not positive");
        require(m, key::startTime, w, &Value::IsNumber, "a number");
        require(m, key::processType, w, &Value::IsNumber, "a number");
        require(m, key::product, w, &Value::IsString, "a string");
        require(m, key::stackwalk, w, &Value::IsNumber, "a number");
        require(m, key::version, w, &Value::IsNumber, "a number");
        if (const Value* v = require(m, key::preprocessedProfileVersion, w, &Value::IsNumber,
                                     "a number");
            v && !(v->IsInt() && v->GetInt() == v70::kPreprocessedProfileVersion))
            problem(dot(w, key::preprocessedProfileVersion),
                    "is not " + std::to_string(v70::kPreprocessedProfileVersion));
        if (const Value* s = get(m, key::symbolicated); s && !(s->IsBool() && s->GetBool()))
            problem(dot(w, key::symbolicated), "is not true (the profiler would symbolicate)");
        optional_of(m, key::endTime, w, &Value::IsNumber, "a number");
        const Value* ps = get(m, key::profilingStartTime);
        const Value* pe = get(m, key::profilingEndTime);
        optional_of(m, key::profilingStartTime, w, &Value::IsNumber, "a number");
        optional_of(m, key::profilingEndTime, w, &Value::IsNumber, "a number");
        if (ps && pe && ps->IsNumber() && pe->IsNumber() && pe->GetDouble() <= ps->GetDouble())
            problem(dot(w, key::profilingEndTime), "is not after profilingStartTime");
        optional_of(m, key::arguments, w, &Value::IsString, "a string");
        optional_of(m, key::keepProfileThreadOrder, w, &Value::IsBool, "a boolean");
        optional_of(m, key::updateChannel, w, &Value::IsString, "a string");
        optional_of(m, key::usesOnlyOneStackType, w, &Value::IsBool, "a boolean");

        check_categories(m, w);
        if (const Value* su = get(m, key::sampleUnits)) {
            const std::string sw = dot(w, key::sampleUnits);
            if (!su->IsObject()) {
                problem(sw, "is not an object");
            } else {
                require_spelling(*su, key::threadCPUDelta, sw, v70::kThreadCPUDeltaUnits);
                require(*su, key::time, sw, &Value::IsString, "a string");
            }
        }
        if (const Value* ms = require(m, key::markerSchema, w, &Value::IsArray, "an array"))
            check_schemas(*ms, dot(w, key::markerSchema));
        if (const Value* ex = get(m, key::extra)) check_extra(*ex, dot(w, key::extra));
    }

    void check_categories(const Value& m, const std::string& w) {
        const Value* cats = get(m, key::categories);
        if (!cats) {
            categories_known_ = false;  // the profiler's default list
            subcategory_counts_.assign(8, 1);
            return;
        }
        const std::string cw = dot(w, key::categories);
        if (!cats->IsArray()) {
            problem(cw, "is not an array");
            return;
        }
        bool grey = false;
        for (rapidjson::SizeType i = 0; i < cats->Size(); ++i) {
            const Value& c = (*cats)[i];
            const std::string ci = at(cw, i);
            std::size_t subs = 0;
            require(c, key::name, ci, &Value::IsString, "a string");
            require_spelling(c, key::color, ci, v70::kCategoryColors);
            if (const Value* col = get(c, key::color); col && col->IsString() &&
                                                       std::string_view(col->GetString()) == v70::spelling(v70::CategoryColor::grey))
                grey = true;
            if (const Value* s = require(c, key::subcategories, ci, &Value::IsArray, "an array")) {
                subs = s->Size();
                if (subs == 0) problem(dot(ci, key::subcategories), "is empty");
                for (rapidjson::SizeType j = 0; j < s->Size(); ++j)
                    if (!(*s)[j].IsString())
                        problem(at(dot(ci, key::subcategories), j), "is not a string");
            }
            subcategory_counts_.push_back(subs);
        }
        if (!grey) problem(cw, "has no grey category (the profiler's default category)");
    }

    void check_schemas(const Value& list, const std::string& w) {
        for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
            const Value& s = list[i];
            const std::string si = at(w, i);
            const Value* name = require(s, key::name, si, &Value::IsString, "a string");
            if (const Value* d = require(s, key::display, si, &Value::IsArray, "an array")) {
                for (rapidjson::SizeType j = 0; j < d->Size(); ++j) {
                    const Value& loc = (*d)[j];
                    if (!loc.IsString() ||
                        !v70::is_one_of(v70::kDisplayLocations,
                                        std::string_view(loc.GetString(), loc.GetStringLength())))
                        problem(at(dot(si, key::display), j), "is not a display location");
                }
            }
            SchemaInfo info;
            if (const Value* fields = require(s, key::fields, si, &Value::IsArray, "an array")) {
                for (rapidjson::SizeType j = 0; j < fields->Size(); ++j) {
                    const Value& f = (*fields)[j];
                    const std::string fj = at(dot(si, key::fields), j);
                    const Value* k = require(f, key::key, fj, &Value::IsString, "a string");
                    std::optional<Expect> expect = field_expectation(f, fj);
                    optional_of(f, key::label, fj, &Value::IsString, "a string");
                    optional_of(f, key::hidden, fj, &Value::IsBool, "a boolean");
                    if (k && expect) info.fields.emplace_back(k->GetString(), *expect);
                }
            }
            if (const Value* graphs = get(s, key::graphs)) {
                const std::string gw = dot(si, key::graphs);
                if (!graphs->IsArray()) {
                    problem(gw, "is not an array");
                } else {
                    for (rapidjson::SizeType j = 0; j < graphs->Size(); ++j) {
                        const Value& g = (*graphs)[j];
                        const std::string gj = at(gw, j);
                        if (const Value* k = require(g, key::key, gj, &Value::IsString, "a string")) {
                            bool numeric = false;
                            for (const auto& [fk, e] : info.fields)
                                if (fk == k->GetString() && e == Expect::number) numeric = true;
                            if (!numeric) problem(dot(gj, key::key), "is not a numeric field");
                        }
                        require_spelling(g, key::type, gj, v70::kMarkerGraphTypes);
                        require_spelling(g, key::color, gj, v70::kGraphColors, false);
                    }
                }
            }
            if (name) {
                if (schemas_.count(name->GetString()))
                    problem(dot(si, key::name), "is declared twice");
                schemas_[name->GetString()] = std::move(info);
            }
        }
    }

    std::optional<Expect> field_expectation(const Value& f, const std::string& where) {
        const Value* fmt = get(f, key::format);
        if (!fmt) {
            problem(dot(where, key::format), "missing");
            return std::nullopt;
        }
        if (fmt->IsObject()) {  // {type: 'table', columns}
            const Value* t = get(*fmt, key::type);
            if (t && t->IsString() && std::string_view(t->GetString()) == v70::kFieldFormatTable)
                return Expect::array;
            problem(dot(where, key::format), "is not a field format");
            return std::nullopt;
        }
        if (fmt->IsString()) {
            const std::string_view s(fmt->GetString(), fmt->GetStringLength());
            if (s == v70::kFieldFormatList) return Expect::array;
            for (std::size_t i = 0; i < v70::kFieldFormats.size(); ++i) {
                if (v70::kFieldFormats[i] != s) continue;
                switch (v70::kind_of(static_cast<v70::FieldFormat>(i))) {
                    case v70::FieldKind::json_string: return Expect::json_string;
                    case v70::FieldKind::string_index: return Expect::string_index;
                    case v70::FieldKind::number: return Expect::number;
                }
            }
        }
        problem(dot(where, key::format), "is not a field format");
        return std::nullopt;
    }

    void check_extra(const Value& ex, const std::string& w) {
        if (!ex.IsArray()) {
            problem(w, "is not an array");
            return;
        }
        for (rapidjson::SizeType i = 0; i < ex.Size(); ++i) {
            const std::string si = at(w, i);
            require(ex[i], key::label, si, &Value::IsString, "a string");
            const Value* entries = require(ex[i], key::entries, si, &Value::IsArray, "an array");
            if (!entries) continue;
            for (rapidjson::SizeType j = 0; j < entries->Size(); ++j) {
                const Value& e = (*entries)[j];
                const std::string ej = at(dot(si, key::entries), j);
                require(e, key::label, ej, &Value::IsString, "a string");
                if (const Value* fmt = require(e, key::format, ej, &Value::IsString, "a string")) {
                    const std::string_view s(fmt->GetString(), fmt->GetStringLength());
                    if (s == v70::spelling(v70::FieldFormat::unique_string) ||
                        !v70::is_one_of(v70::kFieldFormats, s))
                        problem(dot(ej, key::format), "is not a literal field format");
                }
                if (!get(e, key::value)) problem(dot(ej, key::value), "missing");
            }
        }
    }

    // ---- shared -----------------------------------------------------------------------------
    void check_shared(const Value& s) {
        const std::string w(key::shared);
        if (const Value* sa = require(s, key::stringArray, w, &Value::IsArray, "an array")) {
            string_count_ = sa->Size();
            for (rapidjson::SizeType i = 0; i < sa->Size(); ++i)
                if (!(*sa)[i].IsString()) problem(at(dot(w, key::stringArray), i), "is not a string");
        }
        const auto stacks = table(s, key::stackTable, w, {key::frame, key::prefixOffset});
        const auto frames = table(s, key::frameTable, w,
                                  {key::address, key::lib, key::inlineDepth, key::category,
                                   key::subcategory, key::func, key::nativeSymbol,
                                   key::innerWindowID, key::line, key::column,
                                   key::originalLocation});
        const auto funcs = table(s, key::funcTable, w,
                                 {key::name, key::isJS, key::relevantForJS, key::resource,
                                  key::source, key::lineNumber, key::columnNumber,
                                  key::originalLocation});
        const auto resources = table(s, key::resourceTable, w, {key::name, key::host, key::type});
        const auto natives = table(s, key::nativeSymbols, w,
                                   {key::libIndex, key::address, key::name, key::functionSize});
        const auto sources = table(s, key::sources, w,
                                   {key::id, key::filename, key::startLine, key::startColumn,
                                    key::sourceMapURL, key::content});
        const auto locations = table(s, key::sourceLocationTable, w,
                                     {key::source, key::line, key::column});
        stack_count_ = stacks.value_or(0);

        if (stacks) {
            const Value& t = *get(s, key::stackTable);
            const std::string tw = dot(w, key::stackTable);
            if (get(t, key::prefix)) problem(dot(tw, key::prefix), "is not a v70 column (use prefixOffset)");
            if (frames) index_column(t, key::frame, tw, *frames, "the frame table");
            const Value& off = *get(t, key::prefixOffset);
            for (rapidjson::SizeType i = 0; i < off.Size(); ++i)
                if (!off[i].IsUint64() || off[i].GetUint64() > i)
                    problem(at(dot(tw, key::prefixOffset), i),
                            "does not point to an earlier stack (0 for a root)");
        }
        if (frames) {
            const Value& t = *get(s, key::frameTable);
            const std::string tw = dot(w, key::frameTable);
            if (funcs) index_column(t, key::func, tw, *funcs, "the func table");
            index_column(t, key::category, tw, subcategory_counts_.size(), "meta.categories", true);
            if (natives) index_column(t, key::nativeSymbol, tw, *natives, "nativeSymbols", true);
            index_column(t, key::lib, tw, lib_count_, "libs", false, true);
            kind_column(t, key::address, tw, &Value::IsInt64, "an integer");
            kind_column(t, key::inlineDepth, tw, &Value::IsUint64, "a count");
            kind_column(t, key::line, tw, &Value::IsUint64, "a line number", true);
            kind_column(t, key::column, tw, &Value::IsUint64, "a column number", true);
            if (locations)
                index_column(t, key::originalLocation, tw, *locations, "sourceLocationTable", true);
            const Value& cat = *get(t, key::category);
            const Value& sub = *get(t, key::subcategory);
            for (rapidjson::SizeType i = 0; i < cat.Size(); ++i) {
                const std::string si = at(dot(tw, key::subcategory), i);
                if (!cat[i].IsUint64() || cat[i].GetUint64() >= subcategory_counts_.size()) {
                    if (!sub[i].IsNull() && !sub[i].IsUint64()) problem(si, "is not an index");
                    continue;
                }
                if (!sub[i].IsUint64()) {
                    problem(si, "is not an index although the category is set");
                    continue;
                }
                if (categories_known_ && sub[i].GetUint64() >= subcategory_counts_[cat[i].GetUint()])
                    problem(si, "is not a subcategory of category " +
                                    std::to_string(cat[i].GetUint64()));
            }
        }
        if (funcs) {
            const Value& t = *get(s, key::funcTable);
            const std::string tw = dot(w, key::funcTable);
            index_column(t, key::name, tw, string_count_, "the string table");
            kind_column(t, key::isJS, tw, &Value::IsBool, "a boolean");
            kind_column(t, key::relevantForJS, tw, &Value::IsBool, "a boolean");
            if (resources) index_column(t, key::resource, tw, *resources, "the resource table", false, true);
            if (sources) index_column(t, key::source, tw, *sources, "the sources table", true);
            kind_column(t, key::lineNumber, tw, &Value::IsUint64, "a line number", true);
            kind_column(t, key::columnNumber, tw, &Value::IsUint64, "a column number", true);
            if (locations)
                index_column(t, key::originalLocation, tw, *locations, "sourceLocationTable", true);
        }
        if (resources) {
            const Value& t = *get(s, key::resourceTable);
            const std::string tw = dot(w, key::resourceTable);
            index_column(t, key::name, tw, string_count_, "the string table");
            index_column(t, key::host, tw, string_count_, "the string table", true);
            index_column(t, key::type, tw, 6, "the resource types");
        }
        if (sources) {
            const Value& t = *get(s, key::sources);
            index_column(t, key::filename, dot(w, key::sources), string_count_, "the string table");
        }
        if (locations && sources) {
            const Value& t = *get(s, key::sourceLocationTable);
            index_column(t, key::source, dot(w, key::sourceLocationTable), *sources, "sources");
        }
    }

    // ---- threads ----------------------------------------------------------------------------
    void check_threads(const Value& threads) {
        thread_count_ = threads.Size();
        for (rapidjson::SizeType i = 0; i < threads.Size(); ++i) {
            const Value& t = threads[i];
            const std::string w = at(std::string(key::threads), i);
            if (!t.IsObject()) {
                problem(w, "is not an object");
                thread_pids_.emplace_back();
                thread_is_main_.push_back(false);
                continue;
            }
            require(t, key::name, w, &Value::IsString, "a string");
            require(t, key::processType, w, &Value::IsString, "a string");
            require(t, key::processStartupTime, w, &Value::IsNumber, "a number");
            require_nullable_number(t, key::processShutdownTime, w);
            require(t, key::registerTime, w, &Value::IsNumber, "a number");
            require_nullable_number(t, key::unregisterTime, w);
            require(t, key::pausedRanges, w, &Value::IsArray, "an array");
            const Value* is_main = require(t, key::isMainThread, w, &Value::IsBool, "a boolean");
            thread_is_main_.push_back(is_main && is_main->GetBool());
            optional_of(t, key::processName, w, &Value::IsString, "a string");
            optional_of(t, key::showMarkersInTimeline, w, &Value::IsBool, "a boolean");
            const Value* pid = require(t, key::pid, w, &Value::IsString, "a string");
            thread_pids_.push_back(pid ? pid->GetString() : std::string());
            if (const Value* tid = get(t, key::tid); !tid)
                problem(dot(w, key::tid), "missing");
            else if (!tid->IsNumber() && !tid->IsString())
                problem(dot(w, key::tid), "is neither a number nor a string");
            check_samples(t, w);
            check_markers(t, w);
        }
    }

    void check_samples(const Value& thread, const std::string& w) {
        const auto n = table(thread, key::samples, w, {key::stack});
        if (!n) return;
        const Value& s = *get(thread, key::samples);
        const std::string sw = dot(w, key::samples);
        index_column(s, key::stack, sw, stack_count_, "the stack table", true);
        time_column(s, sw, *n);
        if (const Value* weight = get(s, key::weight); weight && !weight->IsNull()) {
            if (!weight->IsArray() || weight->Size() != *n)
                problem(dot(sw, key::weight), "is neither null nor an array of the table's length");
            else
                kind_column(s, key::weight, sw, &Value::IsNumber, "a number");
        }
        require_spelling(s, key::weightType, sw, v70::kWeightTypes, false);
        if (const Value* cpu = get(s, key::threadCPUDelta)) {
            if (!cpu->IsArray() || cpu->Size() != *n) {
                problem(dot(sw, key::threadCPUDelta), "is not an array of the table's length");
            } else {
                for (rapidjson::SizeType i = 0; i < cpu->Size(); ++i) {
                    const Value& v = (*cpu)[i];
                    if (!v.IsNull() && !(v.IsNumber() && v.GetDouble() >= 0))
                        problem(at(dot(sw, key::threadCPUDelta), i),
                                "is neither a non-negative number nor null");
                }
            }
        }
    }

    void check_markers(const Value& thread, const std::string& w) {
        const auto n = table(thread, key::markers, w,
                             {key::data, key::name, key::startTime, key::endTime, key::phase,
                              key::category});
        if (!n) return;
        const Value& m = *get(thread, key::markers);
        const std::string mw = dot(w, key::markers);
        index_column(m, key::name, mw, string_count_, "the string table");
        index_column(m, key::category, mw, subcategory_counts_.size(), "meta.categories");
        const Value& phase = *get(m, key::phase);
        const Value& start = *get(m, key::startTime);
        const Value& end = *get(m, key::endTime);
        const Value& data = *get(m, key::data);
        for (rapidjson::SizeType i = 0; i < *n; ++i) {
            const std::string pi = at(dot(mw, key::phase), i);
            if (!phase[i].IsUint() || phase[i].GetUint() > 3) {
                problem(pi, "is not a marker phase (0..3)");
            } else {
                const unsigned ph = phase[i].GetUint();
                const bool needs_start = ph != 3, needs_end = ph == 1 || ph == 3;
                if (needs_start && !start[i].IsNumber())
                    problem(at(dot(mw, key::startTime), i), "is not a number");
                if (needs_end && !end[i].IsNumber())
                    problem(at(dot(mw, key::endTime), i), "is not a number");
                if (ph == 1 && start[i].IsNumber() && end[i].IsNumber() &&
                    end[i].GetDouble() < start[i].GetDouble())
                    problem(at(dot(mw, key::endTime), i), "is before the start time");
            }
            check_marker_data(data[i], at(dot(mw, key::data), i));
        }
    }

    void check_marker_data(const Value& d, const std::string& w) {
        if (d.IsNull()) return;
        if (!d.IsObject()) {
            problem(w, "is neither null nor an object");
            return;
        }
        const Value* type = require(d, key::type, w, &Value::IsString, "a string");
        if (!type) return;
        auto it = schemas_.find(type->GetString());
        if (it == schemas_.end()) {
            problem(dot(w, key::type), std::string("\"") + type->GetString() +
                                           "\" has no marker schema");
            return;
        }
        for (const auto& [k, expect] : it->second.fields) {
            const Value* v = get(d, k);
            const std::string fw = dot(w, k);
            if (!v || v->IsNull()) continue;  // values are optional (the profiler skips absent ones)
            switch (expect) {
                case Expect::json_string:
                    if (!v->IsString()) problem(fw, "is not a string (the schema's format)");
                    break;
                case Expect::string_index:
                    if (!is_index(*v) || v->GetUint64() >= string_count_)
                        problem(fw, "is not an index into the string table (unique-string)");
                    break;
                case Expect::number:
                    if (!v->IsNumber()) problem(fw, "is not a number (the schema's format)");
                    break;
                case Expect::array:
                    if (!v->IsArray()) problem(fw, "is not an array (the schema's format)");
                    break;
            }
        }
    }

    // ---- counters ---------------------------------------------------------------------------
    void check_counters(const Value& counters) {
        for (rapidjson::SizeType i = 0; i < counters.Size(); ++i) {
            const Value& c = counters[i];
            const std::string w = at(std::string(key::counters), i);
            require(c, key::name, w, &Value::IsString, "a string");
            require(c, key::category, w, &Value::IsString, "a string");
            require(c, key::description, w, &Value::IsString, "a string");
            const Value* pid = require(c, key::pid, w, &Value::IsString, "a string");
            const Value* main = require(c, key::mainThreadIndex, w, &Value::IsUint64, "an index");
            if (pid) {
                bool found = false;
                for (const auto& p : thread_pids_)
                    if (p == pid->GetString()) found = true;
                if (!found) problem(dot(w, key::pid), "is not the pid of any thread");
            }
            if (main) {
                const std::uint64_t m = main->GetUint64();
                if (m >= thread_count_)
                    problem(dot(w, key::mainThreadIndex), "is not a thread index");
                else if (pid && thread_pids_[m] != pid->GetString())
                    problem(dot(w, key::mainThreadIndex), "names a thread of another process");
            }
            if (const auto n = table(c, key::samples, w, {key::count})) {
                const Value& s = *get(c, key::samples);
                const std::string sw = dot(w, key::samples);
                time_column(s, sw, *n);
                kind_column(s, key::count, sw, &Value::IsNumber, "a number");
                if (const Value* num = get(s, key::number)) {
                    if (!num->IsArray() || num->Size() != *n)
                        problem(dot(sw, key::number), "is not an array of the table's length");
                    else
                        kind_column(s, key::number, sw, &Value::IsNumber, "a number");
                }
            }
            if (const Value* d = require(c, key::display, w, &Value::IsObject, "an object"))
                check_counter_display(*d, dot(w, key::display));
        }
    }

    void check_counter_display(const Value& d, const std::string& w) {
        require_spelling(d, key::graphType, w, v70::kCounterGraphTypes);
        require(d, key::unit, w, &Value::IsString, "a string");
        require_spelling(d, key::color, w, v70::kGraphColors);
        if (const Value* loc = get(d, key::markerSchemaLocation); !loc)
            problem(dot(w, key::markerSchemaLocation), "missing");
        else if (!loc->IsNull())
            require_spelling(d, key::markerSchemaLocation, w, v70::kDisplayLocations);
        require(d, key::sortWeight, w, &Value::IsNumber, "a number");
        require(d, key::label, w, &Value::IsString, "a string");
        const Value* rows = require(d, key::tooltipRows, w, &Value::IsArray, "an array");
        if (!rows) return;
        for (rapidjson::SizeType i = 0; i < rows->Size(); ++i) {
            const Value& r = (*rows)[i];
            const std::string rw = at(dot(w, key::tooltipRows), i);
            const Value* type = require(r, key::type, rw, &Value::IsString, "a string");
            if (!type) continue;
            const std::string_view t(type->GetString(), type->GetStringLength());
            if (t == v70::kTooltipRowSeparator) continue;
            if (t != v70::kTooltipRowValue) {
                problem(dot(rw, key::type), "is neither value nor separator");
                continue;
            }
            require_spelling(r, key::source, rw, v70::kCounterTooltipSources);
            require(r, key::label, rw, &Value::IsString, "a string");
            if (const Value* f = require(r, key::format, rw, &Value::IsObject, "an object"))
                require_spelling(*f, key::unit, dot(rw, key::format), v70::kCounterTooltipUnits);
        }
    }

    void check_thread_lists(const Value& m) {
        for (std::string_view k : {key::initialVisibleThreads, key::initialSelectedThreads}) {
            const Value* list = get(m, k);
            if (!list) continue;
            const std::string w = dot(std::string(key::meta), k);
            if (!list->IsArray()) {
                problem(w, "is not an array");
                continue;
            }
            for (rapidjson::SizeType i = 0; i < list->Size(); ++i)
                if (!is_index((*list)[i]) || (*list)[i].GetUint64() >= thread_count_)
                    problem(at(w, i), "is not a thread index");
        }
        check_shown_threads_first(m);
    }

    // The Share panel's "Include hidden threads" keeps meta's thread lists unrenumbered: the
    // threads shown at first must be the first threads (thread_order.hpp).
    void check_shown_threads_first(const Value& m) {
        const Value* visible = get(m, key::initialVisibleThreads);
        if (!visible || !visible->IsArray() || thread_pids_.size() != thread_count_) return;
        std::vector<ThreadSlot> slots;
        for (std::size_t i = 0; i < thread_count_; ++i) slots.push_back({thread_pids_[i], thread_is_main_[i]});
        std::vector<std::uint32_t> listed;
        for (const Value& v : visible->GetArray())
            if (is_index(v) && v.GetUint64() < thread_count_) listed.push_back(static_cast<std::uint32_t>(v.GetUint64()));
        const std::int64_t k = shown_prefix_length(threads_shown_at_first(slots, listed));
        const std::string w = dot(std::string(key::meta), key::initialVisibleThreads);
        if (k < 0) {
            problem(w, "the threads shown at first (these and their processes' main threads) are not the "
                       "first threads: a profile shared without its hidden threads would break");
            return;
        }
        if (const Value* selected = get(m, key::initialSelectedThreads); selected && selected->IsArray())
            for (rapidjson::SizeType i = 0; i < selected->Size(); ++i)
                if (is_index((*selected)[i]) && (*selected)[i].GetUint64() >= static_cast<std::uint64_t>(k))
                    problem(at(dot(std::string(key::meta), key::initialSelectedThreads), i),
                            "is a thread hidden at first");
    }

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

}  // namespace

std::vector<std::string> validate_profile(std::string_view json_text) {
    return Validator().run(json_text);
}

std::vector<std::string> validate_profile_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {path + ": cannot open: " + std::strerror(errno)};
    std::ostringstream buf;
    buf << in.rdbuf();
    std::string bytes = std::move(buf).str();
    if (looks_gzipped(bytes)) {
        try {
            bytes = gunzip(bytes);
        } catch (const Error& e) {
            return {path + ": " + e.what()};
        }
    }
    return validate_profile(bytes);
}

}  // namespace el2fx::fxprof
