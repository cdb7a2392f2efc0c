// One test or more per transition of the window's prelude (window/window_prelude.hpp): what
// each event before the window's start leaves in the state stated at the start.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "make_event.hpp"
#include "window/window_prelude.hpp"

using namespace el2fx::eventlog;
using el2fx::testing::make_event;
using el2fx::window::WindowPrelude;

namespace {

constexpr std::uint16_t kMVar = 7;
constexpr std::uint16_t kFinished = 5;

// The stated events of one type.
template <typename P>
std::vector<Event> of(const std::vector<Event>& events) {
    std::vector<Event> out;
    for (const Event& e : events)
        if (e.as<P>()) out.push_back(e);
    return out;
}

Event label(std::uint64_t time, CapNo cap, ThreadId thread, std::string_view text) {
    return make_event(time, cap, ThreadLabel{thread, Text{text}});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(window_prelude)

BOOST_AUTO_TEST_CASE(empty_prelude_states_nothing) {
    WindowPrelude p;
    BOOST_TEST(p.state_at(100).empty());
}

BOOST_AUTO_TEST_CASE(every_stated_event_is_synthetic_and_stamped_at_the_start) {
    WindowPrelude p;
    p.handle(make_event(10, CapNo{0}, RunThread{1}));
    p.handle(make_event(20, std::nullopt, RtsIdentifier{0, Text{"GHC-9.4.7 rts_thr"}}));
    std::vector<Event> s = p.state_at(100);
    BOOST_TEST(!s.empty());
    for (const Event& e : s) {
        BOOST_TEST(e.time == 100u);
        BOOST_TEST(e.synthetic);
    }
}

BOOST_AUTO_TEST_CASE(capability_seen_gets_a_block_marker_at_the_start) {
    WindowPrelude p;
    p.handle(make_event(10, CapNo{2}, StartGC{}));
    p.handle(make_event(20, CapNo{2}, EndGC{}));
    auto blocks = of<BlockMarker>(p.state_at(100));
    BOOST_REQUIRE(blocks.size() == 1u);
    BOOST_TEST(*blocks[0].cap == 2u);
}

BOOST_AUTO_TEST_CASE(run_thread_states_running_on_its_capability) {
    WindowPrelude p;
    p.handle(make_event(10, CapNo{1}, RunThread{7}));
    auto runs = of<RunThread>(p.state_at(100));
    BOOST_REQUIRE(runs.size() == 1u);
    BOOST_TEST(runs[0].as<RunThread>()->thread == 7u);
    BOOST_TEST(*runs[0].cap == 1u);
    BOOST_TEST(of<StopThread>(p.state_at(100)).empty());
}

BOOST_AUTO_TEST_CASE(stop_thread_states_stopped_with_status_and_blocker) {
    WindowPrelude p;
    p.handle(make_event(10, CapNo{1}, RunThread{7}));
    p.handle(make_event(20, CapNo{1}, StopThread{7, 8, ThreadId{3}}));
    std::vector<Event> s = p.state_at(100);
    BOOST_TEST(of<RunThread>(s).empty());
    auto stops = of<StopThread>(s);
    BOOST_REQUIRE(stops.size() == 1u);
    BOOST_TEST(stops[0].as<StopThread>()->status == 8u);
    BOOST_TEST(*stops[0].as<StopThread>()->blocker == 3u);
    BOOST_TEST(*stops[0].cap == 1u);
}

BOOST_AUTO_TEST_CASE(stopped_threads_come_before_running_ones) {
    WindowPrelude p;
    p.handle(make_event(10, CapNo{0}, RunThread{1}));
    p.handle(make_event(20, CapNo{0}, StopThread{1, kMVar, std::nullopt}));
    p.handle(make_event(30, CapNo{0}, RunThread{2}));
    std::vector<Event> s = p.state_at(100);
    std::size_t stop = s.size(), run = s.size();
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i].as<StopThread>()) stop = i;
        if (s[i].as<RunThread>()) run = i;
    }
    BOOST_TEST(stop < run);
    BOOST_TEST(run < s.size());
}

BOOST_AUTO_TEST_CASE(finished_thread_is_forgotten_with_its_label) {
    WindowPrelude p;
    p.handle(label(5, 0, 7, "worker"));
    p.handle(make_event(10, CapNo{0}, RunThread{7}));
    p.handle(make_event(20, CapNo{0}, StopThread{7, kFinished, std::nullopt}));
    std::vector<Event> s = p.state_at(100);
    BOOST_TEST(of<StopThread>(s).empty());
    BOOST_TEST(of<RunThread>(s).empty());
    BOOST_TEST(of<ThreadLabel>(s).empty());
}

BOOST_AUTO_TEST_CASE(label_is_kept_and_owns_its_text) {
    WindowPrelude p;
    std::string buffer = "worker";
    p.handle(label(5, 0, 7, buffer));
    buffer = "XXXXXX";  // the decoder's buffer is reused
    p.handle(label(6, 0, 8, "first"));
    p.handle(label(7, 0, 8, "second"));
    auto labels = of<ThreadLabel>(p.state_at(100));
    BOOST_REQUIRE(labels.size() == 2u);
    BOOST_TEST(labels[0].as<ThreadLabel>()->label.bytes == "worker");
    BOOST_TEST(labels[1].as<ThreadLabel>()->label.bytes == "second");
}

