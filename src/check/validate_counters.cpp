#include "check/validator.hpp"

namespace el2fx::check {

void Validator::check_counters(const Value& counters) {
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

void Validator::check_counter_display(const Value& d, const std::string& w) {
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

}  // namespace el2fx::check
