// --fail-if: the grammar, its errors, and when a gate fails.
#include <boost/test/unit_test.hpp>

#include "compare/fail_if.hpp"
#include "util/error.hpp"

using namespace el2fx::compare;

namespace {

Comparison two(double before, double after, Unit unit = Unit::ns, const std::string& key = "gc_elapsed") {
    RunFigures a, b;
    a.figures.push_back({key, key, Group::rts, unit, Better::lower, before});
    b.figures.push_back({key, key, Group::rts, unit, Better::lower, after});
    return compare_runs({a}, {b});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fail_if)

BOOST_AUTO_TEST_CASE(parses_per_cent_and_absolute_thresholds) {
    Gate g = parse_gate("gc_elapsed>+10%");
    BOOST_TEST(g.figure == "gc_elapsed");
    BOOST_TEST((g.op == GateOp::above));
    BOOST_TEST(g.threshold == 10);
    BOOST_TEST(g.percent);
    g = parse_gate(" max_residency >= 5MB ");
    BOOST_TEST(g.figure == "max_residency");
    BOOST_TEST((g.op == GateOp::at_least));
    BOOST_TEST(g.threshold == 5e6);
    BOOST_TEST((g.unit == Unit::bytes));
    g = parse_gate("productivity<-0.02");
    BOOST_TEST((g.op == GateOp::below));
    BOOST_TEST(g.threshold == -0.02);
    BOOST_TEST(!g.unit.has_value());
    BOOST_TEST(parse_gate("pause_max>2ms").threshold == 2e6);
    BOOST_TEST(parse_gate("allocated>1KiB").threshold == 1024);
    BOOST_TEST(parse_gate("pause_p99<=1.5us").threshold == 1500);
}

BOOST_AUTO_TEST_CASE(bad_expressions_are_errors) {
    for (const char* bad : {"gc_elapsed", "gc_elapsed>", ">+10%", "gc_elapsed>abc", "gc_elapsed>+10furlongs",
                            "gc_elapsed>10%%", "gc_elapsed>nan", "gc_elapsed>inf%", "gc_elapsed=10%", ""})
        BOOST_CHECK_THROW(parse_gate(bad), el2fx::Error);
}

BOOST_AUTO_TEST_CASE(a_gate_fails_when_the_change_is_beyond_its_threshold) {
    const Comparison c = two(100, 115);  // +15 ns, +15%
    BOOST_TEST(evaluate_gate(parse_gate("gc_elapsed>+10%"), c).failed);
    BOOST_TEST(!evaluate_gate(parse_gate("gc_elapsed>+20%"), c).failed);
    BOOST_TEST(evaluate_gate(parse_gate("gc_elapsed>10ns"), c).failed);
    BOOST_TEST(!evaluate_gate(parse_gate("gc_elapsed>1us"), c).failed);
    BOOST_TEST(!evaluate_gate(parse_gate("gc_elapsed<-5%"), c).failed);
    BOOST_TEST(evaluate_gate(parse_gate("gc_elapsed>=15%"), c).failed);
    BOOST_TEST(*evaluate_gate(parse_gate("gc_elapsed>15%"), c).measured == 15.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(!evaluate_gate(parse_gate("gc_elapsed>15%"), c).failed);
    const Comparison same = two(100, 100);
    BOOST_TEST(!evaluate_gate(parse_gate("gc_elapsed>0%"), same).failed);
    BOOST_TEST(!evaluate_gate(parse_gate("gc_elapsed<0%"), same).failed);
}

BOOST_AUTO_TEST_CASE(from_zero_any_increase_is_beyond_a_per_cent_threshold) {
    BOOST_TEST(evaluate_gate(parse_gate("gc_elapsed>+1000%"), two(0, 1)).failed);
}

BOOST_AUTO_TEST_CASE(a_gate_on_a_missing_figure_or_in_the_wrong_unit_is_an_error) {
    const Comparison c = two(100, 115);
    BOOST_CHECK_THROW(evaluate_gate(parse_gate("no_such_figure>1%"), c), el2fx::Error);
    BOOST_CHECK_THROW(evaluate_gate(parse_gate("gc_elapsed>5MB"), c), el2fx::Error);
}

BOOST_AUTO_TEST_SUITE_END()
