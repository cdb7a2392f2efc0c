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
#include "fxprof/profile.hpp"

namespace el2fx::fxprof::detail {

namespace key = v70::key;

class ProfileWriter {
public:
    ProfileWriter(const Profile& p, JsonEmitter& j);
    void write();

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

    // ---- the parts, each in its own file
    void write_meta();
    void write_schema(const MarkerSchema& s);
    void write_extra(const ExtraSection& s);
    void write_shared();
    void write_thread(const Thread& t);
    void write_samples(const Thread& t);
    // A marker field's value, in its data's flat object (JsonEmitter::begin_flat_object).
    void write_field_value(const MarkerField& f, const FieldValue& v);
    void write_markers(const Thread& t);
    std::uint32_t main_thread_index(const Counter& c);
    void write_counter(const Counter& c);

    std::uint32_t position(ThreadHandle h) const { return position_[h.index()]; }

    // Each marker schema's name and field keys as JSON text: every marker's data repeats them.
    struct EncodedSchema {
        EncodedString name;
        std::vector<EncodedString> keys;
    };

    // A table is written a column at a time, and each column read from the SpillStore (where
    // most rows are, on file) would decode every row again: the rows of a table up to this
    // size are kept as its first column reads them, and its other columns written from them.
    // Larger tables are read once per column (bounded memory).
    static constexpr std::size_t kKeptRows = std::size_t{1} << 17;  // 4 MiB of samples, 3 of markers
    // A marker's columns but its data (MarkerRow's values live only during the callback).
    struct KeptMarker {
        std::int64_t start, end;
        std::uint32_t name;
        std::uint16_t category;
        MarkerPhase phase;
    };

    const Profile& p_;
    JsonEmitter& j_;
    std::vector<SampleRow> kept_samples_;  // reused from thread to thread
    std::vector<KeptMarker> kept_markers_;
    std::vector<EncodedSchema> encoded_schemas_;
    const EncodedString type_key_ = JsonEmitter::encode(key::type);  // every marker's data has it
    std::vector<std::uint32_t> order_;     // written position -> thread handle index
    std::vector<std::uint32_t> position_;  // thread handle index -> written position
};

}  // namespace el2fx::fxprof::detail
