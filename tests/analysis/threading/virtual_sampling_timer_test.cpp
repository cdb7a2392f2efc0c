// The virtual sampling timer: ticks while on-CPU, off-CPU groups on switch-in,
// and CPU deltas that add up to the on-CPU time.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <memory_resource>
#include <random>
#include <vector>

#include "analysis/threading/virtual_sampling_timer.hpp"
#include "printing.hpp"

using namespace el2fx::analysis;

namespace {
using Timer = VirtualSamplingTimer<ThreadActivity>;
using ThreadSample = Sample<ThreadActivity>;
using CapSample = Sample<CapabilityActivity>;

const ThreadActivity kRun = ThreadActivity::running(0);
const ThreadActivity kYield = ThreadActivity::blocked(BlockReason{3, 0});
const ThreadActivity kMVar = ThreadActivity::blocked(BlockReason{7, 0});

template <class Want = std::vector<ThreadSample>>
void check_samples(const std::pmr::vector<ThreadSample>& got, const Want& want) {
    BOOST_TEST(got == want, boost::test_tools::per_element());
}
}  // namespace

BOOST_AUTO_TEST_SUITE(virtual_sampling_timer)

BOOST_AUTO_TEST_CASE(timer_default_interval_is_one_millisecond) {
    BOOST_TEST(kDefaultSamplingIntervalNs == 1'000'000u);
    Timer t;
    t.switch_in(500'000, kRun);
    t.finish(2'500'000);
    check_samples(t.samples(),
                  {{1'000'000, 500'000, 1, kRun}, {2'000'000, 1'000'000, 1, kRun}, {2'500'000, 500'000, 0, kRun}});
}

// One corrupt timestamp once kept a thread "running" for centuries, and the timer ticked
// through every millisecond of them: a stretch gets kMaxSamplesPerGap samples at most.
BOOST_AUTO_TEST_CASE(timer_work_is_bounded_by_the_transitions_not_the_nanoseconds) {
    Timer t;
    const std::uint64_t far = std::uint64_t{1} << 60;  // 36 years
    t.switch_in(500'000, kRun);
    t.switch_out(far, kYield);
    t.switch_in(far + 10'000'000, kRun);
    t.finish(far + 12'000'000);
    const auto& s = t.samples();
    BOOST_TEST(s.size() <= kMaxSamplesPerGap + 10);
    std::uint64_t weight = 0, cpu = 0;
    for (const ThreadSample& x : s) weight += x.weight, cpu += x.cpu_delta_ns;
    BOOST_TEST(cpu == (far - 500'000) + 2'000'000);    // every on-CPU nanosecond, as before
    BOOST_TEST(weight == (far / 1'000'000) + 10 + 2);  // a tick per interval on-CPU, 10 off-CPU
    BOOST_TEST(std::is_sorted(s.begin(), s.end(),
                              [](const ThreadSample& a, const ThreadSample& b) { return a.time < b.time; }));
}

BOOST_AUTO_TEST_CASE(timer_stretch_at_the_bound_still_gets_a_sample_per_tick) {
    Timer t(10);
    t.switch_in(0, kRun);
    t.finish(10 * kMaxSamplesPerGap - 5);
    BOOST_TEST(t.samples().size() == kMaxSamplesPerGap + 1);  // ticks 0..(n-1)*10, then the CPU delta left
    for (std::size_t i = 0; i < kMaxSamplesPerGap; ++i) BOOST_TEST_REQUIRE(t.samples()[i].weight == 1u);
}

// A timer's buffer comes from the memory it is given (ThreadingAnalysis's pool, where millions
// of threads' timers come and go), and drain() keeps it for the next samples.
BOOST_AUTO_TEST_CASE(timer_takes_its_buffer_from_the_memory_it_is_given) {
    struct Counting : std::pmr::memory_resource {
        int allocations = 0;
        void* do_allocate(std::size_t bytes, std::size_t align) override {
            ++allocations;
            return std::pmr::new_delete_resource()->allocate(bytes, align);
        }
        void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
            std::pmr::new_delete_resource()->deallocate(p, bytes, align);
        }
        bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
    } memory;
    Timer t(10, &memory);
    t.switch_in(5, kRun);
    t.switch_out(25, kYield);
    BOOST_TEST(memory.allocations > 0);
    std::vector<ThreadSample> got;
    t.drain([&](const ThreadSample& s) { got.push_back(s); });
    BOOST_TEST(got.size() == 2u);
    const int before = memory.allocations;
    t.switch_in(27, kRun);
    t.switch_out(45, kYield);
    BOOST_TEST(t.samples().size() == 2u);
    BOOST_TEST(memory.allocations == before);  // the drained buffer holds them
}

// Timers without a buffer of their own append to the caller's (ThreadLives keeps one for every
// thread and drains it after each transition): interleaved on one buffer, each thread's
// samples are what a timer of its own gives it, and a timer never touches samples before
// the ones it appends.
BOOST_AUTO_TEST_CASE(unbuffered_timers_sharing_a_buffer_give_each_its_own_samples) {
    std::mt19937 rng(11);
    for (int round = 0; round < 100; ++round) {
        const std::uint64_t interval = 1 + rng() % 20;
        std::array<Timer, 2> own{Timer(interval), Timer(interval)};
        std::array<UnbufferedSamplingTimer<ThreadActivity>, 2> shared{
            UnbufferedSamplingTimer<ThreadActivity>(interval), UnbufferedSamplingTimer<ThreadActivity>(interval)};
        UnbufferedSamplingTimer<ThreadActivity>::Samples buffer;
        std::array<std::pmr::vector<ThreadSample>, 2> got;
        const ThreadSample sentinel{1, 2, 3, kMVar};  // left by the caller: never read or changed
        std::uint64_t now = 0;
        for (int i = 0; i < 60; ++i) {
            const std::size_t which = rng() % 2;
            now += rng() % 30;
            const int pick = static_cast<int>(rng() % 4);
            buffer.assign(1, sentinel);
            if (pick == 3) {
                own[which].finish(now);
                shared[which].finish(now, buffer);
            } else {
                const ThreadActivity key = pick == 0 ? kRun : pick == 1 ? kYield : kMVar;
                own[which].enter(now, key);
                shared[which].enter(now, key, buffer);
            }
            BOOST_TEST_REQUIRE(buffer.front() == sentinel);
            got[which].insert(got[which].end(), buffer.begin() + 1, buffer.end());
        }
        for (std::size_t i = 0; i < 2; ++i) check_samples(own[i].samples(), got[i]);
    }
}

BOOST_AUTO_TEST_CASE(timer_on_cpu_thread_gets_a_sample_at_each_tick) {
    Timer t(10);
    t.switch_in(5, kRun);
    t.finish(35);
    check_samples(t.samples(), {{10, 5, 1, kRun}, {20, 10, 1, kRun}, {30, 10, 1, kRun}, {35, 5, 0, kRun}});
}

BOOST_AUTO_TEST_CASE(timer_off_cpu_thread_gets_no_ticks_and_finish_closes_its_sleep) {
    Timer t(10);
    t.switch_in(1, kRun);
    t.switch_out(2, kYield);
    t.finish(100);
    // 98 off: 9 intervals, 8 left over; the first sample carries the 1 ns run.
    check_samples(t.samples(), {{12, 1, 1, kYield}, {92, 0, 8, kYield}});
}

BOOST_AUTO_TEST_CASE(timer_unknown_switch_out_starts_a_sleep) {
    VirtualSamplingTimer<CapabilityActivity> t(10);
    t.switch_out(3, CapabilityActivity::idle());
    t.switch_in(30, CapabilityActivity::gc());
    const std::vector<CapSample> want{{13, 0, 1, CapabilityActivity::idle()}, {23, 0, 1, CapabilityActivity::idle()}};
    BOOST_TEST(t.samples() == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(timer_switch_in_after_short_sleep_emits_nothing) {
    Timer t(10);
    t.switch_in(1, kRun);
    t.switch_out(3, kYield);
    t.switch_in(8, kRun);
    BOOST_TEST(t.samples().empty());
    t.finish(9);
    check_samples(t.samples(), {{9, 3, 0, kRun}});
}

BOOST_AUTO_TEST_CASE(timer_tick_at_switch_out_time_sees_the_thread_off_cpu) {
    Timer t(10);
    t.switch_in(1, kRun);
    t.switch_out(10, kYield);
    t.switch_in(13, kRun);
    t.finish(20);
    check_samples(t.samples(), {{20, 16, 0, kRun}});  // no tick at 10 nor, yet, at 20
}

BOOST_AUTO_TEST_CASE(timer_tick_at_switch_in_time_sees_the_thread_on_cpu) {
    Timer t(10);
    t.switch_in(1, kRun);
    t.switch_out(5, kYield);
    t.switch_in(10, kRun);
    t.finish(15);
    check_samples(t.samples(), {{10, 4, 1, kRun}, {15, 5, 0, kRun}});
}

BOOST_AUTO_TEST_CASE(timer_activity_change_while_on_cpu_changes_the_tick_key) {
    VirtualSamplingTimer<CapabilityActivity> t(10);
    t.switch_in(1, CapabilityActivity::gc());
    t.switch_in(15, CapabilityActivity::mutator(3));
    t.finish(25);
    const std::vector<CapSample> want{{10, 9, 1, CapabilityActivity::gc()},
                                      {20, 10, 1, CapabilityActivity::mutator(3)},
                                      {25, 5, 0, CapabilityActivity::mutator(3)}};
    BOOST_TEST(t.samples() == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(timer_reason_change_while_off_cpu_closes_the_sleep_under_the_old_reason) {
    Timer t(10);
    t.switch_in(0, kRun);
    t.switch_out(5, kYield);
    t.switch_out(20, kMVar);  // 15 off while yielding: one interval, 5 left over
    t.switch_in(40, kRun);    // 20 more while blocked on the MVar: 25, two intervals
    check_samples(t.samples(), {{0, 0, 1, kRun}, {15, 5, 1, kYield}, {25, 0, 1, kMVar}, {35, 0, 1, kMVar}});
}

BOOST_AUTO_TEST_CASE(timer_duplicate_switch_out_with_the_same_reason_is_ignored) {
    Timer t(10);
    t.switch_in(0, kRun);
    t.switch_out(5, kYield);
    t.switch_out(8, kYield);
    t.switch_in(25, kRun);
    check_samples(t.samples(), {{0, 0, 1, kRun}, {15, 5, 1, kYield}, {25, 0, 1, kYield}});
}

BOOST_AUTO_TEST_CASE(timer_enter_switches_as_the_key_says) {
    Timer a(10), b(10);
    a.enter(1, kRun);
    a.enter(4, kYield);
    a.enter(30, kRun);
    b.switch_in(1, kRun);
    b.switch_out(4, kYield);
    b.switch_in(30, kRun);
    check_samples(a.samples(), b.samples());
}

BOOST_AUTO_TEST_CASE(timer_finish_is_final) {
    Timer t(10);
    t.switch_in(1, kRun);
    t.finish(5);
    t.switch_out(6, kYield);
    t.switch_in(50, kRun);
    t.finish(70);
    check_samples(t.samples(), {{5, 4, 0, kRun}});
}

BOOST_AUTO_TEST_CASE(timer_finish_before_any_transition_emits_nothing) {
    Timer t(10);
    t.finish(100);
    BOOST_TEST(t.samples().empty());
}

// The seed's it_works timeline (interval 10) driven through the timer, with
// ticks at every multiple of 10 instead of the seed's two explicit samples.
BOOST_AUTO_TEST_CASE(timer_it_works_timeline) {
    Timer t(10);
    t.switch_in(0, kRun);
    t.switch_out(3, kYield);
    t.switch_in(5, kRun);
    t.switch_out(13, kYield);
    t.switch_in(15, kRun);
    t.switch_out(16, kYield);
    t.switch_in(21, kRun);
    t.switch_out(23, kYield);
    t.switch_in(27, kRun);
    t.switch_out(30, kYield);
    t.switch_in(48, kRun);
    t.finish(62);
    check_samples(t.samples(), {{0, 0, 1, kRun},
                                {10, 8, 1, kRun},
                                {24, 6, 1, kYield},
                                {37, 3, 1, kYield},
                                {47, 0, 1, kYield},
                                {50, 2, 1, kRun},
                                {60, 10, 1, kRun},
                                {62, 2, 0, kRun}});
}

BOOST_AUTO_TEST_CASE(timer_cpu_deltas_add_up_to_on_cpu_time_for_random_transitions) {
    std::mt19937 rng(7);
    for (int round = 0; round < 300; ++round) {
        const std::uint64_t interval = 1 + rng() % 20;
        Timer t(interval);
        std::uint64_t now = rng() % 50, on_time = 0, off_time = 0;
        bool on = rng() % 2;
        t.enter(now, on ? kRun : kYield);
        for (int i = 0; i < 40; ++i) {
            const std::uint64_t step = rng() % 30;
            (on ? on_time : off_time) += step;
            now += step;
            const int pick = static_cast<int>(rng() % 3);
            on = pick == 0;
            t.enter(now, pick == 0 ? kRun : pick == 1 ? kYield : kMVar);
        }
        const std::uint64_t step = rng() % 30;
        (on ? on_time : off_time) += step;
        now += step;
        t.finish(now);

        std::uint64_t cpu = 0, off_weight = 0, previous = 0;
        for (const ThreadSample& s : t.samples()) {
            cpu += s.cpu_delta_ns;
            if (!is_on_cpu(s.key)) off_weight += s.weight;
            BOOST_TEST(s.time >= previous);
            previous = s.time;
        }
        BOOST_TEST(cpu == on_time);
        BOOST_TEST(off_weight <= off_time / interval);
    }
}

BOOST_AUTO_TEST_SUITE_END()
