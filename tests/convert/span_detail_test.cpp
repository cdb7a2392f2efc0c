// SpanDetailFilter: one test per transition of span_detail.hpp, the bound it promises, and the
// default resolution.
#include <boost/test/unit_test.hpp>

#include <random>
#include <string>
#include <vector>

#include "convert/span_detail.hpp"

using namespace el2fx::convert;

namespace {

// Records what the filter emits, in order.
struct Recorder {
    struct Out {
        bool merged = false;
        std::uint64_t start = 0, end = 0;
        int payload = -1;  // the kept span's payload
        MergedSpans group{};
        bool operator==(const Out&) const = default;
    };
    std::vector<Out> out;
    void span(std::uint64_t start, std::uint64_t end, const int& payload) {
        out.push_back({false, start, end, payload, {}});
    }
    void merged(const MergedSpans& m) { out.push_back({true, m.start, m.end, -1, m}); }
};

Recorder::Out kept(std::uint64_t start, std::uint64_t end, int payload) { return {false, start, end, payload, {}}; }
Recorder::Out group(std::uint64_t start, std::uint64_t end, std::uint64_t count, std::uint64_t total,
                    std::uint64_t longest) {
    return {true, start, end, -1, MergedSpans{start, end, count, total, longest}};
}

constexpr SpanDetail kDetail{.resolution = 100, .window = 1000};

}  // namespace

BOOST_AUTO_TEST_SUITE(span_detail)

// A tally sees every span of a merged group, and is reset for the next group.
BOOST_AUTO_TEST_CASE(a_tally_sees_each_group_and_starts_afresh) {
    struct Sum {
        int total = 0;
        void add(const int& payload, std::uint64_t) { total += payload; }
        void reset() { total = 0; }
    };
    struct Sink {
        std::vector<int> sums;
        void span(std::uint64_t, std::uint64_t, const int&) {}
        void merged(const MergedSpans&, const Sum& s) { sums.push_back(s.total); }
    } sink;
    SpanDetailFilter<int, Sum> f(kDetail);
    f.offer(0, 10, 1, sink);
    f.offer(20, 30, 2, sink);
    f.offer(40, 500, 100, sink);  // long: flushes the group of two
    f.offer(600, 610, 4, sink);
    f.offer(620, 630, 8, sink);
    f.finish(sink);
    BOOST_TEST((sink.sums == std::vector<int>{3, 12}));
}

BOOST_AUTO_TEST_CASE(resolution_zero_keeps_every_span) {
    SpanDetailFilter<int> f({0, 0});
    Recorder r;
    f.offer(0, 1, 1, r);
    f.offer(1, 1, 2, r);
    f.offer(5, 9, 3, r);
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{kept(0, 1, 1), kept(1, 1, 2), kept(5, 9, 3)}));
}

BOOST_AUTO_TEST_CASE(long_span_with_no_group_is_kept_at_once) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    f.offer(0, 100, 7, r);  // exactly the resolution counts as long
    BOOST_TEST((r.out == std::vector<Recorder::Out>{kept(0, 100, 7)}));
}

BOOST_AUTO_TEST_CASE(short_span_waits_and_a_group_of_one_is_kept_as_itself) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    f.offer(10, 109, 4, r);  // 99 < 100: short
    BOOST_TEST(r.out.empty());
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{kept(10, 109, 4)}));
}

BOOST_AUTO_TEST_CASE(short_spans_within_the_window_merge) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    f.offer(0, 10, 1, r);
    f.offer(20, 50, 2, r);
    f.offer(60, 61, 3, r);
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{group(0, 61, 3, 41, 30)}));
}

BOOST_AUTO_TEST_CASE(long_span_flushes_the_pending_group_first) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    f.offer(0, 10, 1, r);
    f.offer(20, 30, 2, r);
    f.offer(40, 500, 3, r);
    f.offer(500, 510, 4, r);  // a group of one after the long span
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{group(0, 30, 2, 20, 10), kept(40, 500, 3), kept(500, 510, 4)}));
}

BOOST_AUTO_TEST_CASE(short_span_past_the_window_starts_a_new_group) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    f.offer(0, 10, 1, r);
    f.offer(990, 1000, 2, r);   // ends exactly one window after the group's start: fits
    f.offer(1000, 1001, 3, r);  // would make the group 1001 long: new group
    f.offer(1500, 1510, 4, r);
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{group(0, 1000, 2, 20, 10), group(1000, 1510, 2, 11, 10)}));
}

