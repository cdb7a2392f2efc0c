// The table: aligned columns, the mark, colour only when asked, the profiling sections cut short.
#include <boost/test/unit_test.hpp>

#include "compare/comparison_text.hpp"
#include "compare/value_text.hpp"

using namespace el2fx::compare;

namespace {

RunFigures run(const std::string& input, double gc, double productivity) {
    RunFigures r;
    r.input = input;
    r.figures.push_back({"gc_elapsed", "GC elapsed", Group::rts, Unit::ns, Better::lower, gc});
    r.figures.push_back({"productivity", "productivity", Group::rts, Unit::ratio, Better::higher, productivity});
    return r;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(comparison_text)

BOOST_AUTO_TEST_CASE(values_are_in_readable_units) {
    BOOST_TEST(format_value(1234, Unit::bytes) == "1.234 kB");
    BOOST_TEST(format_value(254196560, Unit::bytes) == "254.2 MB");
    BOOST_TEST(format_value(2176000000.0, Unit::ns) == "2.176 s");
    BOOST_TEST(format_value(850, Unit::ns) == "850 ns");
    BOOST_TEST(format_value(0.247, Unit::ratio) == "24.7%");
    BOOST_TEST(format_value(1234567, Unit::count) == "1,234,567");
    BOOST_TEST(format_change(-0.011, Unit::ratio) == "-1.1 pp");
    BOOST_TEST(format_change(0, Unit::bytes) == "0");
    BOOST_TEST(format_percent(-10.62) == "-10.6%");
    BOOST_TEST(format_percent(0.01) == "0.0%");
}

BOOST_AUTO_TEST_CASE(colour_only_when_asked_worse_red_better_green) {
    const Comparison c = compare_runs({run("a", 100, 0.5)}, {run("b", 200, 0.6)});
    const std::string plain = render_comparison_text(c, {}, {});
    BOOST_TEST(plain.find('\033') == std::string::npos);
    TextOptions colour;
    colour.colour = true;
    const std::string coloured = render_comparison_text(c, {}, colour);
    const std::size_t gc = coloured.find("GC elapsed"), prod = coloured.find("productivity");
    BOOST_REQUIRE(gc != std::string::npos);
    BOOST_REQUIRE(prod != std::string::npos);
    BOOST_TEST(coloured.find("\033[31m", gc) < prod);                  // more GC time: worse
    BOOST_TEST(coloured.find("\033[32m", prod) != std::string::npos);  // more productivity: better
}

BOOST_AUTO_TEST_CASE(rows_are_aligned_and_apart_ranges_marked) {
    const Comparison c =
        compare_runs({run("a", 100, 0.5), run("b", 110, 0.5)}, {run("c", 200, 0.5), run("d", 210, 0.5)});
    const std::string text = render_comparison_text(c, {}, {});
    BOOST_TEST(text.find("(100 ns–110 ns)") != std::string::npos, text);
    BOOST_TEST(text.find(" *\n") != std::string::npos, text);  // GC elapsed: apart
    BOOST_TEST(text.find("productivity") != std::string::npos);
    // Every row of the table (heading to last) ends its "%" column at the same place.
    std::size_t header_end = text.find("%\n");
    BOOST_REQUIRE(header_end != std::string::npos);
    const std::size_t header_column = header_end - text.rfind('\n', header_end) - 1;
    const std::size_t gc = text.find("GC elapsed");
    const std::size_t gc_end = text.find('\n', gc);
    const std::string line = text.substr(text.rfind('\n', gc) + 1, gc_end - text.rfind('\n', gc) - 1);
    BOOST_TEST(display_width(line.substr(0, line.size() - 2)) == header_column + 1, line);  // " *" after it
}

BOOST_AUTO_TEST_SUITE_END()