BOOST_AUTO_TEST_CASE(migrate_thread_moves_a_stopped_thread) {
    WindowPrelude p;
    p.handle(make_event(10, CapNo{0}, StopThread{7, 3, std::nullopt}));
    p.handle(make_event(20, CapNo{0}, MigrateThread{7, 1}));
    auto stops = of<StopThread>(p.state_at(100));
    BOOST_REQUIRE(stops.size() == 1u);
    BOOST_TEST(*stops[0].cap == 1u);
}

BOOST_AUTO_TEST_CASE(gc_start_states_a_collection_under_way) {
    WindowPrelude p;
    p.handle(make_event(10, CapNo{0}, StartGC{}));
    p.handle(make_event(11, CapNo{1}, StartGC{}));
    p.handle(make_event(20, CapNo{1}, EndGC{}));
    auto gcs = of<StartGC>(p.state_at(100));
    BOOST_REQUIRE(gcs.size() == 1u);
    BOOST_TEST(*gcs[0].cap == 0u);
}

BOOST_AUTO_TEST_CASE(latest_definition_of_a_kind_wins) {
    WindowPrelude p;
    p.handle(make_event(1, std::nullopt, ProgramArgs{0, StringList{std::string_view("old\0a", 5)}}));
    p.handle(make_event(2, std::nullopt, ProgramArgs{0, StringList{std::string_view("new\0b", 5)}}));
    auto args = of<ProgramArgs>(p.state_at(100));
    BOOST_REQUIRE(args.size() == 1u);
    BOOST_TEST(args[0].as<ProgramArgs>()->args.bytes == std::string_view("new\0b", 5));
}

BOOST_AUTO_TEST_CASE(definitions_accumulate_until_deleted) {
    WindowPrelude p;
    p.handle(make_event(1, std::nullopt, HeapProfCostCentre{1, CString{"f"}, CString{"M"}, CString{"M.hs:1:1"}, 0}));
    p.handle(make_event(2, std::nullopt, HeapProfCostCentre{2, CString{"g"}, CString{"M"}, CString{"M.hs:2:1"}, 0}));
    p.handle(make_event(3, std::nullopt, TaskCreate{11, 0, 111}));
    p.handle(make_event(4, std::nullopt, TaskCreate{12, 0, 112}));
    p.handle(make_event(5, std::nullopt, TaskDelete{11}));
    std::vector<Event> s = p.state_at(100);
    BOOST_TEST(of<HeapProfCostCentre>(s).size() == 2u);
    auto tasks = of<TaskCreate>(s);
    BOOST_REQUIRE(tasks.size() == 1u);
    BOOST_TEST(tasks[0].as<TaskCreate>()->task == 12u);
}

BOOST_AUTO_TEST_CASE(wall_clock_moves_with_its_stamp) {
    WindowPrelude p;
    p.handle(make_event(1'000, std::nullopt, WallClockTime{0, 1'700'000'000, 999'999'500}));
    auto walls = of<WallClockTime>(p.state_at(2'000));
    BOOST_REQUIRE(walls.size() == 1u);
    BOOST_TEST(walls[0].as<WallClockTime>()->sec == 1'700'000'001u);
    BOOST_TEST(walls[0].as<WallClockTime>()->nsec == 500u);
}

BOOST_AUTO_TEST_CASE(heap_levels_state_the_last_value) {
    WindowPrelude p;
    p.handle(make_event(1, CapNo{0}, HeapSize{0, 100}));
    p.handle(make_event(2, CapNo{0}, HeapSize{0, 300}));
    auto sizes = of<HeapSize>(p.state_at(100));
    BOOST_REQUIRE(sizes.size() == 1u);
    BOOST_TEST(sizes[0].as<HeapSize>()->size_bytes == 300u);
}

BOOST_AUTO_TEST_CASE(heap_allocated_is_a_baseline_not_a_stated_event) {
    WindowPrelude p;
    p.handle(make_event(1, CapNo{0}, HeapAllocated{0, 1000}));
    p.handle(make_event(2, CapNo{1}, HeapAllocated{0, 50}));
    BOOST_TEST(of<HeapAllocated>(p.state_at(100)).empty());
    BOOST_TEST(p.baselines().allocated_since(0, 1500) == 500u);
    BOOST_TEST(p.baselines().allocated_since(1, 80) == 30u);
    BOOST_TEST(p.baselines().allocated_since(3, 80) == 80u);  // no baseline: all of it
}

BOOST_AUTO_TEST_CASE(spark_counters_are_a_baseline_except_remaining) {
    WindowPrelude p;
    p.handle(make_event(1, CapNo{0}, SparkCounters{10, 1, 2, 3, 4, 5, 6}));
    SparkCounters s = p.baselines().sparks_since(0, SparkCounters{20, 2, 4, 6, 8, 10, 3});
    BOOST_TEST(s.created == 10u);
    BOOST_TEST(s.fizzled == 5u);
    BOOST_TEST(s.remaining == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
