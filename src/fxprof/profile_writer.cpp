#include "fxprof/profile_writer.hpp"

#include "fxprof/json_stream.hpp"
#include "fxprof/profile_json_writer.hpp"
#include "fxprof/thread_order.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {
namespace detail {

ProfileWriter::ProfileWriter(const Profile& p, JsonEmitter& j)
    : p_(p), j_(j), order_(thread_write_order(p)), position_(order_.size()) {
    for (std::size_t pos = 0; pos < order_.size(); ++pos) position_[order_[pos]] = static_cast<std::uint32_t>(pos);
    for (const MarkerSchema& s : p.marker_schemas()) {
        EncodedSchema& e = encoded_schemas_.emplace_back();
        e.name = JsonEmitter::encode(s.name);
        for (const MarkerField& f : s.fields) e.keys.push_back(JsonEmitter::encode(f.key));
    }
}

void ProfileWriter::write() {
    j_.begin_object();
    write_meta();
    j_.key(key::libs);
    j_.begin_array();
    for (const Lib& lib : p_.libs()) {
        j_.begin_object();
        string_field(key::arch, lib.arch);
        string_field(key::name, lib.name);
        string_field(key::path, lib.path);
        string_field(key::debugName, lib.debug_name);
        string_field(key::debugPath, lib.debug_path);
        string_field(key::breakpadId, lib.breakpad_id);
        string_field(key::codeId, lib.code_id);
        j_.end_object();
    }
    j_.end_array();
    write_shared();
    j_.key(key::threads);
    j_.begin_array();
    // Shown threads first (thread_order.hpp): every thread index written is a position.
    for (std::uint32_t h : order_) write_thread(p_.threads()[h]);
    j_.end_array();
    j_.key(key::counters);
    j_.begin_array();
    for (const Counter& c : p_.counters()) write_counter(c);
    j_.end_array();
    j_.end_object();
    if (!j_.complete()) throw Error("JSON writer: the profile object is incomplete");
}

}  // namespace detail

WriteStats write_profile_json(const Profile& profile, ByteSink& sink) {
    JsonOutStream os(sink);
    JsonEmitter emitter(os);
    detail::ProfileWriter(profile, emitter).write();
    os.Flush();
    WriteStats stats;
    stats.json_bytes = os.bytes_written();
    stats.repaired_strings = emitter.repaired_strings();
    return stats;
}

std::string profile_to_json(const Profile& profile, WriteStats* stats) {
    std::string out;
    StringSink sink(out);
    WriteStats s = write_profile_json(profile, sink);
    if (stats) *stats = s;
    return out;
}

}  // namespace el2fx::fxprof
