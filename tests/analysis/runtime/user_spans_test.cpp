// The START/STOP pairer, one transition per test.
#include <boost/test/unit_test.hpp>

#include "analysis/runtime/user_spans.hpp"

using namespace el2fx::runtime;

namespace {

constexpr SpanConvention kSS = SpanConvention::start_stop;
constexpr SpanConvention kGhc = SpanConvention::ghc_timing;

}  // namespace

BOOST_AUTO_TEST_SUITE(user_span_messages)

BOOST_AUTO_TEST_CASE(start_and_stop_name_the_rest_of_the_text) {
    auto s = parse_span_message("START phase one");
    BOOST_REQUIRE(s);
    BOOST_TEST((s->edge == SpanEdge::open));
    BOOST_TEST((s->convention == kSS));
    BOOST_TEST(s->name == "phase one");
    auto e = parse_span_message("STOP phase one");
    BOOST_REQUIRE(e);
    BOOST_TEST((e->edge == SpanEdge::close));
    BOOST_TEST(e->name == "phase one");
}

BOOST_AUTO_TEST_CASE(ghc_timing_messages_are_the_other_convention) {
    auto s = parse_span_message("GHC:started: Parser [Main]");
    BOOST_REQUIRE(s);
    BOOST_TEST((s->edge == SpanEdge::open));
    BOOST_TEST((s->convention == kGhc));
    BOOST_TEST(s->name == "Parser [Main]");
    auto e = parse_span_message("GHC:finished: Parser [Main]");
    BOOST_REQUIRE(e);
    BOOST_TEST((e->edge == SpanEdge::close));
    BOOST_TEST((e->convention == kGhc));
}

BOOST_AUTO_TEST_CASE(other_messages_are_not_span_edges) {
    BOOST_TEST(!parse_span_message("hello"));
    BOOST_TEST(!parse_span_message("START"));
    BOOST_TEST(!parse_span_message("START "));  // no name
    BOOST_TEST(!parse_span_message("STARTx"));
    BOOST_TEST(!parse_span_message("start x"));
    BOOST_TEST(!parse_span_message(" START x"));
    BOOST_TEST(!parse_span_message("GHC:started:x"));
    BOOST_TEST(!parse_span_message(""));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(user_span_pairer)

BOOST_AUTO_TEST_CASE(open_then_close_is_a_span) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "x");
    BOOST_TEST(p.open_count() == 1u);
    p.close(1, 25, kSS, "x");
    BOOST_REQUIRE(p.spans().size() == 1u);
    BOOST_TEST(p.spans()[0].name == "x");
    BOOST_TEST(p.spans()[0].owner == 1u);
    BOOST_TEST(p.spans()[0].start == 10u);
    BOOST_TEST(p.spans()[0].end == 25u);
    BOOST_TEST(p.spans()[0].depth == 0u);
    BOOST_TEST(p.open_count() == 0u);
    BOOST_TEST(p.unmatched().empty());
}

BOOST_AUTO_TEST_CASE(nested_spans_close_inner_first_with_their_depth) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "outer");
    p.open(1, 20, kSS, "inner");
    p.close(1, 30, kSS, "inner");
    p.close(1, 40, kSS, "outer");
    BOOST_REQUIRE(p.spans().size() == 2u);
    BOOST_TEST(p.spans()[0].name == "inner");
    BOOST_TEST(p.spans()[0].depth == 1u);
    BOOST_TEST(p.spans()[1].name == "outer");
    BOOST_TEST(p.spans()[1].start == 10u);
    BOOST_TEST(p.spans()[1].end == 40u);
}

BOOST_AUTO_TEST_CASE(overlapping_spans_on_one_owner_pair_by_name) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "a");
    p.open(1, 20, kSS, "b");
    p.close(1, 30, kSS, "a");  // b is still open: spans overlap, they need not nest
    p.close(1, 40, kSS, "b");
    BOOST_REQUIRE(p.spans().size() == 2u);
    BOOST_TEST(p.spans()[0].name == "a");
    BOOST_TEST(p.spans()[0].end == 30u);
    BOOST_TEST(p.spans()[1].name == "b");
    BOOST_TEST(p.spans()[1].start == 20u);
    BOOST_TEST(p.unmatched().empty());
}

