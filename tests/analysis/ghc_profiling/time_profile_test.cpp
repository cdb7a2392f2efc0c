// The tick collector, where ticks stand in for virtual samples, and how the CPU time of the
// samples they replace is handed to them.
#include <boost/test/unit_test.hpp>

#include <numeric>

#include "events.hpp"
#include "analysis/ghc_profiling/tick_cpu.hpp"
#include "analysis/ghc_profiling/time_profile.hpp"

using namespace el2fx::profiling;
namespace ev = el2fx::eventlog;

BOOST_AUTO_TEST_SUITE(time_profile)

BOOST_AUTO_TEST_CASE(ticks_keep_their_capability_and_interned_root_first_stacks) {
    el2fx::testing::EventMaker m;
    TimeProfile p;
    BOOST_TEST(p.tick_interval() == 1'000'000u);  // the runtime's default before PROF_BEGIN
    p.handle(m.make(10, ev::ProfBegin{500'000}));
    p.handle(m.make(20, ev::ProfSampleCostCentre{0, 1, m.stack({15, 1, 14, 5})}));
    p.handle(m.make(21, ev::ProfSampleCostCentre{1, 1, m.stack({166})}));
    p.handle(m.make(30, ev::ProfSampleCostCentre{0, 2, m.stack({15, 1, 14, 5})}));
    p.handle(m.make(31, ev::ProfSampleCostCentre{70000, 2, m.stack({166})}));  // no such capability
    p.handle(m.make(40, ev::ProfSampleCostCentre{1, 3, m.stack({})}));
    BOOST_TEST(p.tick_interval() == 500'000u);
    BOOST_REQUIRE(p.ticks().size() == 4u);
    BOOST_TEST(p.bad_ticks() == 1u);
    BOOST_TEST(p.stack_count() == 3u);
    BOOST_TEST(p.ticks()[0].stack == p.ticks()[2].stack);
    BOOST_TEST(p.ticks()[1].cap == 1u);
    auto s = p.stack(p.ticks()[0].stack);
    BOOST_TEST((std::vector<std::uint32_t>(s.begin(), s.end()) == std::vector<std::uint32_t>{5, 14, 1, 15}));
    BOOST_TEST(p.stack(p.ticks()[3].stack).empty());
}

BOOST_AUTO_TEST_CASE(coverage_runs_from_one_interval_before_the_first_tick_to_the_last) {
    TickCoverage c;
    BOOST_TEST(c.empty());
    for (std::uint64_t t : {5000u, 6000u, 7000u}) c.add_tick(0, t, 1000);
    BOOST_TEST(!c.empty());
    BOOST_TEST(!c.covers(0, 4000));
    BOOST_TEST(c.covers(0, 4001));
    BOOST_TEST(c.covers(0, 6500));
    BOOST_TEST(c.covers(0, 7000));
    BOOST_TEST(!c.covers(0, 7001));
    BOOST_TEST(!c.covers(1, 6000));  // another capability: no ticks
    // A capability's ticks replace all its virtual samples; a thread's, its on-CPU ones.
    BOOST_TEST(c.replaces_capability_sample(0, 6000));
    BOOST_TEST(c.replaces_thread_sample(true, 0, 6000));
    BOOST_TEST(!c.replaces_thread_sample(false, 0, 6000));
    BOOST_TEST(!c.replaces_thread_sample(true, 1, 6000));
}

BOOST_AUTO_TEST_CASE(a_long_gap_between_ticks_leaves_the_gap_uncovered) {
    TickCoverage c;
    c.add_tick(2, 1000, 1000);
    c.add_tick(2, 2000, 1000);
    c.add_tick(2, 2000 + 10 * 1000, 1000);  // a gap of 10 intervals still counts as ticking
    c.add_tick(2, 50'000, 1000);            // the time profiler was stopped in between
    BOOST_TEST(c.covers(2, 8000));
    BOOST_TEST(!c.covers(2, 30'000));
    BOOST_TEST(!c.covers(2, 49'000));
    BOOST_TEST(c.covers(2, 49'001));
    BOOST_TEST(c.covers(2, 1));
    BOOST_TEST(!c.covers(2, 0));
    c.clear();
    BOOST_TEST(!c.covers(2, 8000));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(tick_cpu)

namespace {

std::uint64_t sum(const TickCpu& r) {
    std::uint64_t s = std::accumulate(r.per_tick.begin(), r.per_tick.end(), std::uint64_t{0});
    for (const CpuCarrier& c : r.carriers) s += c.cpu;
    return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(ticks_take_the_cpu_time_of_the_samples_they_replace) {
    // On-CPU all along 0..3000; virtual samples every 1000, all replaced; ticks at 500, 1500, 2500.
    std::vector<TimeInterval> on = {{0, 3000}};
    std::vector<VirtualSampleRef> v = {{1000, 1000, true}, {2000, 1000, true}, {3000, 1000, true}};
    std::vector<std::uint64_t> ticks = {500, 1500, 2500};
    TickCpu r = distribute_replaced_cpu(on, v, ticks);
    BOOST_TEST((r.per_tick == std::vector<std::uint64_t>{500, 1000, 1000}));
    // What no tick took after the last one goes to a carrier at the last replaced sample.
    BOOST_TEST((r.carriers == std::vector<CpuCarrier>{{3000, 500}}));
    BOOST_TEST(sum(r) == 3000u);
}

BOOST_AUTO_TEST_CASE(kept_samples_keep_their_own_cpu_time_and_ticks_take_only_the_rest) {
    // Runs 0..1500, sleeps, runs 4000..5000. The virtual timer gave: an on-CPU sample at 1000
    // (replaced), the group begin at 1500 carrying 500 (kept, off-CPU), the group end at 3500
    // (kept), on-CPU at 5000 (replaced).
    std::vector<TimeInterval> on = {{0, 1500}, {4000, 5000}};
    std::vector<VirtualSampleRef> v = {{1000, 1000, true}, {1500, 500, false}, {3500, 0, false}, {5000, 1000, true}};
    std::vector<std::uint64_t> ticks = {800, 4800};
    TickCpu r = distribute_replaced_cpu(on, v, ticks);
    // The tick at 800 takes 0..800; 800..1000 is replaced time no tick took before the kept
    // sample at 1500: a carrier at 1000. The kept sample itself carries 1000..1500.
    BOOST_TEST((r.per_tick == std::vector<std::uint64_t>{800, 800}));
    BOOST_TEST((r.carriers == std::vector<CpuCarrier>{{1000, 200}, {5000, 200}}));
    BOOST_TEST(sum(r) + 500 == 2500u);  // with the kept sample's 500: all on-CPU time, once
}

BOOST_AUTO_TEST_CASE(off_cpu_time_gives_ticks_nothing) {
    std::vector<TimeInterval> on = {{0, 100}, {900, 1000}};
    std::vector<VirtualSampleRef> v = {{1000, 200, true}};
    std::vector<std::uint64_t> ticks = {500, 1000};
    TickCpu r = distribute_replaced_cpu(on, v, ticks);
    BOOST_TEST((r.per_tick == std::vector<std::uint64_t>{100, 100}));
    BOOST_TEST(r.carriers.empty());
}

BOOST_AUTO_TEST_CASE(without_replaced_samples_ticks_get_nothing) {
    std::vector<TimeInterval> on = {{0, 1000}};
    std::vector<VirtualSampleRef> v = {{1000, 1000, false}};
    TickCpu r = distribute_replaced_cpu(on, v, std::vector<std::uint64_t>{400, 800});
    BOOST_TEST((r.per_tick == std::vector<std::uint64_t>{0, 0}));
    BOOST_TEST(r.carriers.empty());
    TickCpu none = distribute_replaced_cpu({}, {}, {});
    BOOST_TEST(none.per_tick.empty());
    BOOST_TEST(none.carriers.empty());
}

BOOST_AUTO_TEST_CASE(replaced_time_before_the_first_tick_goes_to_it) {
    // The ticks start late; the replaced samples before them carry their CPU to the first tick,
    // as long as no kept sample comes between.
    std::vector<TimeInterval> on = {{0, 4000}};
    std::vector<VirtualSampleRef> v = {{1000, 1000, false}, {2000, 1000, true}, {3000, 1000, true}, {4000, 1000, true}};
    TickCpu r = distribute_replaced_cpu(on, v, std::vector<std::uint64_t>{2500, 3500});
    BOOST_TEST((r.per_tick == std::vector<std::uint64_t>{1500, 1000}));
    BOOST_TEST((r.carriers == std::vector<CpuCarrier>{{4000, 500}}));
    BOOST_TEST(sum(r) == 3000u);
}

BOOST_AUTO_TEST_SUITE_END()
