// Source spans and the cost-centre table: names, kinds, stacks.
#include <boost/test/unit_test.hpp>

#include "events.hpp"
#include "analysis/ghc_profiling/cost_centre_table.hpp"
#include "analysis/ghc_profiling/source_location.hpp"

using namespace el2fx::profiling;
namespace ev = el2fx::eventlog;

namespace {

SourceLocation loc(std::string file, std::uint32_t l1, std::uint32_t c1, std::uint32_t l2, std::uint32_t c2) {
    return SourceLocation{std::move(file), l1, c1, l2, c2};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(source_location)

BOOST_AUTO_TEST_CASE(one_line_span_gives_line_and_columns) {
    BOOST_TEST((parse_source_location("profiled.hs:52:1-62") == loc("profiled.hs", 52, 1, 52, 62)));
    BOOST_TEST((parse_source_location("File.hs:12:5-20") == loc("File.hs", 12, 5, 12, 20)));
}

BOOST_AUTO_TEST_CASE(multi_line_span_gives_start_and_end) {
    BOOST_TEST((parse_source_location("profiled.hs:(56,9)-(57,73)") == loc("profiled.hs", 56, 9, 57, 73)));
    BOOST_TEST((parse_source_location("File.hs:(12,1)-(14,20)") == loc("File.hs", 12, 1, 14, 20)));
}

BOOST_AUTO_TEST_CASE(point_span_has_one_column) {
    BOOST_TEST((parse_source_location("A.hs:3:7") == loc("A.hs", 3, 7, 3, 7)));
}

BOOST_AUTO_TEST_CASE(file_names_may_hold_colons_and_directories) {
    BOOST_TEST((parse_source_location("C:\\src\\Main.hs:3:1-9") == loc("C:\\src\\Main.hs", 3, 1, 3, 9)));
    BOOST_TEST((parse_source_location("src/Data/Map:x.hs:(1,2)-(3,4)") == loc("src/Data/Map:x.hs", 1, 2, 3, 4)));
}

BOOST_AUTO_TEST_CASE(placeholders_and_garbage_give_no_file) {
    for (const char* text : {"<built-in>", "<entire-module>", "<no location info>", "", "Main.hs", "Main.hs:12",
                             "Main.hs:x:1-2", "Main.hs:1:2-", ":1:2", "M.hs:(1,2)-(3,", "M.hs:99999999999:1"}) {
        SourceLocation l = parse_source_location(text);
        BOOST_TEST(l.file.empty(), text);
        BOOST_TEST(!l.line.has_value(), text);
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cost_centre_table)

BOOST_AUTO_TEST_CASE(definitions_give_names_kinds_and_locations) {
    el2fx::testing::EventMaker m;
    CostCentreTable t;
    for (const ev::Event& e :
         {m.cost_centre(166, "IDLE", "IDLE", "<built-in>"), m.cost_centre(162, "GC", "GC", "<built-in>"),
          m.cost_centre(161, "SYSTEM", "SYSTEM", "<built-in>"),
          m.cost_centre(163, "OVERHEAD_of", "PROFILING", "<built-in>"),
          m.cost_centre(159, "CAF", "GHC.Types", "<entire-module>", true),
          m.cost_centre(15, "stageNumeric.go", "Main", "profiled.hs:(56,9)-(57,73)"),
          m.cost_centre(20, "table", "Main", "M.hs:3:1-5", true)})
        t.define(*e.as<ev::HeapProfCostCentre>());
    BOOST_TEST(t.size() == 7u);
    BOOST_TEST((t.kind(166) == CostCentreKind::idle));
    BOOST_TEST((t.kind(162) == CostCentreKind::gc));
    BOOST_TEST((t.kind(161) == CostCentreKind::runtime));
    BOOST_TEST((t.kind(163) == CostCentreKind::runtime));
    BOOST_TEST((t.kind(159) == CostCentreKind::caf));
    BOOST_TEST((t.kind(15) == CostCentreKind::program));
    BOOST_TEST((t.kind(999) == CostCentreKind::program));  // unknown: assume the program's
    BOOST_TEST(t.name(159) == "CAF:GHC.Types");            // the CAF flag is kept in the name
    BOOST_TEST(t.name(20) == "table (CAF)");
    BOOST_TEST(t.name(15) == "stageNumeric.go");
    BOOST_TEST(t.name(999) == "cost centre 999");
    const CostCentre* go = t.find(15);
    BOOST_REQUIRE(go);
    BOOST_TEST(go->module == "Main");
    BOOST_TEST((go->location == SourceLocation{"profiled.hs", 56, 9, 57, 73}));
    BOOST_TEST(t.find(159)->location.file.empty());
}

BOOST_AUTO_TEST_CASE(a_later_definition_replaces_an_earlier) {
    CostCentreTable t;
    t.define(CostCentre{.id = 1, .label = "old", .module = "M", .srcloc = "M.hs:1:1-2"});
    t.define(CostCentre{.id = 1, .label = "new", .module = "M", .srcloc = "M.hs:2:1-2"});
    BOOST_TEST(t.size() == 1u);
    BOOST_TEST(t.name(1) == "new");
    BOOST_TEST(*t.find(1)->location.line == 2u);
}

BOOST_AUTO_TEST_CASE(stacks_are_named_root_first_and_wire_stacks_are_reversed) {
    el2fx::testing::EventMaker m;
    CostCentreTable t;
    t.define(CostCentre{.id = 5, .label = "main", .module = "Main"});
    t.define(CostCentre{.id = 9, .label = "runAll", .module = "Main"});
    t.define(CostCentre{.id = 8, .label = "mkItems", .module = "Main"});
    std::vector<std::uint32_t> ids = root_first(m.stack({8, 9, 5}));  // the wire: innermost first
    BOOST_TEST((ids == std::vector<std::uint32_t>{5, 9, 8}));
    BOOST_TEST(t.stack_name(ids) == "main/runAll/mkItems");
    BOOST_TEST(t.stack_name({}) == "MAIN");
    BOOST_TEST(t.stack_name(std::vector<std::uint32_t>{5, 77}) == "main/cost centre 77");
}

BOOST_AUTO_TEST_SUITE_END()
