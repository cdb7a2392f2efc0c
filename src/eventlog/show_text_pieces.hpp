// The pieces `ghc-events show` text is made of (show_text.cpp): numbers, hex, Haskell-escaped
// strings and lists, binary payloads, cost-centre stacks, and the words for codes (stop status,
// capset type, heap breakdown, Eden message tags). Every piece is appended straight to the
// output string: no temporaries. Internal to show_text.cpp.
#pragma once

#include <charconv>
#include <concepts>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>

#include "eventlog/event_types.hpp"
#include "util/utf8.hpp"

namespace el2fx::eventlog::show_text_detail {

// ---- Rendering primitives ------------------------------------------------------
// Every piece is appended straight to the output string: no temporaries.

struct Hex {  // lowercase, unpadded, no prefix
    std::uint64_t value;
};
struct Signed {
    std::int64_t value;
};
struct Utf8Text {  // shown as written, ill-formed bytes as U+FFFD
    std::string_view bytes;
};
struct Latin1Text {  // each byte is the code point of the same value
    std::string_view bytes;
};

inline void put(std::string& out, std::string_view s) { out.append(s); }
inline void put(std::string& out, char c) { out.push_back(c); }

template <std::unsigned_integral T>
inline void put(std::string& out, T v) {
    char buf[20];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

inline void put(std::string& out, Signed v) {
    char buf[20];
    auto r = std::to_chars(buf, buf + sizeof buf, v.value);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

inline void put(std::string& out, Hex v) {
    char buf[16];
    auto r = std::to_chars(buf, buf + sizeof buf, v.value, 16);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

inline void put(std::string& out, Utf8Text t) { utf8::append_sanitized(out, t.bytes); }
inline void put(std::string& out, Latin1Text t) { utf8::append_latin1(out, t.bytes); }

template <typename... Parts>
inline void put_all(std::string& out, const Parts&... parts) {
    (put(out, parts), ...);
}

Utf8Text text(const Text& t) { return {t.bytes}; }
Utf8Text text(const CString& t) { return {t.bytes}; }

// Haskell's `show` of a String, quotes included (GHC.Show.showLitString): `"` and
// `\` escaped, printable ASCII as is, controls by name, anything above U+007F as a
// decimal escape. `\&` separates an escape from a following character that would
// otherwise extend it: a digit after a numeric escape, an `H` after `\SO`.
inline void put_haskell_string(std::string& out, std::string_view bytes) {
    static constexpr std::string_view kControlNames[32] = {
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "a",   "b",   "t",  "n",   "v",   "f",  "r",  "SO", "SI",
        "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"};
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    auto* const end = p + bytes.size();
    out.push_back('"');
    while (p < end) {
        const utf8::Step s = utf8::decode(p, end);
        const char32_t c = s.valid ? s.code_point : utf8::kReplacement;
        p += s.length;
        const int next = p < end ? *p : -1;  // the next character, as far as the checks below need it
        if (c >= 0x80) {
            out.push_back('\\');
            put(out, static_cast<std::uint32_t>(c));
            if (next >= '0' && next <= '9') out.append("\\&");
        } else if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(static_cast<char>(c));
        } else if (c >= 0x20 && c < 0x7F) {
            out.push_back(static_cast<char>(c));
        } else if (c == 0x7F) {
            out.append("\\DEL");
        } else {
            out.push_back('\\');
            out.append(kControlNames[c]);
            if (c == 0x0E && next == 'H') out.append("\\&");
        }
    }
    out.push_back('"');
}

// PROGRAM_ARGS and PROGRAM_ENV as ghc-events shows its [Text]: trailing NULs are
// dropped, the rest is split at each NUL (an empty body is one empty string).
inline void put_haskell_string_list(std::string& out, std::string_view bytes) {
    while (!bytes.empty() && bytes.back() == '\0') bytes.remove_suffix(1);
    out.push_back('[');
    for (;;) {
        std::size_t nul = bytes.find('\0');
        put_haskell_string(out, bytes.substr(0, nul));
        if (nul == std::string_view::npos) break;
        out.push_back(',');
        bytes.remove_prefix(nul + 1);
    }
    out.push_back(']');
}

// USER_BINARY_MSG: decoded leniently byte by byte (a well-formed sequence is its
// character; any other byte is one '.'), then every character that is not
// printable (Haskell's isPrint) becomes '.' too.
inline void put_binary(std::string& out, std::string_view bytes) {
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    auto* const end = p + bytes.size();
    while (p < end) {
        if (*p >= 0x20 && *p < 0x7F) {
            out.push_back(static_cast<char>(*p++));
            continue;
        }
        const utf8::Step s = utf8::decode(p, end);
        if (s.valid && utf8::is_printable(s.code_point)) {
            out.append(reinterpret_cast<const char*>(p), s.length);
            p += s.length;
        } else {
            out.push_back('.');
            p += s.valid ? s.length : 1;
        }
    }
}

inline void put_stack(std::string& out, const CostCentreStack& stack) {
    for (std::size_t i = 0; i < stack.size(); ++i) {
        if (i > 0) out.append(", ");
        put(out, stack[i]);
    }
}

inline std::string_view stop_status_text(std::uint16_t status) {
    switch (status) {
        case 0: return "No stop thread status";
        case 1: return "heap overflow";
        case 2: return "stack overflow, size ";
        case 3: return "thread yielding";
        case 5: return "thread finished";
        case 6: return "making a foreign call";
        case 7: return "blocked on an MVar";
        case 8: return "blocked on black hole owned by thread ";
        case 9: return "blocked on I/O read";
        case 10: return "blocked on I/O write";
        case 11: return "blocked on threadDelay";
        case 12: return "blocked in STM retry";
        case 13: return "blocked on asyncDoProc";
        case 18: return "blocked in throwTo";
        case 19: return "No stop thread status";
        case 20: return "blocked reading an MVar";
        default: return {};  // ghc-events 0.21 fails on these (4, 14-17, 21 and up)
    }
}

inline std::string_view capset_type_text(std::uint16_t type) {
    switch (type) {
        case 1: return "CapsetCustom";
        case 2: return "CapsetOsProcess";
        case 3: return "CapsetClockDomain";
        default: return "CapsetUnknown";
    }
}

inline std::string_view heap_breakdown_text(std::uint32_t breakdown) {
    // Codes 1-9: -hc -hm -hd -hy -hr -hb -hT -hi -he.
    static constexpr std::string_view kNames[] = {"cost centre",      "module",     "closure description",
                                                  "type description", "retainer",   "biography",
                                                  "closure type",     "info table", "era"};
    return breakdown >= 1 && breakdown <= std::size(kNames) ? kNames[breakdown - 1] : std::string_view{};
}

inline void put_eden_message_tag(std::string& out, std::uint8_t tag) {
    // Eden's message tags are 0x50 and up, in this order.
    static constexpr std::string_view kNames[] = {"Ready", "NewPE",     "PETIDS",  "Finish", "FailPE",
                                                  "RFork", "Connect",   "DataMes", "Head",   "Constr",
                                                  "Part",  "Terminate", "Packet"};
    const auto index = static_cast<std::uint8_t>(tag - 0x50);
    if (index < std::size(kNames)) {
        out.append(kNames[index]);
    } else {
        put_all(out, "unknown 0x", Hex{tag});  // ghc-events 0.21 fails here
    }
}

}  // namespace el2fx::eventlog::show_text_detail
