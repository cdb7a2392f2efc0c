#include "analysis/runtime/event_fields_text.hpp"

#include <tuple>
#include <type_traits>

#include "analysis/runtime/binary_preview.hpp"

namespace el2fx::runtime {
namespace {

using namespace eventlog;

constexpr std::size_t kMaxText = 200;

template <typename T>
void put_value(std::string& out, const T& v) {
    if constexpr (std::is_same_v<T, bool>) {
        out += v ? "true" : "false";
    } else if constexpr (std::is_integral_v<T>) {
        out += std::to_string(static_cast<std::uint64_t>(v));
    } else if constexpr (std::is_same_v<T, Text> || std::is_same_v<T, CString>) {
        out += '"';
        out += shortened_text(v.bytes, kMaxText);
        out += '"';
    } else if constexpr (std::is_same_v<T, Bytes>) {
        out += std::to_string(v.bytes.size()) + " bytes";
    } else if constexpr (std::is_same_v<T, StringList>) {
        out += '[';
        bool first = true;
        v.for_each([&](std::string_view s) {
            if (!first) out += ", ";
            first = false;
            out += '"';
            out += shortened_text(s, kMaxText);
            out += '"';
        });
        out += ']';
    } else if constexpr (std::is_same_v<T, CostCentreStack>) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            out += std::to_string(v[i]);
        }
        out += ']';
    } else {
        static_assert(sizeof(T) == 0, "a field type without a text form");
    }
}

template <typename T>
void put_field(std::string& out, std::string_view name, const T& v) {
    if (!out.empty()) out += ", ";
    out += name;
    out += '=';
    put_value(out, v);
}

template <typename T>
void put_field(std::string& out, std::string_view name, const std::optional<T>& v) {
    if (v) put_field(out, name, *v);
}

template <typename T>
void put_fields(std::string& out, const T& payload) {
    std::apply([&](auto... f) { (put_field(out, f.name, payload.*(f.member)), ...); }, T::fields());
}

template <typename... Ts>
std::string_view name_in(std::uint16_t tag, TypeList<Ts...>) {
    std::string_view name;
    ((Ts::tag == tag ? (name = Ts::name, true) : false) || ...);
    return name;
}

}  // namespace

std::string event_fields_text(const Payload& payload) {
    std::string out;
    std::visit(
        [&](const auto& p) {
            using T = std::remove_cvref_t<decltype(p)>;
            if constexpr (std::is_same_v<T, UnknownEvent>) {
                out = std::to_string(p.payload.bytes.size()) + " bytes";
            } else if constexpr (std::is_same_v<T, NonmovingHeapCensus>) {
                put_fields(out, p);
                if (p.blk_size_is_log2) out += " (blk_size as log2)";
            } else {
                put_fields(out, p);
            }
        },
        payload);
    return out;
}

std::string_view event_type_name(std::uint16_t tag) { return name_in(tag, AllPayloads{}); }

}  // namespace el2fx::runtime
