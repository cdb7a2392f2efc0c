#include "fxprof/profile_json_writer.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof::detail {

// The large tables are parts of their own (two threads write them), the rest is skeleton.
void ProfileWriter::write_shared() {
    j_.begin_object();
    j_.key(key::stringArray);
    part(DocumentPart::Value::string_array);
    j_.key(key::stackTable);
    part(DocumentPart::Value::stack_table);
    j_.key(key::frameTable);
    part(DocumentPart::Value::frame_table);
    j_.key(key::funcTable);
    part(DocumentPart::Value::func_table);
    write_resource_table();
    write_native_symbols();
    j_.key(key::sources);
    part(DocumentPart::Value::sources);
    write_source_locations();
    j_.end_object();
}

void ProfileWriter::write_string_array() {
    const StringTable& strings = p_.strings();
    j_.begin_array();
    for (std::size_t i = 0; i < strings.size(); ++i) j_.string(strings.get(StringHandle(std::uint32_t(i))));
    j_.end_array();
}

void ProfileWriter::write_stack_table() {
    const StackTable& stacks = p_.stacks();
    const std::size_t ns = stacks.size();
    j_.begin_object();
    column(key::frame, ns, [&](std::size_t i) { j_.uint64(stacks.frame_index(std::uint32_t(i))); });
    column(key::prefixOffset, ns, [&](std::size_t i) { j_.uint64(stacks.prefix_offset(std::uint32_t(i))); });
    length(ns);
    j_.end_object();
}

void ProfileWriter::write_frame_table() {
    const auto frames = p_.frames().rows();
    const std::size_t nf = frames.size();
    j_.begin_object();
    column(key::address, nf, [&](std::size_t i) {
        const auto a = frames[i].address;
        j_.int64(a ? std::int64_t(*a) : -1);
    });
    column(key::lib, nf, [&](std::size_t i) {
        const auto l = frames[i].lib;
        j_.int64(l ? std::int64_t(l->index()) : -1);
    });
    constant_column(key::inlineDepth, nf, 0);
    column(key::category, nf, [&](std::size_t i) {
        if (frames[i].category)
            j_.uint64(frames[i].category->category().index());
        else
            j_.null();
    });
    column(key::subcategory, nf, [&](std::size_t i) {
        if (frames[i].category)
            j_.uint64(frames[i].category->index());
        else
            j_.null();
    });
    column(key::func, nf, [&](std::size_t i) { j_.uint64(frames[i].func.index()); });
    null_column(key::nativeSymbol, nf);
    constant_column(key::innerWindowID, nf, 0);
    column(key::line, nf, [&](std::size_t i) { optional_uint(frames[i].line); });
    column(key::column, nf, [&](std::size_t i) { optional_uint(frames[i].column); });
    null_column(key::originalLocation, nf);
    length(nf);
    j_.end_object();
}

void ProfileWriter::write_func_table() {
    const auto funcs = p_.funcs().rows();
    const std::size_t nfn = funcs.size();
    j_.begin_object();
    column(key::name, nfn, [&](std::size_t i) { j_.uint64(funcs[i].name.index()); });
    column(key::isJS, nfn, [&](std::size_t i) { j_.boolean(funcs[i].is_js); });
    column(key::relevantForJS, nfn, [&](std::size_t i) { j_.boolean(funcs[i].relevant_for_js); });
    column(key::resource, nfn, [&](std::size_t i) {
        if (funcs[i].resource)
            j_.uint64(funcs[i].resource->index());
        else
            j_.int64(-1);
    });
    column(key::source, nfn, [&](std::size_t i) { optional_index(funcs[i].source); });
    column(key::lineNumber, nfn, [&](std::size_t i) { optional_uint(funcs[i].line); });
    column(key::columnNumber, nfn, [&](std::size_t i) { optional_uint(funcs[i].column); });
    null_column(key::originalLocation, nfn);
    length(nfn);
    j_.end_object();
}

void ProfileWriter::write_resource_table() {
    const auto& resources = p_.resources().rows();
    const std::size_t nr = resources.size();
    j_.key(key::resourceTable);
    j_.begin_object();
    column(key::name, nr, [&](std::size_t i) { j_.uint64(resources[i].name.index()); });
    null_column(key::host, nr);
    column(key::type, nr, [&](std::size_t i) { j_.uint64(static_cast<unsigned>(resources[i].type)); });
    length(nr);
    j_.end_object();
}

void ProfileWriter::write_native_symbols() {
    j_.key(key::nativeSymbols);
    j_.begin_object();
    null_column(key::libIndex, 0);
    null_column(key::address, 0);
    null_column(key::name, 0);
    null_column(key::functionSize, 0);
    length(0);
    j_.end_object();
}

void ProfileWriter::write_sources() {
    const auto& files = p_.sources().filenames();
    const std::size_t nsrc = files.size();
    j_.begin_object();
    null_column(key::id, nsrc);
    column(key::filename, nsrc, [&](std::size_t i) { j_.uint64(files[i].index()); });
    constant_column(key::startLine, nsrc, 1);
    constant_column(key::startColumn, nsrc, 1);
    null_column(key::sourceMapURL, nsrc);
    column(key::content, nsrc, [&](std::size_t i) {
        if (const std::string* text = p_.sources().content(i))
            j_.string(*text);
        else
            j_.null();
    });
    length(nsrc);
    j_.end_object();
}

void ProfileWriter::write_source_locations() {
    j_.key(key::sourceLocationTable);
    j_.begin_object();
    null_column(key::source, 0);
    null_column(key::line, 0);
    null_column(key::column, 0);
    length(0);
    j_.end_object();
}

}  // namespace el2fx::fxprof::detail