BOOST_AUTO_TEST_CASE(a_close_ends_the_latest_open_of_that_name) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "x");
    p.open(1, 20, kSS, "x");
    p.close(1, 30, kSS, "x");
    BOOST_REQUIRE(p.spans().size() == 1u);
    BOOST_TEST(p.spans()[0].start == 20u);
    p.close(1, 40, kSS, "x");
    BOOST_REQUIRE(p.spans().size() == 2u);
    BOOST_TEST(p.spans()[1].start == 10u);
    BOOST_TEST(p.spans()[1].end == 40u);
}

BOOST_AUTO_TEST_CASE(owners_pair_separately_even_with_the_same_name) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "shared");
    p.open(2, 15, kSS, "shared");
    p.close(1, 20, kSS, "shared");
    BOOST_REQUIRE(p.spans().size() == 1u);
    BOOST_TEST(p.spans()[0].owner == 1u);
    BOOST_TEST(p.spans()[0].start == 10u);
    BOOST_TEST(p.open_count() == 1u);
    p.close(2, 30, kSS, "shared");
    BOOST_REQUIRE(p.spans().size() == 2u);
    BOOST_TEST(p.spans()[1].owner == 2u);
    BOOST_TEST(p.spans()[1].start == 15u);
}

BOOST_AUTO_TEST_CASE(a_close_on_another_owner_closes_nothing) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "x");
    p.close(2, 20, kSS, "x");
    BOOST_TEST(p.spans().empty());
    BOOST_REQUIRE(p.unmatched().size() == 1u);
    BOOST_TEST(p.unmatched()[0].owner == 2u);
    BOOST_TEST((p.unmatched()[0].edge == SpanEdge::close));
    BOOST_TEST(p.open_count() == 1u);
}

BOOST_AUTO_TEST_CASE(a_close_with_nothing_open_is_unmatched_and_kept) {
    UserSpanPairer p;
    p.close(1, 5, kSS, "orphan");
    BOOST_TEST(p.spans().empty());
    BOOST_REQUIRE(p.unmatched().size() == 1u);
    const UnmatchedEdge& u = p.unmatched()[0];
    BOOST_TEST(u.name == "orphan");
    BOOST_TEST(u.time == 5u);
    BOOST_TEST((u.edge == SpanEdge::close));
    BOOST_TEST((u.convention == kSS));
}

BOOST_AUTO_TEST_CASE(conventions_do_not_pair_with_each_other) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "x");
    p.close(1, 20, kGhc, "x");
    BOOST_TEST(p.spans().empty());
    BOOST_TEST(p.unmatched().size() == 1u);
    BOOST_TEST(p.open_count() == 1u);
}

BOOST_AUTO_TEST_CASE(names_match_exactly) {
    UserSpanPairer p;
    p.open(1, 10, kSS, "x");
    p.close(1, 20, kSS, "x ");
    BOOST_TEST(p.spans().empty());
    BOOST_TEST(p.unmatched().size() == 1u);
}

BOOST_AUTO_TEST_CASE(finish_reports_spans_never_closed_in_open_order) {
    UserSpanPairer p;
    p.open(7, 10, kSS, "never");
    p.open(3, 12, kGhc, "also never");
    p.open(7, 14, kSS, "closed");
    p.close(7, 16, kSS, "closed");
    p.finish();
    BOOST_TEST(p.open_count() == 0u);
    BOOST_TEST(p.spans().size() == 1u);
    BOOST_REQUIRE(p.unmatched().size() == 2u);
    BOOST_TEST(p.unmatched()[0].name == "never");
    BOOST_TEST(p.unmatched()[0].owner == 7u);
    BOOST_TEST(p.unmatched()[0].time == 10u);
    BOOST_TEST((p.unmatched()[0].edge == SpanEdge::open));
    BOOST_TEST(p.unmatched()[1].name == "also never");
    BOOST_TEST((p.unmatched()[1].convention == kGhc));
}

BOOST_AUTO_TEST_CASE(edge_dispatches_a_parsed_message) {
    UserSpanPairer p;
    p.edge(1, 10, *parse_span_message("GHC:started: desugar"));
    p.edge(1, 20, *parse_span_message("GHC:finished: desugar"));
    BOOST_REQUIRE(p.spans().size() == 1u);
    BOOST_TEST(p.spans()[0].name == "desugar");
    BOOST_TEST((p.spans()[0].convention == kGhc));
}

BOOST_AUTO_TEST_SUITE_END()
