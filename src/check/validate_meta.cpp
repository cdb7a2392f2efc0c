#include "check/validator.hpp"

#include <cstdint>

#include "fxprof/thread_order.hpp"

namespace el2fx::check {

void Validator::check_meta(const Value& m) {
    const std::string w(key::meta);
    if (const Value* iv = require(m, key::interval, w, &Value::IsNumber, "a number"); iv && iv->GetDouble() <= 0)
        problem(dot(w, key::interval), "is not positive");
    require(m, key::startTime, w, &Value::IsNumber, "a number");
    require(m, key::processType, w, &Value::IsNumber, "a number");
    require(m, key::product, w, &Value::IsString, "a string");
    require(m, key::stackwalk, w, &Value::IsNumber, "a number");
    require(m, key::version, w, &Value::IsNumber, "a number");
    if (const Value* v = require(m, key::preprocessedProfileVersion, w, &Value::IsNumber, "a number");
        v && !(v->IsInt() && v->GetInt() == v70::kPreprocessedProfileVersion))
        problem(dot(w, key::preprocessedProfileVersion), "is not " + std::to_string(v70::kPreprocessedProfileVersion));
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

void Validator::check_categories(const Value& m, const std::string& w) {
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
        if (const Value* col = get(c, key::color);
            col && col->IsString() && std::string_view(col->GetString()) == v70::spelling(v70::CategoryColor::grey))
            grey = true;
        if (const Value* s = require(c, key::subcategories, ci, &Value::IsArray, "an array")) {
            subs = s->Size();
            if (subs == 0) problem(dot(ci, key::subcategories), "is empty");
            for (rapidjson::SizeType j = 0; j < s->Size(); ++j)
                if (!(*s)[j].IsString()) problem(at(dot(ci, key::subcategories), j), "is not a string");
        }
        subcategory_counts_.push_back(subs);
    }
    if (!grey) problem(cw, "has no grey category (the profiler's default category)");
}

void Validator::check_schemas(const Value& list, const std::string& w) {
    for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
        const Value& s = list[i];
        const std::string si = at(w, i);
        const Value* name = require(s, key::name, si, &Value::IsString, "a string");
        if (const Value* d = require(s, key::display, si, &Value::IsArray, "an array")) {
            for (rapidjson::SizeType j = 0; j < d->Size(); ++j) {
                const Value& loc = (*d)[j];
                if (!loc.IsString() ||
                    !v70::is_one_of(v70::kDisplayLocations, std::string_view(loc.GetString(), loc.GetStringLength())))
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
            if (schemas_.count(name->GetString())) problem(dot(si, key::name), "is declared twice");
            schemas_[name->GetString()] = std::move(info);
        }
    }
}

std::optional<Expect> Validator::field_expectation(const Value& f, const std::string& where) {
    const Value* fmt = get(f, key::format);
    if (!fmt) {
        problem(dot(where, key::format), "missing");
        return std::nullopt;
    }
    if (fmt->IsObject()) {  // {type: 'table', columns}
        const Value* t = get(*fmt, key::type);
        if (t && t->IsString() && std::string_view(t->GetString()) == v70::kFieldFormatTable) return Expect::array;
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

void Validator::check_extra(const Value& ex, const std::string& w) {
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
                if (s == v70::spelling(v70::FieldFormat::unique_string) || !v70::is_one_of(v70::kFieldFormats, s))
                    problem(dot(ej, key::format), "is not a literal field format");
            }
            if (!get(e, key::value)) problem(dot(ej, key::value), "missing");
        }
    }
}

void Validator::check_thread_lists(const Value& m) {
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
void Validator::check_shown_threads_first(const Value& m) {
    const Value* visible = get(m, key::initialVisibleThreads);
    if (!visible || !visible->IsArray() || thread_pids_.size() != thread_count_) return;
    std::vector<fxprof::ThreadSlot> slots;
    for (std::size_t i = 0; i < thread_count_; ++i) slots.push_back({thread_pids_[i], thread_is_main_[i]});
    std::vector<std::uint32_t> listed;
    for (const Value& v : visible->GetArray())
        if (is_index(v) && v.GetUint64() < thread_count_) listed.push_back(static_cast<std::uint32_t>(v.GetUint64()));
    const std::int64_t k = fxprof::shown_prefix_length(fxprof::threads_shown_at_first(slots, listed));
    const std::string w = dot(std::string(key::meta), key::initialVisibleThreads);
    if (k < 0) {
        problem(w,
                "the threads shown at first (these and their processes' main threads) are not the "
                "first threads: a profile shared without its hidden threads would break");
        return;
    }
    if (const Value* selected = get(m, key::initialSelectedThreads); selected && selected->IsArray())
        for (rapidjson::SizeType i = 0; i < selected->Size(); ++i)
            if (is_index((*selected)[i]) && (*selected)[i].GetUint64() >= static_cast<std::uint64_t>(k))
                problem(at(dot(std::string(key::meta), key::initialSelectedThreads), i), "is a thread hidden at first");
}

}  // namespace el2fx::check
