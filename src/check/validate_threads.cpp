#include "check/validator.hpp"

namespace el2fx::check {

void Validator::check_threads(const Value& threads) {
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

void Validator::check_samples(const Value& thread, const std::string& w) {
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
                    problem(at(dot(sw, key::threadCPUDelta), i), "is neither a non-negative number nor null");
            }
        }
    }
}

void Validator::check_markers(const Value& thread, const std::string& w) {
    const auto n =
        table(thread, key::markers, w, {key::data, key::name, key::startTime, key::endTime, key::phase, key::category});
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
            if (needs_start && !start[i].IsNumber()) problem(at(dot(mw, key::startTime), i), "is not a number");
            if (needs_end && !end[i].IsNumber()) problem(at(dot(mw, key::endTime), i), "is not a number");
            if (ph == 1 && start[i].IsNumber() && end[i].IsNumber() && end[i].GetDouble() < start[i].GetDouble())
                problem(at(dot(mw, key::endTime), i), "is before the start time");
        }
        check_marker_data(data[i], at(dot(mw, key::data), i));
    }
}

void Validator::check_marker_data(const Value& d, const std::string& w) {
    if (d.IsNull()) return;
    if (!d.IsObject()) {
        problem(w, "is neither null nor an object");
        return;
    }
    const Value* type = require(d, key::type, w, &Value::IsString, "a string");
    if (!type) return;
    auto it = schemas_.find(type->GetString());
    if (it == schemas_.end()) {
        problem(dot(w, key::type), std::string("\"") + type->GetString() + "\" has no marker schema");
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

}  // namespace el2fx::check
