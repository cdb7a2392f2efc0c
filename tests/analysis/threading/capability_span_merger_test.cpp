// CapabilitySpanMerger: per capability, its mutator spans and its idle spans are two streams,
// each through a marker-detail filter of its own (span_detail.hpp), GC spans none; what each
// keeps is handed on as it is kept, and finish() flushes capability by capability, mutators
// before idles. Checked against filters driven by hand over random spans on three
// capabilities, at resolutions that keep every span, some, and nearly none.
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>
#include <utility>
#include <vector>

#include "analysis/threading/capability_span_merger.hpp"

using namespace el2fx::analysis;
using el2fx::eventlog::CapNo;
using el2fx::eventlog::ThreadId;

namespace {

using Kept = std::pair<CapNo, KeptCapabilitySpan>;

// A filter's sink that writes what it keeps as the merger hands it on.
struct ExpectedSink {
    CapNo cap;
    CapabilityState state;
    std::vector<Kept>& out;
    void span(std::uint64_t start, std::uint64_t end, ThreadId thread) {
        out.push_back({cap, KeptCapabilitySpan{state, thread, MergedSpans{start, end, 0, 0, 0}}});
    }
    struct Idle {};
    void span(std::uint64_t start, std::uint64_t end, Idle) {
        out.push_back({cap, KeptCapabilitySpan{state, 0, MergedSpans{start, end, 0, 0, 0}}});
    }
    void merged(const MergedSpans& group) { out.push_back({cap, KeptCapabilitySpan{state, 0, group}}); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(capability_span_merger)

BOOST_AUTO_TEST_CASE(two_streams_per_capability_as_filters_by_hand) {
    for (const std::uint64_t resolution : {std::uint64_t{0}, std::uint64_t{400}, std::uint64_t{1'000'000}}) {
        BOOST_TEST_CONTEXT("resolution " << resolution) {
            const SpanDetail detail = span_detail_for(resolution);
            std::mt19937_64 rng(resolution + 7);
            struct ByHand {
                SpanDetailFilter<ThreadId> mutators;
                SpanDetailFilter<ExpectedSink::Idle> idles;
            };
            std::map<CapNo, ByHand> by_hand;
            std::vector<Kept> expected, got;
            CapabilitySpanMerger merger(detail);
            const auto out = [&](CapNo cap, const KeptCapabilitySpan& k) { got.push_back({cap, k}); };
            std::map<CapNo, std::uint64_t> clock;
            for (int i = 0; i < 3000; ++i) {
                const CapNo cap = static_cast<CapNo>(rng() % 3 == 0 ? 5 : rng() % 2);  // 0, 1 and 5
                const std::uint64_t start = clock[cap] + rng() % 50;
                const std::uint64_t length = rng() % 8 == 0 ? 600 + rng() % 2000 : rng() % 300;
                clock[cap] = start + length;
                const auto kind = rng() % 3;
                const CapabilityActivity activity = kind == 0   ? CapabilityActivity::idle()
                                                    : kind == 1 ? CapabilityActivity::gc()
                                                                : CapabilityActivity::mutator(1 + rng() % 4);
                merger.offer(cap, CapabilitySpan{start, start + length, activity}, out);
                auto it = by_hand.try_emplace(cap, ByHand{SpanDetailFilter<ThreadId>(detail),
                                                          SpanDetailFilter<ExpectedSink::Idle>(detail)})
                              .first;
                if (activity.state == CapabilityState::mutator) {
                    ExpectedSink sink{cap, CapabilityState::mutator, expected};
                    it->second.mutators.offer(start, start + length, activity.thread, sink);
                } else if (activity.state == CapabilityState::idle) {
                    ExpectedSink sink{cap, CapabilityState::idle, expected};
                    it->second.idles.offer(start, start + length, ExpectedSink::Idle{}, sink);
                }
            }
            merger.finish(out);
            for (auto& [cap, hand] : by_hand) {  // ascending capability: mutators, then idles
                ExpectedSink mutators{cap, CapabilityState::mutator, expected};
                hand.mutators.finish(mutators);
                ExpectedSink idles{cap, CapabilityState::idle, expected};
                hand.idles.finish(idles);
            }
            BOOST_TEST(got.size() == expected.size());
            BOOST_TEST((got == expected));
            std::size_t merged = 0;
            for (const Kept& k : got) merged += !k.second.kept_as_is();
            if (resolution == 0) BOOST_TEST(merged == 0u);
            if (resolution > 0) BOOST_TEST(merged > 0u);
            if (resolution == 1'000'000) BOOST_TEST(got.size() < 100u);  // millions of spans would be a few markers
        }
    }
}

BOOST_AUTO_TEST_CASE(gc_spans_are_not_its_streams) {
    CapabilitySpanMerger merger(span_detail_for(0));
    std::vector<Kept> got;
    const auto out = [&](CapNo cap, const KeptCapabilitySpan& k) { got.push_back({cap, k}); };
    merger.offer(2, CapabilitySpan{10, 20, CapabilityActivity::gc()}, out);
    merger.finish(out);
    BOOST_TEST(got.empty());
    merger.offer(2, CapabilitySpan{30, 40, CapabilityActivity::mutator(9)}, out);
    BOOST_REQUIRE(got.size() == 1u);
    BOOST_TEST((got[0].second == KeptCapabilitySpan{CapabilityState::mutator, 9, MergedSpans{30, 40, 0, 0, 0}}));
}

BOOST_AUTO_TEST_SUITE_END()
