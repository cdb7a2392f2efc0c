// The writer of a profile's JSON (profile_writer.hpp), shared by the files that write its parts:
// profile_writer.cpp (the whole), profile_writer_meta.cpp (meta, marker schemas, Profile
// Info), profile_writer_shared.cpp (the shared tables), profile_writer_threads.cpp (threads:
// samples and markers), profile_writer_counters.cpp (counters). Internal to fxprof.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/json_emitter.hpp"
#include "fxprof/json_stream.hpp"
#include "fxprof/profile.hpp"

namespace el2fx::fxprof::detail {

namespace key = v70::key;

// What every part's writer reads, made once per profile.
struct WriterTables {
    explicit WriterTables(const Profile& p);
    // Each marker schema's name and field keys as JSON text: every marker's data repeats them.
    struct EncodedSchema {
        EncodedString name;
        std::vector<EncodedString> keys;
    };
    std::vector<EncodedSchema> schemas;
    const EncodedString type_key = JsonEmitter::encode(key::type);  // every marker's data has it
    std::vector<std::uint32_t> order;     // written position -> thread handle index
    std::vector<std::uint32_t> position;  // thread handle index -> written position
};

// A table is written a column at a time, and each column read from the SpillStore (where
// most rows are, on file) would decode every row again: the rows of a table up to this size
// are kept as its first column reads them, and its other columns written from them. Larger
// tables are read once per column (bounded memory). One per writing thread, reused.
struct KeptRows {
    static constexpr std::size_t kMax = std::size_t{1} << 17;  // 4 MiB of samples, 3 of markers
    // A marker's columns but its data (MarkerRow's values live only during the callback).
    struct Marker {
        std::int64_t start, end;
        std::uint32_t name;
        std::uint16_t category;
        MarkerPhase phase;
    };
    std::vector<SampleRow> samples;
    std::vector<Marker> markers;
};

// The profile's large values, each written apart from the rest of the document (the
// skeleton: keys, brackets, meta, libs, each thread's fields, the small tables): the shared
// tables, each thread's samples and markers, each counter.
struct DocumentPart {
    enum class Value { string_array, stack_table, frame_table, func_table, sources, samples, markers, counter };
    std::string prefix;  // the skeleton's text before the value
    Value value;
    std::uint32_t index = 0;  // the thread's handle index, the counter's index
};

// The skeleton as it is written: its text since the last part, and the parts so far.
struct Skeleton {
    std::string text;
    StringSink sink{text};
    JsonOutStream os{sink};
    std::vector<DocumentPart> parts;
};

// Writes either the skeleton (with a placeholder for each part) or one part, as the
// constructor says.
class ProfileWriter {
public:
    // The skeleton's writer: `j` writes to `skeleton.os`.
    ProfileWriter(const Profile& p, const WriterTables& tables, JsonEmitter& j, Skeleton& skeleton);
    // A part's writer.
    ProfileWriter(const Profile& p, const WriterTables& tables, JsonEmitter& j, KeptRows& kept);
    // The skeleton, its parts in `skeleton.parts`, each with the text before it; returns the
    // text after the last.
    std::string write_skeleton();
    // A part's value, as the document's root.
    void write_part(const DocumentPart& part);

private:
    // `key: [f(0), ..., f(n-1)]`
    template <class F>
    void column(std::string_view k, std::size_t n, F&& f) {
        j_.key(k);
        j_.begin_array();
        for (std::size_t i = 0; i < n; ++i) f(i);
        j_.end_array();
    }
    // `key: [v, v, ...]` (n times)
    void constant_column(std::string_view k, std::size_t n, std::int64_t v) {
        j_.key(k);
        j_.begin_array();
        j_.repeated(std::to_string(v), rapidjson::kNumberType, n);
        j_.end_array();
    }
    void null_column(std::string_view k, std::size_t n) {
        j_.key(k);
        j_.begin_array();
        j_.repeated("null", rapidjson::kNullType, n);
        j_.end_array();
    }
    void length(std::size_t n) {
        j_.key(key::length);
        j_.uint64(n);
    }
    void string_field(std::string_view k, std::string_view v) {
        j_.key(k);
        j_.string(v);
    }
    template <class T>
    void optional_index(const std::optional<T>& v) {
        if (v)
            j_.uint64(v->index());
        else
            j_.null();
    }
    void optional_uint(const std::optional<std::uint32_t>& v) {
        if (v)
            j_.uint64(*v);
        else
            j_.null();
    }

    // ---- meta -------------------------------------------------------------------------------
    // `key: [f(row), ...]` over a table's rows (in time order for samples).
    template <class Table, class F>
    void rows_column(std::string_view k, const Table& table, F&& f) {
        j_.key(k);
        j_.begin_array();
        table.for_each(f);
        j_.end_array();
    }
    // The same for marker columns other than data.
    template <class F>
    void marker_column(std::string_view k, const MarkerTable& table, F&& f) {
        j_.key(k);
        j_.begin_array();
        table.for_each(f, false);
        j_.end_array();
    }
    // `key: [f(row), ...]` over rows kept in memory.
    template <class Row, class F>
    void kept_column(std::string_view k, const std::vector<Row>& rows, F&& f) {
        j_.key(k);
        j_.begin_array();
        for (const Row& r : rows) f(r);
        j_.end_array();
    }

    // In the skeleton: the placeholder of a part (write_skeleton).
    void part(DocumentPart::Value value, std::uint32_t index = 0);

    // ---- the parts, each in its own file
    void write_meta();
    void write_schema(const MarkerSchema& s);
    void write_extra(const ExtraSection& s);
    void write_shared();  // skeleton
    void write_string_array();
    void write_stack_table();
    void write_frame_table();
    void write_func_table();
    void write_resource_table();    // skeleton
    void write_native_symbols();    // skeleton
    void write_sources();
    void write_source_locations();  // skeleton
    void write_thread(std::uint32_t handle_index);  // skeleton
    void write_samples(const Thread& t);
    // A marker field's value, in its data's flat object (JsonEmitter::begin_flat_object).
    void write_field_value(const MarkerField& f, const FieldValue& v);
    void write_markers(const Thread& t);
    std::uint32_t main_thread_index(const Counter& c);
    void write_counter(const Counter& c);

    std::uint32_t position(ThreadHandle h) const { return tables_.position[h.index()]; }

    const Profile& p_;
    const WriterTables& tables_;
    JsonEmitter& j_;
    Skeleton* skeleton_ = nullptr;  // the skeleton's writer's
    KeptRows* kept_ = nullptr;      // a part's writer's
};

}  // namespace el2fx::fxprof::detail
