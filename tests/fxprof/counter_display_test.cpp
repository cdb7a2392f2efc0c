// The counter displays' factories (counter.hpp): what each track shows, as written.
#include <boost/test/unit_test.hpp>

#include "check/profile_check.hpp"
#include "fxprof/counter.hpp"
#include "fxprof_test_util.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;

BOOST_AUTO_TEST_SUITE(counter_displays)

// The ticky counters' tracks (convert/runtime_events_contributor.cpp) as one call.
BOOST_AUTO_TEST_CASE(event_count_is_an_accumulated_count_with_its_own_words) {
    const CounterDisplay d = CounterDisplay::event_count("Ticky: f", "entries", "Entries", GraphColor::magenta, 61);
    BOOST_TEST((d.graph_type == CounterGraphType::line_accumulated));
    BOOST_TEST(d.unit == "entries");
    BOOST_TEST((d.color == GraphColor::magenta));
    BOOST_TEST(!d.marker_schema_location.has_value());
    BOOST_TEST(d.sort_weight == 61);
    BOOST_TEST(d.label == "Ticky: f");
    BOOST_REQUIRE(d.tooltip_rows.size() == 4u);
    const CounterTooltipRow& so_far = d.tooltip_rows[0];
    BOOST_TEST((so_far.source == CounterTooltipSource::accumulated && so_far.unit == CounterTooltipUnit::number));
    BOOST_TEST(so_far.label == "Entries so far");
    const CounterTooltipRow& since = d.tooltip_rows[1];
    BOOST_TEST((since.source == CounterTooltipSource::count && since.unit == CounterTooltipUnit::number));
    BOOST_TEST(since.label == "Entries since the previous sample");
    BOOST_TEST(d.tooltip_rows[2].separator);
    const CounterTooltipRow& selected = d.tooltip_rows[3];
    BOOST_TEST(
        (selected.source == CounterTooltipSource::selection_total && selected.unit == CounterTooltipUnit::number));
    BOOST_TEST(selected.label == "Entries in the selection");
    BOOST_TEST(selected.requires_preview_selection);
    BOOST_TEST(!so_far.requires_preview_selection);
}

BOOST_AUTO_TEST_CASE(every_factory_makes_a_display_the_format_accepts) {
    Profile p{"t"};
    const ProcessHandle proc = p.add_process("proc", "7", ms(0));
    p.add_thread(proc, "main", 7, ms(0), true);
    const CounterDisplay displays[] = {
        CounterDisplay::memory("Heap"),
        CounterDisplay::byte_rate("Allocation"),
        CounterDisplay::event_count("Ticky: f", "entries", "Entries", GraphColor::magenta, 60),
    };
    for (const CounterDisplay& d : displays) {
        const CounterHandle c = p.add_counter(proc, d.label, "Memory", "", d);
        p.add_counter_sample(c, ms(1), 10);
        p.add_counter_sample(c, ms(2), 5);
    }
    const std::string json = profile_to_json(p);
    const auto problems = el2fx::check::validate_profile(json);
    BOOST_TEST(problems.empty(), (problems.empty() ? std::string() : problems.front()));
    const auto doc = parse_json(json);
    const auto& ticky = at(at(at(doc, "counters"), 2), "display");
    BOOST_TEST(std::string(at(ticky, "unit").GetString()) == "entries");
    BOOST_TEST(
        to_text(at(at(ticky, "tooltipRows"), 3)) ==
        R"({"type":"value","source":"selection-total","format":{"unit":"number"},"label":"Entries in the selection","requiresPreviewSelection":true})");
}

BOOST_AUTO_TEST_SUITE_END()
