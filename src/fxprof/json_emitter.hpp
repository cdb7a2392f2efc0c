// RapidJSON's SAX Writer with every returned bool checked (a false becomes el2fx::Error), every
// string repaired to valid UTF-8 on the way out (util/utf8.hpp: each maximal ill-formed
// subsequence becomes U+FFFD; RapidJSON's writer does not validate), and exact decimal numbers
// for scaled integers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "fxprof/json_stream.hpp"
#include "util/rapidjson.hpp"

namespace el2fx::fxprof {

// A string as JSON text (repaired, escaped, quoted), made once for a string written many
// times, such as a marker field's key in every marker of its type.
struct EncodedString {
    std::string json;
    bool repaired = false;  // counted at each use, as if written with string()
};

class JsonEmitter {
public:
    explicit JsonEmitter(JsonOutStream& os) : writer_(os) {}

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
    void null() { check(writer_.Null()); }
    void boolean(bool b) { check(writer_.Bool(b)); }
    void int64(std::int64_t i) { check(writer_.Int64(i)); }
    void uint64(std::uint64_t u) { check(writer_.Uint64(u)); }
    // A finite double; whole numbers (|x| < 2^53) are written without a fraction.
    void number(double d);
    // value / 10^scale as an exact decimal, e.g. nanoseconds at scale 6 = milliseconds.
    void scaled(std::int64_t value, unsigned scale);
    void ms_from_ns(std::int64_t ns) { scaled(ns, 6); }

    bool complete() const { return writer_.IsComplete(); }
    std::uint64_t repaired_strings() const { return repaired_; }

private:
    static rapidjson::SizeType size(std::string_view s);
    // Returns the text to write: s itself, or a repaired copy in scratch_.
    std::string_view repaired(std::string_view s);
    void check(bool ok) const;
    // In a key's place the writer takes a raw string value as the key.
    void encoded(const EncodedString& s) {
        if (s.repaired) ++repaired_;
        check(writer_.RawValue(s.json.data(), s.json.size(), rapidjson::kStringType));
    }

    rapidjson::Writer<JsonOutStream> writer_;
    std::string scratch_;
    std::uint64_t repaired_ = 0;
};

}  // namespace el2fx::fxprof
