// Reading and writing one field of a payload struct, by field type. The decoder
// (payload_decoder.cpp) and the test encoder (event_encoder.hpp) are the two
// users; both walk a struct's `fields()` list in wire order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>

#include "eventlog/byte_reader.hpp"
#include "eventlog/field_types.hpp"

namespace el2fx::eventlog::field_io {

inline void read(ByteReader& r, std::uint8_t& v) { v = r.u8(); }
inline void read(ByteReader& r, std::uint16_t& v) { v = r.u16(); }
inline void read(ByteReader& r, std::uint32_t& v) { v = r.u32(); }
inline void read(ByteReader& r, std::uint64_t& v) { v = r.u64(); }
inline void read(ByteReader& r, bool& v) { v = r.u8() != 0; }
inline void read(ByteReader& r, Text& v) { v.bytes = r.rest(); }
inline void read(ByteReader& r, Bytes& v) { v.bytes = r.rest(); }
inline void read(ByteReader& r, StringList& v) { v.bytes = r.rest(); }
inline void read(ByteReader& r, CString& v) { v.bytes = r.cstring(); }
template <typename Count>
void read(ByteReader& r, U32Array<Count>& v) {
    Count n{};
    read(r, n);
    v.bytes = r.bytes(4 * static_cast<std::size_t>(n));
}
// A trailing field of newer GHCs: present only when bytes remain for it.
template <typename T>
void read(ByteReader& r, std::optional<T>& v) {
    if constexpr (std::is_integral_v<T>) {
        if (r.remaining() < sizeof(T)) return;
    } else {
        if (r.remaining() == 0) return;
    }
    T value{};
    read(r, value);
    if (r.ok()) v = value;
}

template <typename T>
void read_fields(ByteReader& r, T& out) {
    std::apply([&](auto... f) { (read(r, out.*(f.member)), ...); }, T::fields());
}

// ---- writing (big-endian), for building eventlogs in tests and fuzz seeds ----

template <typename Int>
void put_int(std::string& out, Int v) {
    for (int shift = 8 * (static_cast<int>(sizeof(Int)) - 1); shift >= 0; shift -= 8)
        out.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> shift) & 0xFF));
}

inline void write(std::string& out, std::uint8_t v) { put_int(out, v); }
inline void write(std::string& out, std::uint16_t v) { put_int(out, v); }
inline void write(std::string& out, std::uint32_t v) { put_int(out, v); }
inline void write(std::string& out, std::uint64_t v) { put_int(out, v); }
inline void write(std::string& out, bool v) { put_int(out, static_cast<std::uint8_t>(v)); }
inline void write(std::string& out, const Text& v) { out.append(v.bytes); }
inline void write(std::string& out, const Bytes& v) { out.append(v.bytes); }
inline void write(std::string& out, const StringList& v) { out.append(v.bytes); }
inline void write(std::string& out, const CString& v) {
    out.append(v.bytes);
    out.push_back('\0');
}
template <typename Count>
void write(std::string& out, const U32Array<Count>& v) {
    put_int(out, static_cast<Count>(v.size()));
    out.append(v.bytes);
}
template <typename T>
void write(std::string& out, const std::optional<T>& v) {
    if (v) write(out, *v);
}

template <typename T>
void write_fields(std::string& out, const T& in) {
    std::apply([&](auto... f) { (write(out, in.*(f.member)), ...); }, T::fields());
}

}  // namespace el2fx::eventlog::field_io

namespace el2fx::eventlog::field_io {

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};

// Bytes a field takes when its width is fixed; 0 for variable-width fields.
template <typename T>
constexpr std::size_t fixed_width() {
    if constexpr (std::is_integral_v<T>)
        return sizeof(T);
    else if constexpr (is_optional<T>::value)
        return fixed_width<typename T::value_type>();
    else
        return 0;
}

inline constexpr std::size_t kVariableSize = static_cast<std::size_t>(-1);

// The payload size a fixed-size event type has in the newest layout this table
// knows (0 for a type without fields), or kVariableSize for a variable-size type
// (one with strings or lists).
template <typename T>
constexpr std::size_t fixed_payload_size() {
    return std::apply(
        [](auto... f) -> std::size_t {
            constexpr bool variable =
                ((fixed_width<std::remove_cvref_t<decltype(std::declval<T&>().*(f.member))>>() == 0) || ... || false);
            if constexpr (variable)
                return kVariableSize;
            else
                return (std::size_t{0} + ... +
                        fixed_width<std::remove_cvref_t<decltype(std::declval<T&>().*(f.member))>>());
        },
        T::fields());
}

// Reading a type whose fields all have a fixed width from a payload of at least
// fixed_payload_size<T>() bytes: no field can run out of bytes, so none is checked. The same
// values as read_fields (a trailing optional field present), for the events that fill a log.
inline void read_unchecked(const std::uint8_t*& p, std::uint8_t& v) { v = *p++; }
inline void read_unchecked(const std::uint8_t*& p, bool& v) { v = *p++ != 0; }
inline void read_unchecked(const std::uint8_t*& p, std::uint16_t& v) {
    v = load_be16(p);
    p += 2;
}
inline void read_unchecked(const std::uint8_t*& p, std::uint32_t& v) {
    v = load_be32(p);
    p += 4;
}
inline void read_unchecked(const std::uint8_t*& p, std::uint64_t& v) {
    v = load_be64(p);
    p += 8;
}
template <typename T>
void read_unchecked(const std::uint8_t*& p, std::optional<T>& v) {
    T value{};
    read_unchecked(p, value);
    v = value;
}
template <typename T>
void read_fields_unchecked(const std::uint8_t* p, T& out) {
    std::apply([&](auto... f) { (read_unchecked(p, out.*(f.member)), ...); }, T::fields());
}

}  // namespace el2fx::eventlog::field_io
