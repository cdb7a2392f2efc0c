// Turns one event's payload bytes into its typed struct, by tag.
#pragma once

#include <cstddef>
#include <cstdint>

#include "eventlog/byte_reader.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/field_io.hpp"

namespace el2fx::eventlog {

// Bytes are viewed, not copied: the payload is valid while `data` is.
// An unknown tag gives UnknownEvent; a payload too short for the known layout
// gives UnknownEvent with too_short set. Extra trailing bytes are ignored.
Payload decode_payload(std::uint16_t tag, const std::uint8_t* data, std::size_t size);
// The same through the table, for any tag (decode_payload_into's way for the rarer types).
void decode_payload_by_table(std::uint16_t tag, const std::uint8_t* data, std::size_t size, Payload& out);

// How the table decodes one type: field by field in wire order; a payload too short for them
// is an UnknownEvent with too_short set. A type of fixed-width fields is read without a check
// per field where the payload holds them all. Here so that the commonest types decode inline
// (decode_payload_into); two types with layouts of their own specialise it (payload_decoder.cpp).
inline void decode_too_short(const std::uint8_t* data, std::size_t size, Payload& payload) {
    payload.emplace<UnknownEvent>(UnknownEvent{Bytes{{reinterpret_cast<const char*>(data), size}}, true});
}
template <typename T>
void decode_payload_as(const std::uint8_t* data, std::size_t size, Payload& payload) {
    constexpr std::size_t fixed = field_io::fixed_payload_size<T>();
    if constexpr (fixed != field_io::kVariableSize && fixed > 0) {
        if (size >= fixed) return field_io::read_fields_unchecked(data, payload.emplace<T>());
    }
    ByteReader r(data, size);
    T& out = payload.emplace<T>();
    field_io::read_fields(r, out);
    if (!r.ok()) decode_too_short(data, size, payload);
}
template <>
void decode_payload_as<NonmovingHeapCensus>(const std::uint8_t* data, std::size_t size, Payload& payload);
template <>
void decode_payload_as<InternString>(const std::uint8_t* data, std::size_t size, Payload& payload);

// A payload decoded as T alone, by the same table, without a Payload to hold it (for a reader
// of a few types: run/block_census.hpp); false where it is too short for T's fields.
template <typename T>
bool decode_as(const std::uint8_t* data, std::size_t size, T& out) {
    constexpr std::size_t fixed = field_io::fixed_payload_size<T>();
    if constexpr (fixed != field_io::kVariableSize && fixed > 0) {
        if (size >= fixed) {
            field_io::read_fields_unchecked(data, out);
            return true;
        }
    }
    ByteReader r(data, size);
    field_io::read_fields(r, out);
    return r.ok();
}

// The same as decode_payload, into an existing payload (the decoder's hot path: no copy).
// Inline for the scheduler's events, most of any log: they skip the call through the table.
inline void decode_payload_into(std::uint16_t tag, const std::uint8_t* data, std::size_t size, Payload& out) {
    switch (tag) {
        case RunThread::tag: return decode_payload_as<RunThread>(data, size, out);
        case StopThread::tag: return decode_payload_as<StopThread>(data, size, out);
        case WakeupThread::tag: return decode_payload_as<WakeupThread>(data, size, out);
        case MigrateThread::tag: return decode_payload_as<MigrateThread>(data, size, out);
        default: return decode_payload_by_table(tag, data, size, out);
    }
}

// Payload bytes that the fields this table knows of the tag take: less than `size` where the
// payload has bytes after them (a field a newer GHC appends, or a runtime's size too large);
// kFieldsDoNotFit where they need more than `size`; kFieldsReadToEnd where the type has a field
// that takes every byte left (a text, raw bytes), or is unknown: its bytes cannot tell its length.
inline constexpr std::size_t kFieldsDoNotFit = ~std::size_t{0};
inline constexpr std::size_t kFieldsReadToEnd = ~std::size_t{0} - 1;
std::size_t known_payload_bytes(std::uint16_t tag, const std::uint8_t* data, std::size_t size);

// True when this table has a layout for the tag.
bool is_known_tag(std::uint16_t tag);

// The GHC name of a tag ("STOP_THREAD"), or empty when unknown.
std::string_view tag_name(std::uint16_t tag);

}  // namespace el2fx::eventlog
