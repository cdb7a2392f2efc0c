// FoldedChunk: a chunk of folded threads' samples comes out by (time, stack), each pair once
// with the weights of its samples summed, whatever order they came in (summed as they come or
// at the drain); it says when it is full and starts afresh after each drain.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "convert/folded_chunk.hpp"

using namespace el2fx::convert;
using el2fx::fxprof::StackHandle;

namespace {

using Key = std::pair<std::uint64_t, std::uint32_t>;  // (time, stack)

std::vector<std::pair<Key, std::uint64_t>> drained(FoldedChunk& chunk) {
    std::vector<std::pair<Key, std::uint64_t>> out;
    chunk.drain([&](const FoldedSample& s) { out.push_back({{s.time, s.stack.index()}, s.weight}); });
    return out;
}

// `samples` random samples over `times` distinct times (not in order) and `stacks` stacks,
// through the chunk and through a map: the same, in the map's order.
void check_random(std::uint32_t seed, std::size_t samples, std::uint64_t times, std::uint32_t stacks) {
    std::mt19937_64 random(seed);
    FoldedChunk chunk;
    std::map<Key, std::uint64_t> expected;
    for (std::size_t i = 0; i < samples; ++i) {
        const std::uint64_t time = 1'000'000 + (random() % times) * 1'000'000;
        const auto stack = static_cast<std::uint32_t>(random() % stacks);
        const std::uint64_t weight = 1 + random() % 3;
        expected[{time, stack}] += weight;
        BOOST_REQUIRE(!chunk.add({time, weight, StackHandle(stack)}));
    }
    const auto out = drained(chunk);
    BOOST_REQUIRE_EQUAL(out.size(), expected.size());
    auto it = expected.begin();
    for (std::size_t i = 0; i < out.size(); ++i, ++it) {
        BOOST_TEST_CONTEXT("seed " << seed << ", sample " << i) {
            BOOST_TEST(out[i].first.first == it->first.first);
            BOOST_TEST(out[i].first.second == it->first.second);
            BOOST_TEST(out[i].second == it->second);
        }
    }
    BOOST_TEST(chunk.empty());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(folded_chunk)

BOOST_AUTO_TEST_CASE(an_empty_chunk_drains_nothing) {
    FoldedChunk chunk;
    BOOST_TEST(chunk.empty());
    BOOST_TEST(drained(chunk).empty());
}

BOOST_AUTO_TEST_CASE(samples_of_one_time_and_stack_are_summed) {
    FoldedChunk chunk;
    chunk.add({20, 1, StackHandle(3)});
    chunk.add({10, 2, StackHandle(3)});
    chunk.add({20, 4, StackHandle(3)});
    chunk.add({20, 8, StackHandle(1)});
    BOOST_TEST(!chunk.empty());
    const auto out = drained(chunk);
    BOOST_REQUIRE_EQUAL(out.size(), 3u);
    BOOST_TEST((out[0] == std::pair<Key, std::uint64_t>{{10, 3}, 2}));
    BOOST_TEST((out[1] == std::pair<Key, std::uint64_t>{{20, 1}, 8}));
    BOOST_TEST((out[2] == std::pair<Key, std::uint64_t>{{20, 3}, 5}));
}

// Samples on few ticks with many stacks (named folded threads), on many times with few
// stacks, and every sample apart.
BOOST_AUTO_TEST_CASE(samples_come_out_by_time_then_stack) {
    check_random(1, 60'000, 40, 5'000);
    check_random(2, 60'000, 50'000, 3);
    check_random(3, 60'000, 1'000'000'000, 1'000'000);
    check_random(4, 60'000, 1, 100);
    check_random(5, 1, 1, 1);
}

// Named folded threads' pairs are nearly all new: more pairs than the chunk keeps at hand,
// each added again after all the others, still come out once each, summed.
BOOST_AUTO_TEST_CASE(a_pair_met_again_long_after_is_summed_at_the_drain) {
    FoldedChunk chunk;
    constexpr std::uint32_t kPairs = 20'000;
    for (int round = 0; round < 2; ++round)
        for (std::uint32_t i = 0; i < kPairs; ++i)
            BOOST_REQUIRE(!chunk.add({1'000 + i % 13, std::uint64_t{1} + round, StackHandle(i)}));
    const auto out = drained(chunk);
    BOOST_REQUIRE_EQUAL(out.size(), kPairs);
    for (std::size_t i = 0; i < out.size(); ++i) {
        BOOST_TEST(out[i].second == 3u);
        if (i > 0) BOOST_TEST((out[i - 1].first < out[i].first));
    }
}

BOOST_AUTO_TEST_CASE(a_chunk_is_full_after_its_samples_and_starts_afresh_after_a_drain) {
    FoldedChunk chunk;
    for (int round = 0; round < 2; ++round) {
        for (std::size_t i = 0; i + 1 < FoldedChunk::kSamples; ++i)
            BOOST_REQUIRE(!chunk.add({(FoldedChunk::kSamples - i) * 10, 1, StackHandle(static_cast<std::uint32_t>(i % 7))}));
        // Taken samples count, summed or not: the last is the earliest one's again.
        const auto last_stack = static_cast<std::uint32_t>((FoldedChunk::kSamples - 2) % 7);
        BOOST_TEST(chunk.add({20, 1, StackHandle(last_stack)}));
        const auto out = drained(chunk);
        BOOST_REQUIRE_EQUAL(out.size(), FoldedChunk::kSamples - 1);
        BOOST_TEST((out.front() == std::pair<Key, std::uint64_t>{{20, last_stack}, 2}));
        for (std::size_t i = 1; i < out.size(); ++i) BOOST_TEST((out[i - 1].first < out[i].first));
        BOOST_TEST(chunk.empty());
    }
}

BOOST_AUTO_TEST_SUITE_END()
