#include "fxprof/json_emitter.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "fxprof/decimal.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"

namespace el2fx::fxprof {

void JsonEmitter::check(bool ok) const {
    if (!ok) throw Error("JSON writer refused a value (the output is not valid JSON)");
}

rapidjson::SizeType JsonEmitter::size(std::string_view s) {
    if (s.size() > UINT32_MAX) throw Error("JSON string longer than 4 GiB");
    return static_cast<rapidjson::SizeType>(s.size());
}

std::string_view JsonEmitter::repaired(std::string_view s) {
    if (utf8::is_valid(s)) return s;
    scratch_.clear();
    utf8::append_sanitized(scratch_, s);
    ++repaired_;
    return scratch_;
}

void JsonEmitter::repeated(std::string_view text, rapidjson::Type type, std::size_t n) {
    if (n == 0) return;
    // The first through the writer, which then knows the array has a value (and puts a comma
    // before the next one it writes); the rest straight to the stream, a piece at a time.
    check(writer_.RawValue(text.data(), size(text), type));
    constexpr std::size_t kPerPiece = 1024;
    std::string piece;  // a few per profile: one per constant column
    for (std::size_t i = 0; i < std::min(n - 1, kPerPiece); ++i) (piece += ',') += text;
    for (std::size_t left = n - 1; left > 0;) {
        const std::size_t count = std::min(left, kPerPiece);
        os_.PutBytes(piece.data(), count * (text.size() + 1));
        left -= count;
    }
}

void JsonEmitter::string(std::string_view s) {
    const std::string_view text = repaired(s);
    check(writer_.String(text.data(), size(text)));
}

EncodedString JsonEmitter::encode(std::string_view s) {
    EncodedString out;
    std::string fixed;
    if (!utf8::is_valid(s)) {
        utf8::append_sanitized(fixed, s);
        s = fixed;
        out.repaired = true;
    }
    // The same writer class as the output's, so the same escapes.
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    if (!w.String(s.data(), size(s))) throw Error("JSON writer refused a string");
    out.json.assign(buffer.GetString(), buffer.GetSize());
    return out;
}

bool JsonEmitter::written_whole(double d) {
    if (!std::isfinite(d)) throw Error("JSON writer: a number is not finite");
    constexpr double kExactIntegerLimit = 9007199254740992.0;  // 2^53
    return d == std::trunc(d) && std::fabs(d) < kExactIntegerLimit;
}

void JsonEmitter::number(double d) {
    if (written_whole(d)) {
        check(writer_.Int64(static_cast<std::int64_t>(d)));
    } else {
        check(writer_.Double(d));
    }
}

// A sign, 19 digits and a point at most (format_scaled_decimal), and a comma before them.
static_assert(kDecimalBufferSize >= JsonOutStream::kShortBytes && 1 + 21 <= JsonOutStream::kShortBytes);

void JsonEmitter::scaled(std::int64_t value, unsigned scale) {
    char text[kDecimalBufferSize] = {','};
    const std::size_t n = format_scaled_decimal(value, scale, text + 1);
    if (std::size_t* count = writer_.continued_array()) {
        os_.PutShort(text, 1 + n);
        ++*count;
        return;
    }
    check(writer_.RawValue(text + 1, n, rapidjson::kNumberType));
}

void JsonEmitter::flat_string(std::string_view s) {
    const std::string_view text = repaired(s);
    flat_text_.Clear();
    flat_text_writer_.Reset(flat_text_);
    check(flat_text_writer_.String(text.data(), size(text)));
    flat_.append(flat_text_.GetString(), flat_text_.GetSize());
}

void JsonEmitter::flat_number(double d) {
    if (written_whole(d)) return flat_int64(static_cast<std::int64_t>(d));
    char text[kDecimalBufferSize];  // the writer's Double(): 25 characters at most
    const int places = rapidjson::Writer<JsonOutStream>::kDefaultMaxDecimalPlaces;
    flat_.append(text, static_cast<std::size_t>(rapidjson::internal::dtoa(d, text, places) - text));
}

void JsonEmitter::flat_scaled(std::int64_t value, unsigned scale) {
    char text[kDecimalBufferSize];
    flat_.append(text, format_scaled_decimal(value, scale, text));
}

void JsonEmitter::end_flat_object() {
    flat_ += '}';
    if (std::size_t* count = writer_.continued_array()) {
        os_.PutBytes(flat_.data(), flat_.size());
        ++*count;
        return;
    }
    check(writer_.RawValue(flat_.data() + 1, size(flat_) - 1, rapidjson::kObjectType));
}

}  // namespace el2fx::fxprof
