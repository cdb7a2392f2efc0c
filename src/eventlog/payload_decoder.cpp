#include "eventlog/payload_decoder.hpp"

#include <array>

#include "eventlog/byte_reader.hpp"
#include "eventlog/field_io.hpp"

namespace el2fx::eventlog {
namespace {

using DecodeFn = Payload (*)(const std::uint8_t*, std::size_t);

template <typename T>
Payload decode_as(const std::uint8_t* data, std::size_t size) {
    ByteReader r(data, size);
    T out{};
    field_io::read_fields(r, out);
    if (!r.ok()) return UnknownEvent{Bytes{{reinterpret_cast<const char*>(data), size}}, true};
    return out;
}

// The census's first field changed width in GHC 9.10 (13 → 14 bytes).
template <>
Payload decode_as<NonmovingHeapCensus>(const std::uint8_t* data, std::size_t size) {
    ByteReader r(data, size);
    NonmovingHeapCensus out{};
    if (size >= 14) {
        out.blk_size = r.u16();
    } else {
        out.blk_size = r.u8();
        out.blk_size_is_log2 = true;
    }
    out.active_segs = r.u32();
    out.filled_segs = r.u32();
    out.live_blocks = r.u32();
    if (!r.ok()) return UnknownEvent{Bytes{{reinterpret_cast<const char*>(data), size}}, true};
    return out;
}

// The string has no terminator: it is every byte but the id in the last 4.
template <>
Payload decode_as<InternString>(const std::uint8_t* data, std::size_t size) {
    if (size < 4) return UnknownEvent{Bytes{{reinterpret_cast<const char*>(data), size}}, true};
    InternString out{};
    out.string.bytes = {reinterpret_cast<const char*>(data), size - 4};
    out.id = load_be32(data + size - 4);
    return out;
}

Payload decode_unknown(const std::uint8_t* data, std::size_t size) {
    return UnknownEvent{Bytes{{reinterpret_cast<const char*>(data), size}}, false};
}

constexpr std::size_t kTableSize = 256;  // every tag GHC, Eden and Mercury use is below 256

struct Row {
    DecodeFn decode = &decode_unknown;
    std::string_view name;
};

template <typename... Ts>
constexpr std::array<Row, kTableSize> make_table(TypeList<Ts...>) {
    std::array<Row, kTableSize> table{};
    ((table[Ts::tag] = Row{&decode_as<Ts>, Ts::name}), ...);
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

Payload decode_payload(std::uint16_t tag, const std::uint8_t* data, std::size_t size) {
    if (tag >= kTableSize) return decode_unknown(data, size);
    return kTable[tag].decode(data, size);
}

bool is_known_tag(std::uint16_t tag) { return tag < kTableSize && !kTable[tag].name.empty(); }

std::string_view tag_name(std::uint16_t tag) { return tag < kTableSize ? kTable[tag].name : std::string_view{}; }

}  // namespace el2fx::eventlog
