// RecyclingMemory: a freed block is handed out again for a request of its size class, blocks
// are aligned and do not overlap, and large or over-aligned requests go to the heap.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory_resource>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/recycling_memory.hpp"

using el2fx::util::RecyclingMemory;

BOOST_AUTO_TEST_SUITE(recycling_memory)

BOOST_AUTO_TEST_CASE(a_freed_block_is_handed_out_again_for_its_size_class) {
    RecyclingMemory m;
    void* a = m.allocate(40, 8);
    void* b = m.allocate(40, 8);
    BOOST_TEST(a != b);
    m.deallocate(a, 40, 8);
    BOOST_TEST(m.allocate(33, 8) == a);  // 33 and 40 bytes share the 48-byte class
    void* c = m.allocate(24, 8);         // another class: not a's block (taken) nor b's
    BOOST_TEST(c != a);
    BOOST_TEST(c != b);
    m.deallocate(c, 24, 8);
    BOOST_TEST(m.allocate(48, 16) != c);  // a 48-byte request never gets a 32-byte block
    BOOST_TEST(m.allocate(17, 1) == c);
}

BOOST_AUTO_TEST_CASE(blocks_are_aligned_and_never_overlap) {
    RecyclingMemory m;
    std::mt19937 rng(7);
    struct Held {
        unsigned char* p;
        std::size_t size;
        unsigned char fill;
    };
    std::vector<Held> held;
    for (int round = 0; round < 20000; ++round) {
        if (!held.empty() && rng() % 3 == 0) {  // free one, checking nobody wrote over it
            const std::size_t i = rng() % held.size();
            for (std::size_t k = 0; k < held[i].size; ++k) BOOST_TEST_REQUIRE(held[i].p[k] == held[i].fill);
            m.deallocate(held[i].p, held[i].size, alignof(std::max_align_t));
            held[i] = held.back();
            held.pop_back();
            continue;
        }
        const std::size_t size = 1 + rng() % 700;  // recycled sizes and heap ones
        auto* p = static_cast<unsigned char*>(m.allocate(size, alignof(std::max_align_t)));
        BOOST_TEST_REQUIRE(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t) == 0u);
        const auto fill = static_cast<unsigned char>(rng());
        std::memset(p, fill, size);
        held.push_back({p, size, fill});
    }
    for (const Held& h : held) {
        for (std::size_t k = 0; k < h.size; ++k) BOOST_TEST_REQUIRE(h.p[k] == h.fill);
        m.deallocate(h.p, h.size, alignof(std::max_align_t));
    }
}

BOOST_AUTO_TEST_CASE(over_aligned_requests_are_aligned) {
    RecyclingMemory m;
    void* p = m.allocate(64, 64);
    BOOST_TEST(reinterpret_cast<std::uintptr_t>(p) % 64 == 0u);
    m.deallocate(p, 64, 64);
}

// A map of many short-lived entries made and erased in turn: the memory of the first ones
// carries the later ones (the arenas stop growing).
BOOST_AUTO_TEST_CASE(a_map_of_short_lived_entries_reuses_its_nodes) {
    RecyclingMemory m;
    std::pmr::unordered_map<std::uint32_t, std::pmr::string> live(&m);
    std::map<std::uint32_t, std::string> want;
    for (std::uint32_t id = 1; id <= 100000; ++id) {
        live[id].assign("a thread of a long name, " + std::to_string(id));
        want[id] = "a thread of a long name, " + std::to_string(id);
        if (id > 100) {
            live.erase(id - 100);
            want.erase(id - 100);
        }
    }
    BOOST_TEST(live.size() == want.size());
    BOOST_TEST(m.arena_bytes() <= 2 * RecyclingMemory::kArenaBytes);  // 100 alive at once, not 100,000
    for (const auto& [id, name] : want) BOOST_TEST_REQUIRE(std::string_view(live.at(id)) == std::string_view(name));
}

BOOST_AUTO_TEST_SUITE_END()
