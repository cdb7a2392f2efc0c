#include "check/validator.hpp"

namespace el2fx::check {

void Validator::check_shared(const Value& s) {
    const std::string w(key::shared);
    if (const Value* sa = require(s, key::stringArray, w, &Value::IsArray, "an array")) {
        string_count_ = sa->Size();
        for (rapidjson::SizeType i = 0; i < sa->Size(); ++i)
            if (!(*sa)[i].IsString()) problem(at(dot(w, key::stringArray), i), "is not a string");
    }
    const auto stacks = table(s, key::stackTable, w, {key::frame, key::prefixOffset});
    const auto frames = table(s, key::frameTable, w,
                              {key::address, key::lib, key::inlineDepth, key::category, key::subcategory, key::func,
                               key::nativeSymbol, key::innerWindowID, key::line, key::column, key::originalLocation});
    const auto funcs = table(s, key::funcTable, w,
                             {key::name, key::isJS, key::relevantForJS, key::resource, key::source, key::lineNumber,
                              key::columnNumber, key::originalLocation});
    const auto resources = table(s, key::resourceTable, w, {key::name, key::host, key::type});
    const auto natives = table(s, key::nativeSymbols, w, {key::libIndex, key::address, key::name, key::functionSize});
    const auto sources =
        table(s, key::sources, w,
              {key::id, key::filename, key::startLine, key::startColumn, key::sourceMapURL, key::content});
    const auto locations = table(s, key::sourceLocationTable, w, {key::source, key::line, key::column});
    stack_count_ = stacks.value_or(0);

    if (stacks) {
        const Value& t = *get(s, key::stackTable);
        const std::string tw = dot(w, key::stackTable);
        if (get(t, key::prefix)) problem(dot(tw, key::prefix), "is not a v70 column (use prefixOffset)");
        if (frames) index_column(t, key::frame, tw, *frames, "the frame table");
        const Value& off = *get(t, key::prefixOffset);
        for (rapidjson::SizeType i = 0; i < off.Size(); ++i)
            if (!off[i].IsUint64() || off[i].GetUint64() > i)
                problem(at(dot(tw, key::prefixOffset), i), "does not point to an earlier stack (0 for a root)");
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
        if (locations) index_column(t, key::originalLocation, tw, *locations, "sourceLocationTable", true);
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
                problem(si, "is not a subcategory of category " + std::to_string(cat[i].GetUint64()));
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
        if (locations) index_column(t, key::originalLocation, tw, *locations, "sourceLocationTable", true);
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

}  // namespace el2fx::check
