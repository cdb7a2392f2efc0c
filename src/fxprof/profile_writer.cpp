#include "fxprof/profile_writer.hpp"

#include <array>

#include "fxprof/json_stream.hpp"
#include "fxprof/profile_json_writer.hpp"
#include "fxprof/segmented_gzip.hpp"
#include "fxprof/thread_order.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {
namespace detail {

WriterTables::WriterTables(const Profile& p) : order(thread_write_order(p)), position(order.size()) {
    for (std::size_t pos = 0; pos < order.size(); ++pos) position[order[pos]] = static_cast<std::uint32_t>(pos);
    for (const MarkerSchema& s : p.marker_schemas()) {
        EncodedSchema& e = schemas.emplace_back();
        e.name = JsonEmitter::encode(s.name);
        for (const MarkerField& f : s.fields) e.keys.push_back(JsonEmitter::encode(f.key));
    }
}

ProfileWriter::ProfileWriter(const Profile& p, const WriterTables& tables, JsonEmitter& j, Skeleton& skeleton)
    : p_(p), tables_(tables), j_(j), skeleton_(&skeleton) {}

ProfileWriter::ProfileWriter(const Profile& p, const WriterTables& tables, JsonEmitter& j, KeptRows& kept)
    : p_(p), tables_(tables), j_(j), kept_(&kept) {}

void ProfileWriter::part(DocumentPart::Value value, std::uint32_t index) {
    j_.value_written_elsewhere(value == DocumentPart::Value::string_array ? rapidjson::kArrayType
                                                                          : rapidjson::kObjectType);
    skeleton_->os.Flush();
    skeleton_->parts.push_back(DocumentPart{std::move(skeleton_->text), value, index});
    skeleton_->text.clear();
}

std::string ProfileWriter::write_skeleton() {
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
    j_.key(key::shared);
    write_shared();
    j_.key(key::threads);
    j_.begin_array();
    // Shown threads first (thread_order.hpp): every thread index written is a position.
    for (std::uint32_t h : tables_.order) write_thread(h);
    j_.end_array();
    j_.key(key::counters);
    j_.begin_array();
    for (std::size_t i = 0; i < p_.counters().size(); ++i)
        part(DocumentPart::Value::counter, static_cast<std::uint32_t>(i));
    j_.end_array();
    j_.end_object();
    if (!j_.complete()) throw Error("JSON writer: the profile object is incomplete");
    skeleton_->os.Flush();
    return std::move(skeleton_->text);
}

void ProfileWriter::write_part(const DocumentPart& part) {
    switch (part.value) {
        case DocumentPart::Value::string_array: write_string_array(); break;
        case DocumentPart::Value::stack_table: write_stack_table(); break;
        case DocumentPart::Value::frame_table: write_frame_table(); break;
        case DocumentPart::Value::func_table: write_func_table(); break;
        case DocumentPart::Value::sources: write_sources(); break;
        case DocumentPart::Value::samples: write_samples(p_.threads()[part.index]); break;
        case DocumentPart::Value::markers: write_markers(p_.threads()[part.index]); break;
        case DocumentPart::Value::counter: write_counter(p_.counters()[part.index]); break;
    }
    if (!j_.complete()) throw Error("JSON writer: a part of the profile is incomplete");
}

namespace {

// The profile's JSON as segments of parts: each segment some consecutive parts (with the
// skeleton's text before each), the last also the skeleton's end.
class ProfileDocument {
public:
    explicit ProfileDocument(const Profile& p) : p_(p), tables_(p) {
        Skeleton skeleton;
        JsonEmitter emitter(skeleton.os);
        tail_ = ProfileWriter(p_, tables_, emitter, skeleton).write_skeleton();
        parts_ = std::move(skeleton.parts);
        repaired_ = emitter.repaired_strings();
        // A segment ends at the part that takes it past kSegmentBytes: few segments, each
        // deflated apart, whose first blocks have no dictionary (segmented_gzip.hpp).
        std::uint64_t size = 0;
        for (std::size_t i = 0; i < parts_.size(); ++i) {
            size += estimated_bytes(parts_[i]);
            if (size >= kSegmentBytes) {
                segment_ends_.push_back(i + 1);
                size = 0;
            }
        }
        if (segment_ends_.empty() || segment_ends_.back() != parts_.size()) segment_ends_.push_back(parts_.size());
    }

