#include <boost/test/unit_test.hpp>

#include "analysis/runtime/ticky.hpp"

using namespace el2fx::runtime;
using namespace el2fx::eventlog;

namespace {

TickyCounterSample sample(std::uint64_t id, std::uint64_t entries, std::uint64_t allocs = 0) {
    TickyCounterSample s;
    s.counter = id;
    s.entries = entries;
    s.allocs = allocs;
    return s;
}

TickyCounterDef def(std::uint64_t id, std::string_view name) {
    TickyCounterDef d;
    d.counter = id;
    d.arity = 2;
    d.counter_name = CString{name};
    d.arg_kinds = CString{"MM"};
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ticky)

BOOST_AUTO_TEST_CASE(a_definition_after_the_samples_names_the_counter) {
    TickyAggregator t;
    t.sample(10, sample(0xAB, 3));
    BOOST_REQUIRE(t.counters().size() == 1u);
    BOOST_TEST(!t.counters()[0].defined);
    BOOST_TEST(t.counters()[0].display_name() == "ticky counter 0xab");
    t.define(def(0xAB, "Main.fib{v r1} (fun)"));
    BOOST_TEST(t.counters().size() == 1u);
    BOOST_TEST(t.counters()[0].defined);
    BOOST_TEST(t.counters()[0].display_name() == "Main.fib{v r1} (fun)");
    BOOST_TEST(t.counters()[0].arg_kinds == "MM");
}

BOOST_AUTO_TEST_CASE(the_json_description_is_preferred_to_the_argument_kinds) {
    TickyAggregator t;
    TickyCounterDef d = def(1, "f");
    d.json_desc = CString{"{\"type\":\"entCntr\"}"};
    t.define(d);
    BOOST_TEST(t.counters()[0].arg_kinds == "{\"type\":\"entCntr\"}");
}

BOOST_AUTO_TEST_CASE(samples_are_increments_that_add_up) {
    TickyAggregator t;
    t.sample(10, sample(1, 5, 100));
    t.sample(20, sample(1, 7, 50));
    const TickyCounter& c = t.counters()[0];
    BOOST_TEST(c.samples.size() == 2u);
    BOOST_TEST(c.entries == 12u);
    BOOST_TEST(c.allocs == 150u);
    BOOST_TEST(t.total_samples() == 2u);
}

BOOST_AUTO_TEST_CASE(the_top_counters_are_the_most_entered_and_never_the_unentered) {
    TickyAggregator t;
    t.sample(10, sample(1, 5, 0));
    t.sample(10, sample(2, 9, 0));
    t.sample(10, sample(3, 5, 10));  // ties with 1 on entries, allocates more
    t.sample(10, sample(4, 0, 99));
    auto top = t.top_by_entries(10);
    BOOST_REQUIRE(top.size() == 3u);
    BOOST_TEST(top[0]->id == 2u);
    BOOST_TEST(top[1]->id == 3u);
    BOOST_TEST(top[2]->id == 1u);
    BOOST_TEST(t.top_by_entries(1).size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_round_collects_the_samples_after_its_begin) {
    TickyAggregator t;
    t.sample(5, sample(1, 1));  // before any round
    t.begin_round(10);
    t.sample(11, sample(1, 2, 16));
    t.sample(12, sample(2, 3, 16));
    t.begin_round(20);
    BOOST_REQUIRE(t.rounds().size() == 2u);
    BOOST_TEST(t.rounds()[0].time == 10u);
    BOOST_TEST(t.rounds()[0].samples == 2u);
    BOOST_TEST(t.rounds()[0].entries == 5u);
    BOOST_TEST(t.rounds()[0].allocs == 32u);
    BOOST_TEST(t.rounds()[1].samples == 0u);
    BOOST_TEST(!t.empty());
}

BOOST_AUTO_TEST_SUITE_END()