BOOST_AUTO_TEST_CASE(instants_are_spans_of_length_zero) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    f.offer(5, 5, 1, r);
    f.offer(6, 6, 2, r);
    f.offer(2000, 2000, 3, r);
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{group(5, 6, 2, 0, 0), kept(2000, 2000, 3)}));
}

BOOST_AUTO_TEST_CASE(finish_without_spans_emits_nothing_and_an_inverted_span_is_empty) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    f.finish(r);
    BOOST_TEST(r.out.empty());
    f.offer(50, 40, 9, r);  // end before start: treated as an instant at its start
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{kept(50, 50, 9)}));
}

// Whatever the spans, the markers stay within 2·D/resolution + D/window + 1 and the merged
// counts and durations account for every span.
BOOST_AUTO_TEST_CASE(markers_are_bounded_and_account_for_every_span) {
    std::mt19937_64 rng(42);
    for (int round = 0; round < 20; ++round) {
        SpanDetailFilter<int> f(kDetail);
        Recorder r;
        std::uint64_t t = 0, spans = 0, total = 0;
        for (int i = 0; i < 5000; ++i) {
            std::uint64_t gap = rng() % 50, length = rng() % (round % 2 ? 120 : 30);
            t += gap;
            f.offer(t, t + length, i, r);
            ++spans;
            total += length;
            t += length;
        }
        f.finish(r);
        const std::uint64_t duration = t;
        BOOST_TEST(r.out.size() <= 2 * duration / kDetail.resolution + duration / kDetail.window + 1);
        std::uint64_t counted = 0, timed = 0, previous_end = 0;
        for (const auto& o : r.out) {
            BOOST_TEST(o.start >= previous_end);  // in order, never overlapping
            previous_end = o.end;
            counted += o.merged ? o.group.count : 1;
            timed += o.merged ? o.group.total : o.end - o.start;
            if (o.merged) BOOST_TEST(o.end - o.start <= kDetail.window);
        }
        BOOST_TEST(counted == spans);
        BOOST_TEST(timed == total);
    }
}

// join_if_fits() then offer() when it declines is offer(): the same markers, in and out of
// order, whatever the resolution (0 included); it takes a span only into a pending group,
// so it never emits one.
BOOST_AUTO_TEST_CASE(join_if_fits_then_offer_is_offer) {
    std::mt19937_64 rng(7);
    for (const SpanDetail detail : {kDetail, SpanDetail{0, 0}, SpanDetail{100, 50}}) {
        SpanDetailFilter<int> whole(detail), split(detail);
        Recorder a, b;
        std::uint64_t t = 1000;
        for (int i = 0; i < 5000; ++i) {
            const std::uint64_t start = t - rng() % 20, length = rng() % 130;  // now and then before the last start
            t += rng() % 60;
            whole.offer(start, start + length, i, a);
            const std::size_t before = b.out.size();
            if (split.join_if_fits(start, start + length, i)) {
                BOOST_TEST(b.out.size() == before);
            } else {
                split.offer(start, start + length, i, b);
            }
            BOOST_TEST_REQUIRE((a.out == b.out));
        }
        whole.finish(a);
        split.finish(b);
        BOOST_TEST((a.out == b.out));
    }
}

// Declining, join_if_fits() leaves the filter as it was: a long span, no pending group, or a
// group the span does not fit.
BOOST_AUTO_TEST_CASE(join_if_fits_declines_what_offer_would_emit_or_start) {
    SpanDetailFilter<int> f(kDetail);
    Recorder r;
    BOOST_TEST(!f.join_if_fits(0, 10, 1));  // no pending group
    f.offer(0, 10, 1, r);
    BOOST_TEST(!f.join_if_fits(20, 120, 2));    // long
    BOOST_TEST(!f.join_if_fits(995, 1001, 3));  // past the window
    BOOST_TEST(f.join_if_fits(20, 30, 4));      // fits
    f.finish(r);
    BOOST_TEST((r.out == std::vector<Recorder::Out>{group(0, 30, 2, 20, 10)}));
}

BOOST_AUTO_TEST_CASE(default_resolution_is_the_interval_unless_the_log_is_long) {
    BOOST_TEST(default_span_detail(10'000'000'000, 1'000'000).resolution == 1'000'000u);  // 10 s
    BOOST_TEST(default_span_detail(10'000'000'000, 1'000'000).window == 10'000'000u);
    // 20 minutes: at most kMaxStreamMarkers resolutions.
    SpanDetail d = default_span_detail(1'200'000'000'000, 1'000'000);
    BOOST_TEST(d.resolution == 1'200'000'000'000 / kMaxStreamMarkers);
    BOOST_TEST(span_detail_for(0).resolution == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
