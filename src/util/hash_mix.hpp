// Hash mixing for the keys of hash tables: the profile's interning tables, the analyses' sums.
#pragma once

#include <cstddef>
#include <cstdint>

namespace el2fx::util {

// A 64-bit finaliser (splitmix64) over an accumulated value.
constexpr std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

constexpr std::uint64_t hash_combine(std::uint64_t seed, std::uint64_t v) {
    return mix64(seed ^ (v + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2)));
}

}  // namespace el2fx::util
