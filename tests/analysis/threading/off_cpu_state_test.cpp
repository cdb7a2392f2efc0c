// off_cpu_state: every STOP_THREAD status has one kind, the words a profile shows for it, and
// the tally that names a merged group by the status that took most of its time.
#include <boost/test/unit_test.hpp>

#include "analysis/threading/off_cpu_state.hpp"
#include "eventlog/event_types.hpp"

using namespace el2fx::analysis;
using el2fx::eventlog::StopStatus;

namespace {
std::uint16_t code(StopStatus s) { return static_cast<std::uint16_t>(s); }
}  // namespace

BOOST_AUTO_TEST_SUITE(off_cpu_state)

BOOST_AUTO_TEST_CASE(heap_and_stack_overflow_wait_for_the_gc) {
    BOOST_TEST((off_cpu_kind(code(StopStatus::HeapOverflow)) == OffCpuKind::waiting_for_gc));
    BOOST_TEST((off_cpu_kind(code(StopStatus::StackOverflow)) == OffCpuKind::waiting_for_gc));
    BOOST_TEST(off_cpu_marker_name(code(StopStatus::HeapOverflow)) == "Waiting for GC");
}

BOOST_AUTO_TEST_CASE(yielding_and_migrating_threads_are_runnable) {
    BOOST_TEST((off_cpu_kind(code(StopStatus::ThreadYielding)) == OffCpuKind::runnable));
    BOOST_TEST((off_cpu_kind(code(StopStatus::ThreadMigrating)) == OffCpuKind::runnable));
    BOOST_TEST(off_cpu_marker_name(code(StopStatus::ThreadYielding)) == "Runnable");
}

BOOST_AUTO_TEST_CASE(foreign_calls_are_their_own_kind) {
    for (StopStatus s :
         {StopStatus::ForeignCall, StopStatus::BlockedOnCCall, StopStatus::BlockedOnCCall_Interruptible}) {
        BOOST_TEST((off_cpu_kind(code(s)) == OffCpuKind::foreign_call));
        BOOST_TEST(off_cpu_marker_name(code(s)) == "In foreign call");
    }
}

BOOST_AUTO_TEST_CASE(real_blocking_reasons_are_blocked_and_named_by_their_reason) {
    for (StopStatus s :
         {StopStatus::ThreadBlocked, StopStatus::BlockedOnMVar, StopStatus::BlockedOnBlackHole,
          StopStatus::BlockedOnRead, StopStatus::BlockedOnWrite, StopStatus::BlockedOnDelay, StopStatus::BlockedOnSTM,
          StopStatus::BlockedOnDoProc, StopStatus::BlockedOnMsgThrowTo, StopStatus::BlockedOnMVarRead})
        BOOST_TEST((off_cpu_kind(code(s)) == OffCpuKind::blocked), code(s));
    BOOST_TEST(off_cpu_marker_name(code(StopStatus::BlockedOnMVar)) == "Blocked on an MVar");
    BOOST_TEST(off_cpu_marker_name(code(StopStatus::BlockedOnSTM)) == "Blocked in STM retry");
    BOOST_TEST(off_cpu_marker_name(code(StopStatus::ThreadBlocked)) == "Blocked (thread blocked)");
}

BOOST_AUTO_TEST_CASE(unknown_statuses_are_blocked_and_say_their_code) {
    BOOST_TEST((off_cpu_kind(99) == OffCpuKind::blocked));
    BOOST_TEST(off_cpu_marker_name(99) == "Blocked (unknown status 99)");
}

BOOST_AUTO_TEST_CASE(kinds_have_root_frame_names) {
    BOOST_TEST(off_cpu_kind_name(OffCpuKind::waiting_for_gc) == "Waiting for GC");
    BOOST_TEST(off_cpu_kind_name(OffCpuKind::runnable) == "Runnable");
    BOOST_TEST(off_cpu_kind_name(OffCpuKind::foreign_call) == "In foreign call");
    BOOST_TEST(off_cpu_kind_name(OffCpuKind::blocked) == "Blocked");
}

BOOST_AUTO_TEST_CASE(tally_names_the_status_with_the_most_time) {
    StopStatusTally t;
    t.add(code(StopStatus::BlockedOnBlackHole), 50);
    for (int i = 0; i < 7; ++i) t.add(code(StopStatus::BlockedOnMVar), 10);
    BOOST_TEST(t.dominant() == code(StopStatus::BlockedOnMVar));  // 70 > 50
}

BOOST_AUTO_TEST_CASE(tally_ties_go_to_the_lowest_status_and_no_time_to_the_first) {
    StopStatusTally t;
    t.add(code(StopStatus::BlockedOnSTM), 5);
    t.add(code(StopStatus::BlockedOnMVar), 5);
    BOOST_TEST(t.dominant() == code(StopStatus::BlockedOnMVar));
    t.reset();
    BOOST_TEST(t.dominant() == 0);
    t.add(code(StopStatus::BlockedOnSTM), 0);
    t.add(code(StopStatus::BlockedOnMVar), 0);
    BOOST_TEST(t.dominant() == code(StopStatus::BlockedOnSTM));
}

BOOST_AUTO_TEST_CASE(tally_keeps_a_large_unknown_status) {
    StopStatusTally t;
    t.add(code(StopStatus::BlockedOnMVar), 1);
    t.add(400, 9);
    BOOST_TEST(t.dominant() == 400);
}

BOOST_AUTO_TEST_SUITE_END()
