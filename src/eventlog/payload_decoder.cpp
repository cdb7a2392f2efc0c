#include "eventlog/payload_decoder.hpp"

#include <array>
#include <tuple>
#include <type_traits>
#include <utility>

#include "eventlog/byte_reader.hpp"
#include "eventlog/field_io.hpp"

namespace el2fx::eventlog {

// The census's first field changed width in GHC 9.10 (13 → 14 bytes).
template <>
void decode_payload_as<NonmovingHeapCensus>(const std::uint8_t* data, std::size_t size, Payload& payload) {
    ByteReader r(data, size);
    NonmovingHeapCensus& out = payload.emplace<NonmovingHeapCensus>();
    if (size >= 14) {
        out.blk_size = r.u16();
    } else {
        out.blk_size = r.u8();
        out.blk_size_is_log2 = true;
    }
    out.active_segs = r.u32();
    out.filled_segs = r.u32();
    out.live_blocks = r.u32();
    if (!r.ok()) decode_too_short(data, size, payload);
}

// The string has no terminator: it is every byte but the id in the last 4.
template <>
void decode_payload_as<InternString>(const std::uint8_t* data, std::size_t size, Payload& payload) {
    if (size < 4) return decode_too_short(data, size, payload);
    InternString& out = payload.emplace<InternString>();
    out.string.bytes = {reinterpret_cast<const char*>(data), size - 4};
    out.id = load_be32(data + size - 4);
}

namespace {

// Decodes straight into the caller's variant: no payload-sized copy per event.
using DecodeFn = void (*)(const std::uint8_t*, std::size_t, Payload&);

void decode_unknown(const std::uint8_t* data, std::size_t size, Payload& payload) {
    payload.emplace<UnknownEvent>(UnknownEvent{Bytes{{reinterpret_cast<const char*>(data), size}}, false});
}

constexpr std::size_t kTableSize = 256;  // every tag GHC, Eden and Mercury use is below 256

// Payload bytes the fields this table knows take (known_payload_bytes).
using KnownBytesFn = std::size_t (*)(const std::uint8_t*, std::size_t);

std::size_t all_bytes(const std::uint8_t*, std::size_t) { return kFieldsReadToEnd; }

// A field that takes every byte left: where it ends says nothing of the record's length.
template <typename F>
constexpr bool reads_to_end() {
    return std::is_same_v<F, Text> || std::is_same_v<F, Bytes> || std::is_same_v<F, StringList>;
}
template <typename T>
constexpr bool has_field_reading_to_end() {
    return std::apply(
        [](auto... f) {
            return (reads_to_end<std::remove_cvref_t<decltype(std::declval<T&>().*(f.member))>>() || ... || false);
        },
        T::fields());
}

template <typename T>
std::size_t known_bytes_as(const std::uint8_t* data, std::size_t size) {
    if constexpr (has_field_reading_to_end<T>()) {
        return kFieldsReadToEnd;
    } else {
        ByteReader r(data, size);
        T fields;
        field_io::read_fields(r, fields);
        return r.ok() ? r.position() : kFieldsDoNotFit;
    }
}
// Layouts of their own (above): the census's width follows the size, the string reads to the end.
template <>
std::size_t known_bytes_as<NonmovingHeapCensus>(const std::uint8_t*, std::size_t size) {
    return size >= 13 ? size : kFieldsDoNotFit;
}
template <>
std::size_t known_bytes_as<InternString>(const std::uint8_t*, std::size_t) {
    return kFieldsReadToEnd;
}

struct Row {
    DecodeFn decode = &decode_unknown;
    KnownBytesFn known_bytes = &all_bytes;
    std::string_view name;
};

template <typename... Ts>
constexpr std::array<Row, kTableSize> make_table(TypeList<Ts...>) {
    std::array<Row, kTableSize> table{};
    ((table[Ts::tag] = Row{&decode_payload_as<Ts>, &known_bytes_as<Ts>, Ts::name}), ...);
    return table;
}

constexpr std::array<Row, kTableSize> kTable = make_table(AllPayloads{});

// A tag listed twice in the table would silently shadow a row.
template <typename... Ts>
constexpr bool tags_unique(TypeList<Ts...>) {
    std::array<std::uint16_t, sizeof...(Ts)> tags{Ts::tag...};
    for (std::size_t i = 0; i < tags.size(); ++i)
        for (std::size_t j = i + 1; j < tags.size(); ++j)
            if (tags[i] == tags[j]) return false;
    return true;
}
static_assert(tags_unique(AllPayloads{}), "duplicate tag in the event table");

}  // namespace

void decode_payload_by_table(std::uint16_t tag, const std::uint8_t* data, std::size_t size, Payload& out) {
    if (tag >= kTableSize) return decode_unknown(data, size, out);
    kTable[tag].decode(data, size, out);
}

Payload decode_payload(std::uint16_t tag, const std::uint8_t* data, std::size_t size) {
    Payload out;
    decode_payload_into(tag, data, size, out);
    return out;
}

std::size_t known_payload_bytes(std::uint16_t tag, const std::uint8_t* data, std::size_t size) {
    return tag < kTableSize ? kTable[tag].known_bytes(data, size) : size;
}

bool is_known_tag(std::uint16_t tag) { return tag < kTableSize && !kTable[tag].name.empty(); }

std::string_view tag_name(std::uint16_t tag) { return tag < kTableSize ? kTable[tag].name : std::string_view{}; }

}  // namespace el2fx::eventlog
