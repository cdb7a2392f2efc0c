// Hand-built ghc-stack-profiler messages (WIRE-FORMAT.md): big-endian, as each release writes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace el2fx::testing::stack_messages {

inline void put(std::string& out, std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

struct RawEntry {
    std::uint8_t kind;
    std::uint64_t a, b = 0;
};

// 0.3+: 03 is 17 bytes; 0.1–0.2 (`v0_1`): 03 is a 9-byte source-location id.
inline std::string stack(bool final, std::uint32_t cap, std::uint32_t thread, const std::vector<RawEntry>& entries,
                         bool v0_1 = false) {
    std::string m;
    put(m, final ? 0xFFCA : 0xFFCB, 2);
    put(m, cap, 4);
    put(m, thread, 4);
    put(m, entries.size(), 2);
    for (const RawEntry& e : entries) {
        put(m, e.kind, 1);
        put(m, e.a, 8);
        if (e.kind == 3 && !v0_1) put(m, e.b, 8);
    }
    return m;
}

inline std::vector<RawEntry> ipes(std::initializer_list<std::uint64_t> addresses) {
    std::vector<RawEntry> out;
    for (std::uint64_t a : addresses) out.push_back({1, a});
    return out;
}

inline std::string string_def(std::uint64_t id, std::uint16_t chars, const std::string& utf8) {
    std::string m;
    put(m, 0xFFCC, 2);
    put(m, id, 8);
    put(m, chars, 2);
    return m + utf8;
}

inline std::string location_def(std::uint64_t id, std::uint32_t line, std::uint32_t column, std::uint64_t file) {
    std::string m;
    put(m, 0xFFCD, 2);
    put(m, id, 8);
    put(m, line, 4);
    put(m, column, 4);
    put(m, file, 8);
    return m;
}

// 0.1–0.2: with the function's string id before the file's.
inline std::string location_def_v0_1(std::uint64_t id, std::uint32_t line, std::uint32_t column,
                                     std::uint64_t function, std::uint64_t file) {
    std::string m;
    put(m, 0xFFCD, 2);
    put(m, id, 8);
    put(m, line, 4);
    put(m, column, 4);
    put(m, function, 8);
    put(m, file, 8);
    return m;
}

}  // namespace el2fx::testing::stack_messages
