// The heap census collector: censuses and their bands, top-N ranking, band names.
#include <boost/test/unit_test.hpp>

#include "events.hpp"
#include "analysis/ghc_profiling/band_names.hpp"
#include "analysis/ghc_profiling/heap_profile.hpp"
#include "analysis/ghc_profiling/info_tables.hpp"

using namespace el2fx::profiling;
namespace ev = el2fx::eventlog;
using el2fx::testing::EventMaker;

namespace {

ev::Event begin(EventMaker& m, std::uint32_t breakdown, std::string module_filter = "") {
    return m.make(
        5, ev::HeapProfBegin{0, 100'000'000, breakdown, {m.text(std::move(module_filter))}, {}, {}, {}, {}, {}, {}});
}
ev::Event label(EventMaker& m, std::uint64_t time, std::uint64_t bytes, std::string text) {
    return m.make(time, ev::HeapProfSampleString{0, bytes, {m.text(std::move(text))}});
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> bands_of(const HeapCensus& c) { return c.bands; }

}  // namespace

BOOST_AUTO_TEST_SUITE(heap_profile)

BOOST_AUTO_TEST_CASE(breakdown_codes_have_their_flags) {
    BOOST_TEST(describe_breakdown(1).flag == "-hc");
    BOOST_TEST(describe_breakdown(2).flag == "-hm");
    BOOST_TEST(describe_breakdown(3).flag == "-hd");
    BOOST_TEST(describe_breakdown(4).flag == "-hy");
    BOOST_TEST(describe_breakdown(5).flag == "-hr");
    BOOST_TEST(describe_breakdown(6).flag == "-hb");
    BOOST_TEST(describe_breakdown(7).flag == "-hT");
    BOOST_TEST(describe_breakdown(8).flag == "-hi");
    BOOST_TEST(describe_breakdown(9).flag == "-he");
    BOOST_TEST(describe_breakdown(0).flag == "-h?");
    BOOST_TEST(describe_breakdown(42).by == "an unknown breakdown");
}

BOOST_AUTO_TEST_CASE(each_census_is_one_value_per_band) {
    EventMaker m;
    HeapProfile h;
    h.handle(begin(m, 4, "Main"));
    h.handle(m.make(100, ev::HeapProfSampleBegin{0}));
    h.handle(label(m, 101, 300, "Int"));
    h.handle(label(m, 102, 50, "[]"));
    h.handle(label(m, 103, 25, "Int"));  // the same band twice: added up
    h.handle(m.make(104, ev::HeapProfSampleEnd{0}));
    h.handle(m.make(200, ev::HeapProfSampleBegin{1}));
    h.handle(label(m, 201, 1000, "[]"));
    h.handle(m.make(202, ev::HeapProfSampleEnd{1}));
    h.handle(label(m, 250, 7, "Int"));  // outside a census
    h.finish();
    BOOST_REQUIRE(h.info());
    BOOST_TEST(h.info()->breakdown == 4u);
    BOOST_TEST(h.info()->sampling_period_ns == 100'000'000u);
    BOOST_REQUIRE(h.info()->filters.size() == 1u);
    BOOST_TEST(h.info()->filters[0].second == "Main");
    BOOST_REQUIRE(h.bands().size() == 2u);
    BOOST_TEST(h.bands()[0].label == "Int");
    BOOST_REQUIRE(h.censuses().size() == 2u);
    const HeapCensus& c0 = h.censuses()[0];
    BOOST_TEST(c0.time == 100u);
    BOOST_TEST(*c0.end == 104u);
    BOOST_TEST(c0.total == 375u);
    BOOST_TEST((bands_of(c0) == std::vector<std::pair<std::uint32_t, std::uint64_t>>{{0, 325}, {1, 50}}));
    BOOST_TEST((bands_of(h.censuses()[1]) == std::vector<std::pair<std::uint32_t, std::uint64_t>>{{1, 1000}}));
    BOOST_TEST(h.stray_samples() == 1u);
}

BOOST_AUTO_TEST_CASE(without_sample_end_a_census_ends_at_the_next_one) {  // GHC < 8.10
    EventMaker m;
    HeapProfile h;
    h.handle(begin(m, 7));
    h.handle(m.make(100, ev::HeapProfSampleBegin{0}));
    h.handle(label(m, 101, 8, "FUN"));
    h.handle(m.make(200, ev::HeapProfSampleBegin{0}));
    h.handle(label(m, 201, 16, "FUN"));
    h.finish();
    BOOST_REQUIRE(h.censuses().size() == 2u);
    BOOST_TEST(!h.censuses()[0].end.has_value());
    BOOST_TEST(h.censuses()[1].total == 16u);
}

BOOST_AUTO_TEST_CASE(censuses_count_even_without_heap_prof_begin) {  // a log cut at the front
    EventMaker m;
    HeapProfile h;
    h.handle(m.make(100, ev::HeapProfSampleBegin{0}));
    h.handle(label(m, 101, 8, "FUN"));
    h.handle(m.make(102, ev::HeapProfSampleEnd{0}));
    h.finish();
    BOOST_TEST(!h.info().has_value());
    BOOST_TEST(h.censuses().size() == 1u);
}

BOOST_AUTO_TEST_CASE(biographical_censuses_are_placed_by_their_own_time) {
    EventMaker m;
    HeapProfile h;
    h.handle(begin(m, 6));
    // Written at the end of the run, out of order.
    h.handle(m.make(9000, ev::HeapBioProfSampleBegin{7, 2000}));
    h.handle(label(m, 9001, 10, "LAG"));
    h.handle(m.make(9002, ev::HeapProfSampleEnd{7}));
    h.handle(m.make(9003, ev::HeapBioProfSampleBegin{7, 1000}));
    h.handle(label(m, 9004, 20, "VOID"));
    h.handle(m.make(9005, ev::HeapProfSampleEnd{7}));
    h.finish();
    BOOST_REQUIRE(h.censuses().size() == 2u);
    BOOST_TEST(h.censuses()[0].time == 1000u);
    BOOST_TEST(h.censuses()[0].biographical);
    BOOST_TEST(h.censuses()[1].time == 2000u);
}

BOOST_AUTO_TEST_CASE(top_bands_rank_by_residency_over_the_whole_run) {
    EventMaker m;
    HeapProfile h;
    h.handle(begin(m, 7));
    // "big" is largest once, "steady" is larger summed over the run; "zero" never counts.
    const std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t> censuses[] = {
        {100, 10, 60, 0}, {200, 500, 60, 0}, {300, 10, 600, 0}};
    for (const auto& [t, big, steady, zero] : censuses) {
        h.handle(m.make(t, ev::HeapProfSampleBegin{0}));
        h.handle(label(m, t + 1, big, "big"));
        h.handle(label(m, t + 2, steady, "steady"));
        h.handle(label(m, t + 3, zero, "zero"));
        h.handle(label(m, t + 4, 1, "tiny"));
        h.handle(m.make(t + 5, ev::HeapProfSampleEnd{0}));
    }
    h.finish();
    BOOST_TEST((h.top_bands(2) == std::vector<std::uint32_t>{1, 0}));
    BOOST_TEST((h.top_bands(10) == std::vector<std::uint32_t>{1, 0, 3}));
    BOOST_TEST(h.top_bands(0).empty());
}

BOOST_AUTO_TEST_CASE(a_second_profile_with_another_breakdown_is_not_mixed_in) {
    EventMaker m;
    HeapProfile h;
    h.handle(begin(m, 4));
    h.handle(m.make(100, ev::HeapProfSampleBegin{0}));
    h.handle(label(m, 101, 8, "Int"));
    h.handle(m.make(102, ev::HeapProfSampleEnd{0}));
    h.handle(begin(m, 7));
    h.handle(m.make(200, ev::HeapProfSampleBegin{0}));
    h.handle(label(m, 201, 8, "FUN"));
    h.handle(m.make(202, ev::HeapProfSampleEnd{0}));
    h.finish();
    BOOST_TEST(h.censuses().size() == 1u);
    BOOST_TEST(h.stray_samples() == 1u);
}

BOOST_AUTO_TEST_CASE(cost_centre_bands_are_named_by_their_stacks) {
    EventMaker m;
    CostCentreTable cc;
    for (const ev::Event& e : {m.cost_centre(5, "main", "Main", "p.hs:(70,1)-(82,39)"),
                               m.cost_centre(9, "runAll", "Main", "p.hs:(60,1)-(67,28)"),
                               m.cost_centre(13, "stageBuild", "Main", "p.hs:46:1-61"),
                               m.cost_centre(8, "mkItems", "Main", "p.hs:(39,1)-(40,29)")})
        cc.define(*e.as<ev::HeapProfCostCentre>());
    HeapProfile h;
    h.handle(begin(m, 1));
    h.handle(m.make(100, ev::HeapProfSampleBegin{0}));
    h.handle(m.make(101, ev::HeapProfSampleCostCentre{0, 3204776, m.stack({8, 13, 9, 5})}));
    h.handle(m.make(102, ev::HeapProfSampleCostCentre{0, 19032, m.stack({})}));
    h.handle(m.make(103, ev::HeapProfSampleCostCentre{0, 64, m.stack({5})}));
    h.handle(m.make(104, ev::HeapProfSampleEnd{0}));
    h.finish();
    InfoTableCatalog none;
    BOOST_REQUIRE(h.bands().size() == 3u);
    BOOST_TEST(band_name(h.bands()[0], 1, cc, none) == "main/runAll/stageBuild/mkItems");
    BOOST_TEST(band_name(h.bands()[1], 1, cc, none) == "MAIN");
    BOOST_TEST(band_name(h.bands()[2], 1, cc, none) == "main");
    std::string d = band_description(h.bands()[0], 1, cc, none);
    BOOST_TEST(d.find("-hc") != std::string::npos);
    BOOST_TEST(d.find("mkItems in Main at p.hs:(39,1)-(40,29)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(info_table_bands_are_named_from_ipe_events) {
    EventMaker m;
    InfoTableCatalog ipe;
    ipe.add(*m.make(1, ev::InfoProv{0x409f78,
                                    {m.text("sat_s154_info")},
                                    {m.text("21")},
                                    {m.text("Int")},
                                    {m.text("")},
                                    {m.text("Main")},
                                    {m.text("Test.hs:5:1-30")}})
                 .as<ev::InfoProv>());
    ipe.add(*m.make(1, ev::InfoProv{0x40a0f8,
                                    {m.text("main_info")},
                                    {m.text("14")},
                                    {m.text("")},
                                    {m.text("main")},
                                    {m.text("Main")},
                                    {m.text(":")}})
                 .as<ev::InfoProv>());
    // A closure type this table does not know, and nothing else: the number as given.
    ipe.add(*m.make(1, ev::InfoProv{0x40a100, {m.text("")}, {m.text("999")}, {m.text("")}, {m.text("")},
                                    {m.text("")}, {m.text("")}})
                 .as<ev::InfoProv>());
    BOOST_TEST(ipe.size() == 3u);
    BOOST_TEST(parse_hex_address("0x409f78").value() == 0x409f78u);
    BOOST_TEST(parse_hex_address("409F78").value() == 0x409f78u);
    BOOST_TEST(!parse_hex_address("0x").has_value());
    BOOST_TEST(!parse_hex_address("12g").has_value());
    CostCentreTable cc;
    HeapBand b{false, {}, "0x409f78"};
    // The binding (no label here: the table's name), its type, its closure's kind, its place.
    BOOST_TEST(band_name(b, 8, cc, ipe) == "sat_s154_info :: Int (THUNK_STATIC) at Test.hs:5:1-30");
    // No type, no place (GHC 9.6 writes ":" for none): the module.
    BOOST_TEST(band_name(HeapBand{false, {}, "0x40a0f8"}, 8, cc, ipe) == "main (FUN_STATIC) in Main");
    BOOST_TEST(band_name(HeapBand{false, {}, "0x40a100"}, 8, cc, ipe) == "0x40a100 (999)");
    BOOST_TEST(band_name(HeapBand{false, {}, "0xdead"}, 8, cc, ipe) == "0xdead");  // no IPE: the address
    BOOST_TEST(band_description(b, 8, cc, ipe).find("type Int") != std::string::npos);
    BOOST_TEST(band_name(HeapBand{false, {}, "3"}, 9, cc, ipe) == "era 3");
    BOOST_TEST(band_name(HeapBand{false, {}, "base:GHC.Types.:"}, 7, cc, ipe) == "base:GHC.Types.:");
}

BOOST_AUTO_TEST_SUITE_END()

#include "analysis/ghc_profiling/heap_chart.hpp"

BOOST_AUTO_TEST_SUITE(heap_chart)

namespace {
// Three bands over three censuses at 100, 200, 300: "big" (sum 1000+2000+3000), "mid", "tiny".
HeapProfile three_censuses() {
    EventMaker m;
    HeapProfile h;
    h.handle(begin(m, 4));
    const std::uint64_t big[] = {1000, 2000, 3000}, mid[] = {500, 0, 700}, tiny[] = {5, 6, 7};
    for (std::uint64_t i = 0; i < 3; ++i) {
        std::uint64_t t = 100 * (i + 1);
        h.handle(m.make(t, ev::HeapProfSampleBegin{i}));
        if (tiny[i]) h.handle(label(m, t + 1, tiny[i], "tiny"));
        if (mid[i]) h.handle(label(m, t + 2, mid[i], "mid"));
        h.handle(label(m, t + 3, big[i], "big"));
        h.handle(m.make(t + 4, ev::HeapProfSampleEnd{i}));
    }
    h.finish();
    return h;
}
}  // namespace

BOOST_AUTO_TEST_CASE(bands_stack_from_the_largest_up_with_other_on_top) {
    HeapProfile h = three_censuses();
    HeapChart c = make_heap_chart(h, 2, 1000);
    BOOST_REQUIRE(c.bands.size() == 2u);
    BOOST_TEST(h.bands()[c.bands[0]].label == "big");
    BOOST_TEST(h.bands()[c.bands[1]].label == "mid");
    BOOST_TEST(c.other_bands == 1u);
    BOOST_REQUIRE(c.rows.size() == 3u);
    // Own levels per column (big, mid, other) and their running sums: the top edge of each.
    BOOST_TEST((c.rows[0].levels == std::vector<std::uint64_t>{1000, 500, 5}));
    BOOST_TEST((c.rows[0].cumulative == std::vector<std::uint64_t>{1000, 1500, 1505}));
    BOOST_TEST((c.rows[1].levels == std::vector<std::uint64_t>{2000, 0, 6}));
    BOOST_TEST((c.rows[1].cumulative == std::vector<std::uint64_t>{2000, 2000, 2006}));
    BOOST_TEST(c.rows[2].total == 3707u);
    for (const HeapChartRow& r : c.rows) BOOST_TEST(r.cumulative.back() == r.total);
    BOOST_TEST((c.peaks == std::vector<std::uint64_t>{3000, 700, 7}));
    BOOST_TEST((c.sums == std::vector<std::uint64_t>{6000, 1200, 18}));
}

BOOST_AUTO_TEST_CASE(a_row_lasts_until_the_next_census_and_the_last_one_a_gap_at_most) {
    HeapProfile h = three_censuses();
    HeapChart c = make_heap_chart(h, 9, 1000);
    BOOST_TEST(c.other_bands == 0u);
    BOOST_TEST(c.rows[0].end == 200u);
    BOOST_TEST(c.rows[1].end == 300u);
    BOOST_TEST(c.rows[2].end == 400u);                           // as long as the gap before it
    BOOST_TEST(make_heap_chart(h, 9, 350).rows[2].end == 350u);  // cut at the run's end
    BOOST_TEST(make_heap_chart(h, 9, 0).rows[2].end == 300u);    // never before its start
    // Every band in the chart: "other" is an empty column.
    BOOST_TEST(c.rows[2].levels.back() == 0u);
    BOOST_TEST(c.rows[2].cumulative[2] == c.rows[2].cumulative[3]);
}

BOOST_AUTO_TEST_CASE(no_bands_in_the_chart_puts_everything_in_other) {
    HeapChart c = make_heap_chart(three_censuses(), 0, 1000);
    BOOST_TEST(c.bands.empty());
    BOOST_TEST(c.other_bands == 3u);
    BOOST_TEST((c.rows[0].levels == std::vector<std::uint64_t>{1505}));
    BOOST_TEST(c.rows[0].cumulative.back() == 1505u);
}

BOOST_AUTO_TEST_SUITE_END()
