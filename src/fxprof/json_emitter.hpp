// RapidJSON's SAX Writer with every returned bool checked (a false becomes el2fx::Error), every
// string repaired to valid UTF-8 on the way out (util/utf8.hpp: each maximal ill-formed
// subsequence becomes U+FFFD; RapidJSON's writer does not validate), and exact decimal numbers
// for scaled integers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "fxprof/json_stream.hpp"
#include "util/rapidjson.hpp"

namespace el2fx::fxprof {

// A string as JSON text (repaired, escaped, quoted), made once for a string written many
// times, such as a marker field's key in every marker of its type.
struct EncodedString {
    std::string json;
    bool repaired = false;  // counted at each use, as if written with string()
};

// RapidJSON's Writer, which also tells whether a value now would follow another in an array:
// JsonEmitter writes those itself (a comma and the value), the commonest case of a profile.
class JsonWriter : public rapidjson::Writer<JsonOutStream> {
public:
    using rapidjson::Writer<JsonOutStream>::Writer;
    // The innermost level, if it is an array that has a value already; nullptr otherwise.
    std::size_t* continued_array() {
        if (level_stack_.Empty()) return nullptr;
        Level* level = level_stack_.template Top<Level>();
        return level->inArray && level->valueCount > 0 ? &level->valueCount : nullptr;
    }
};

class JsonEmitter {
public:
    explicit JsonEmitter(JsonOutStream& os) : os_(os), writer_(os) {}

    void begin_object() { check(writer_.StartObject()); }
    void end_object() { check(writer_.EndObject()); }
    void begin_array() { check(writer_.StartArray()); }
    void end_array() { check(writer_.EndArray()); }

    // A key this library spells (format_v70.hpp): ASCII, written as is.
    void key(std::string_view k) { check(writer_.Key(k.data(), size(k))); }
    void string(std::string_view s);
    static EncodedString encode(std::string_view s);
    // A key that came from a caller (a marker field key), encoded: repaired like any string.
    void encoded_key(const EncodedString& k) { encoded(k); }
    void encoded_string(const EncodedString& s) { encoded(s); }
    void null() {
        if (!next_in_array(",null")) check(writer_.Null());
    }
    // `n` array elements of one JSON literal `text` (null, 0, -1), written as is: the long
    // constant columns of the shared tables cost a copy of bytes, not a value each.
    void repeated(std::string_view text, rapidjson::Type type, std::size_t n);
    void boolean(bool b) {
        if (!next_in_array(b ? ",true" : ",false")) check(writer_.Bool(b));
    }
    void int64(std::int64_t i) {
        if (!next_integer_in_array(i)) check(writer_.Int64(i));
    }
    void uint64(std::uint64_t u) {
        if (!next_integer_in_array(u)) check(writer_.Uint64(u));
    }
    // A finite double; whole numbers (|x| < 2^53) are written without a fraction.
    void number(double d);
    // value / 10^scale as an exact decimal, e.g. nanoseconds at scale 6 = milliseconds.
    void scaled(std::int64_t value, unsigned scale);
    void ms_from_ns(std::int64_t ns) { scaled(ns, 6); }

    // A flat object (encoded keys, scalar values) composed as text and written as one value:
    // a marker's data, the commonest object of a profile, without the writer's work per key
    // and value. The same bytes as begin_object(), a key and a value each, end_object().
    // Between begin and end, only the flat_ calls.
    void begin_flat_object() {
        flat_.assign(",{");
        flat_members_ = 0;
    }
    void flat_key(const EncodedString& k) {
        if (flat_members_++ > 0) flat_ += ',';
        if (k.repaired) ++repaired_;
        (flat_ += k.json) += ':';
    }
    void flat_encoded_string(const EncodedString& s) {
        if (s.repaired) ++repaired_;
        flat_ += s.json;
    }
    void flat_string(std::string_view s);
    void flat_int64(std::int64_t i) { flat_short(i, &rapidjson::internal::i64toa); }
    void flat_uint64(std::uint64_t u) { flat_short(u, &rapidjson::internal::u64toa); }
    void flat_number(double d);
    void flat_scaled(std::int64_t value, unsigned scale);
    void end_flat_object();

    // A value whose text another emitter writes where this one stops (the profile's parts,
    // written apart): the comma or colon before it, and the count of values, as if written.
    void value_written_elsewhere(rapidjson::Type type) { check(writer_.RawValue("", 0, type)); }

    bool complete() const { return writer_.IsComplete(); }
    // After a complete value: the next on the same stream (the profile's parts, one after
    // another), with the buffers kept and the repaired strings counted on.
    void restart() { writer_.Reset(os_); }
    std::uint64_t repaired_strings() const { return repaired_; }

private:
    // A comma and a number (at most 20 characters) or literal.
    static constexpr std::size_t kShortValue = JsonOutStream::kShortBytes;
    // After another value in an array: `text` (with its comma) straight to the stream, as the
    // writer would have put it. False elsewhere: the writer puts it.
    bool next_in_array(std::string_view text) {
        std::size_t* count = writer_.continued_array();
        if (!count) return false;
        char padded[kShortValue] = {};
        std::memcpy(padded, text.data(), text.size());
        os_.PutShort(padded, text.size());
        ++*count;
        return true;
    }
    // The same for an integer: a comma and its digits, as the writer's.
    template <class Integer>
    bool next_integer_in_array(Integer value) {
        std::size_t* count = writer_.continued_array();
        if (!count) return false;
        char text[kShortValue] = {','};
        char* end;
        if constexpr (std::is_signed_v<Integer>)
            end = rapidjson::internal::i64toa(value, text + 1);
        else
            end = rapidjson::internal::u64toa(value, text + 1);
        os_.PutShort(text, static_cast<std::size_t>(end - text));
        ++*count;
        return true;
    }
    template <class Integer>
    void flat_short(Integer value, char* (*to_text)(Integer, char*)) {
        char text[kShortValue];
        flat_.append(text, static_cast<std::size_t>(to_text(value, text) - text));
    }
    static rapidjson::SizeType size(std::string_view s);
    // Whether a finite double is written as an integer (number()); el2fx::Error if not finite.
    static bool written_whole(double d);
    // Returns the text to write: s itself, or a repaired copy in scratch_.
    std::string_view repaired(std::string_view s);
    void check(bool ok) const;
    // In a key's place the writer takes a raw string value as the key.
    void encoded(const EncodedString& s) {
        if (s.repaired) ++repaired_;
        check(writer_.RawValue(s.json.data(), s.json.size(), rapidjson::kStringType));
    }

    JsonOutStream& os_;
    JsonWriter writer_;
    std::string scratch_;
    std::uint64_t repaired_ = 0;
    // The flat object being composed, after a comma that is written only after another value
    // in an array; its members so far.
    std::string flat_;
    std::size_t flat_members_ = 0;
    // A text value of a flat object, escaped by the writer's own class (kept: its stack is
    // allocated once).
    rapidjson::StringBuffer flat_text_;
    rapidjson::Writer<rapidjson::StringBuffer> flat_text_writer_{flat_text_};
};

}  // namespace el2fx::fxprof
