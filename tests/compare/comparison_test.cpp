// compare_runs: medians, changes, the mark where the sides' ranges are apart, the notes.
#include <boost/test/unit_test.hpp>

#include "compare/comparison.hpp"

using namespace el2fx::compare;

namespace {

RunFigures run(const std::string& input, double gc, double band = -1, const std::string& program = "prog",
               const std::string& rts = "-N1") {
    RunFigures r;
    r.input = input;
    r.program = program;
    r.rts_options = rts;
    r.figures.push_back({"gc_elapsed", "GC elapsed", Group::rts, Unit::ns, Better::lower, gc});
    if (band >= 0)
        r.figures.push_back(
            {"band_peak:ARR_WORDS", "ARR_WORDS (peak)", Group::heap_bands, Unit::bytes, Better::lower, band});
    return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(comparison)

BOOST_AUTO_TEST_CASE(identical_runs_give_zero_change_and_no_mark) {
    Comparison c = compare_runs({run("a", 100, 7), run("b", 120, 9)}, {run("a", 100, 7), run("b", 120, 9)});
    BOOST_REQUIRE(c.figures.size() == 2u);
    for (const FigureComparison& f : c.figures) {
        BOOST_TEST(*f.change == 0);
        BOOST_TEST(*f.percent == 0);
        BOOST_TEST(!f.apart);
    }
    BOOST_TEST(c.notes.empty());
}

BOOST_AUTO_TEST_CASE(change_and_percent_are_of_the_medians) {
    Comparison c = compare_runs({run("a", 100), run("b", 110), run("c", 300)}, {run("d", 150), run("e", 160)});
    const FigureComparison* f = c.find("gc_elapsed");
    BOOST_REQUIRE(f);
    BOOST_TEST(f->before.median == 110);
    BOOST_TEST(f->before.min == 100);
    BOOST_TEST(f->before.max == 300);
    BOOST_TEST(f->after.median == 155);
    BOOST_TEST(*f->change == 45);
    BOOST_TEST(*f->percent == 45.0 / 110.0 * 100.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(!f->apart);  // 150..160 lies inside 100..300
}

BOOST_AUTO_TEST_CASE(ranges_apart_are_marked_only_with_several_runs_per_side) {
    BOOST_TEST(compare_runs({run("a", 100), run("b", 110)}, {run("c", 150), run("d", 160)}).find("gc_elapsed")->apart);
    BOOST_TEST(!compare_runs({run("a", 100)}, {run("c", 150)}).find("gc_elapsed")->apart);
    BOOST_TEST(!compare_runs({run("a", 100), run("b", 150)}, {run("c", 150), run("d", 160)}).find("gc_elapsed")->apart);
}

BOOST_AUTO_TEST_CASE(a_figure_on_one_side_only_has_no_change) {
    Comparison c = compare_runs({run("a", 100, 5)}, {run("b", 100)});
    const FigureComparison* f = c.find("band_peak:ARR_WORDS");
    BOOST_REQUIRE(f);
    BOOST_TEST(f->before.present());
    BOOST_TEST(!f->after.present());
    BOOST_TEST(!f->change.has_value());
    BOOST_TEST(!f->percent.has_value());
}

BOOST_AUTO_TEST_CASE(from_zero_the_percent_is_unknown_unless_nothing_changed) {
    BOOST_TEST(!compare_runs({run("a", 0)}, {run("b", 5)}).find("gc_elapsed")->percent.has_value());
    BOOST_TEST(*compare_runs({run("a", 0)}, {run("b", 0)}).find("gc_elapsed")->percent == 0);
}

BOOST_AUTO_TEST_CASE(different_programs_and_rts_options_are_said) {
    Comparison c = compare_runs({run("a", 1, -1, "prog", "-N1")}, {run("b", 1, -1, "other", "-N2")});
    BOOST_REQUIRE(c.notes.size() == 2u);
    BOOST_TEST(c.notes[0] == "the runs are of different programs: prog, other");
    BOOST_TEST(c.notes[1] == "the runs have different RTS options: -N1, -N2");
}

BOOST_AUTO_TEST_CASE(profiling_rows_come_largest_change_first) {
    auto with_bands = [](double a, double b) {
        RunFigures r = run("x", 1);
        r.figures.push_back({"band_peak:A", "A", Group::heap_bands, Unit::bytes, Better::lower, a});
        r.figures.push_back({"band_peak:B", "B", Group::heap_bands, Unit::bytes, Better::lower, b});
        return r;
    };
    Comparison c = compare_runs({with_bands(100, 100)}, {with_bands(101, 50)});
    BOOST_REQUIRE(c.figures.size() == 3u);
    BOOST_TEST(c.figures[0].key == "gc_elapsed");
    BOOST_TEST(c.figures[1].key == "band_peak:B");
    BOOST_TEST(c.figures[2].key == "band_peak:A");
}

BOOST_AUTO_TEST_SUITE_END()