    std::size_t segments() const { return segment_ends_.size(); }

    // Writes segment `s`'s text to `sink`.
    WriteStats write_segment(std::size_t s, ByteSink& sink, KeptRows& kept) const {
        WriteStats stats;
        stats.repaired_strings = s == 0 ? repaired_ : 0;
        const std::size_t first = s == 0 ? 0 : segment_ends_[s - 1];
        JsonOutStream os(sink);
        JsonEmitter value(os);
        for (std::size_t i = first; i < segment_ends_[s]; ++i) {
            const DocumentPart& part = parts_[i];
            os.PutBytes(part.prefix.data(), part.prefix.size());
            ProfileWriter(p_, tables_, value, kept).write_part(part);
            value.restart();
        }
        stats.repaired_strings += value.repaired_strings();
        if (s + 1 == segments()) os.PutBytes(tail_.data(), tail_.size());
        os.Flush();
        stats.json_bytes = os.bytes_written();
        return stats;
    }

private:
    static constexpr std::uint64_t kSegmentBytes = std::uint64_t{1} << 20;

    // A part's text, roughly, from its rows: where segments are cut, and nothing else.
    std::uint64_t estimated_bytes(const DocumentPart& part) const {
        constexpr std::uint64_t kObject = 512, kString = 20, kStack = 8, kFrame = 48, kFunc = 44, kSample = 16,
                                kMarker = 110;
        switch (part.value) {
            case DocumentPart::Value::string_array: return kObject + kString * p_.strings().size();
            case DocumentPart::Value::stack_table: return kObject + kStack * p_.stacks().size();
            case DocumentPart::Value::frame_table: return kObject + kFrame * p_.frames().size();
            case DocumentPart::Value::func_table: return kObject + kFunc * p_.funcs().size();
            case DocumentPart::Value::sources: {
                std::uint64_t bytes = kObject;
                for (std::size_t i = 0; i < p_.sources().filenames().size(); ++i)
                    if (const std::string* text = p_.sources().content(i)) bytes += text->size();
                return bytes;
            }
            case DocumentPart::Value::samples: return kObject + kSample * p_.threads()[part.index].samples.size();
            case DocumentPart::Value::markers: return kObject + kMarker * p_.threads()[part.index].markers.size();
            case DocumentPart::Value::counter: return kObject + kSample * p_.counters()[part.index].samples.size();
        }
        return kObject;
    }

    const Profile& p_;
    const WriterTables tables_;
    std::vector<DocumentPart> parts_;
    std::string tail_;
    std::vector<std::size_t> segment_ends_;  // the end of each segment's parts
    std::uint64_t repaired_ = 0;             // in the skeleton
};

}  // namespace
}  // namespace detail

WriteStats write_profile_json(const Profile& profile, ByteSink& sink) {
    const detail::ProfileDocument document(profile);
    detail::KeptRows kept;
    WriteStats stats;
    for (std::size_t s = 0; s < document.segments(); ++s) {
        const WriteStats segment = document.write_segment(s, sink, kept);
        stats.json_bytes += segment.json_bytes;
        stats.repaired_strings += segment.repaired_strings;
    }
    return stats;
}

WriteStats write_profile_json_gz(const Profile& profile, ByteSink& sink, int level) {
    const detail::ProfileDocument document(profile);
    std::array<detail::KeptRows, 2> kept;  // one per thread
    std::array<std::uint64_t, 2> repaired{};
    SegmentedGzipOptions options;
    options.level = level;
    options.threads = static_cast<unsigned>(kept.size());
    WriteStats stats;
    stats.json_bytes = write_segmented_gzip(
        sink, document.segments(),
        [&](unsigned slot, std::size_t s, ByteSink& text) {
            repaired[slot] += document.write_segment(s, text, kept[slot]).repaired_strings;
        },
        options);
    stats.repaired_strings = repaired[0] + repaired[1];
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
