// The heap counters and the non-moving collector's phases.
#include <boost/test/unit_test.hpp>

#include "analysis/gc/heap_counters.hpp"
#include "analysis/gc/nonmoving_tracker.hpp"
#include "gc_test_util.hpp"

using namespace el2fx::gc;
using namespace el2fx::gc::testing;

BOOST_AUTO_TEST_SUITE(heap_counters)

BOOST_AUTO_TEST_CASE(levels_are_samples_and_allocation_adds_up_over_capabilities) {
    HeapCounters h;
    BOOST_TEST(!h.handle(event(1, 0, ev::StartGC{})));
    auto size = h.handle(event(10, 0, ev::HeapSize{0, 3 << 20}));
    BOOST_REQUIRE(size);
    BOOST_TEST(static_cast<int>(size->quantity) == static_cast<int>(HeapQuantity::heap_size));
    BOOST_TEST(size->value == (3u << 20));
    BOOST_TEST(size->time == 10u);
    auto live = h.handle(event(11, 0, ev::HeapLive{0, 1234}));
    BOOST_TEST(static_cast<int>(live->quantity) == static_cast<int>(HeapQuantity::heap_live));
    auto blocks = h.handle(event(12, 0, ev::BlocksSize{0, 4096}));
    BOOST_TEST(static_cast<int>(blocks->quantity) == static_cast<int>(HeapQuantity::blocks_size));

    const HeapSample a0 = *h.handle(event(20, 0, ev::HeapAllocated{0, 100}));
    const HeapSample a1 = *h.handle(event(21, 1, ev::HeapAllocated{0, 300}));
    const HeapSample a0b = *h.handle(event(30, 0, ev::HeapAllocated{0, 150}));
    BOOST_TEST(!h.handle(event(31, 0, ev::EndGC{})));  // not the last sample again
    BOOST_TEST(*a0.cap == 0u);
    BOOST_TEST(a0.value == 100u);
    BOOST_TEST(a0.total_allocated == 100u);
    BOOST_TEST(a1.total_allocated == 400u);
    BOOST_TEST(a0b.value == 150u);
    BOOST_TEST(a0b.total_allocated == 450u);
}

BOOST_AUTO_TEST_CASE(memory_returned_counts_megablocks_of_the_declared_size) {
    HeapCounters h;
    auto before = h.handle(event(5, 0, ev::MemReturn{0, 4, 3, 1}));
    BOOST_TEST(before->value == (1u << 20));  // 1 MiB megablocks until HEAP_INFO_GHC says otherwise
    h.handle(event(6, std::nullopt, ev::HeapInfoGHC{0, 2, 0, 1 << 20, 2 << 20, 4096}));
    BOOST_TEST(h.mblock_size() == (2u << 20));
    auto r = h.handle(event(10, 0, ev::MemReturn{0, 4, 3, 1}));
    BOOST_REQUIRE(r);
    BOOST_TEST(static_cast<int>(r->quantity) == static_cast<int>(HeapQuantity::mem_returned));
    BOOST_TEST(r->value == (2u << 20));
    BOOST_TEST(r->mem.current == 4u * (2u << 20));
    BOOST_TEST(r->mem.needed == 3u * (2u << 20));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(nonmoving)

BOOST_AUTO_TEST_CASE(begin_end_pairs_become_phases_with_the_marked_count) {
    NonmovingTracker t;
    BOOST_TEST(t.handle(event(100, std::nullopt, ev::ConcMarkBegin{})).empty());
    NonmovingRecord r = t.handle(event(200, std::nullopt, ev::ConcMarkEnd{2094}));
    BOOST_REQUIRE(r.phase);
    BOOST_TEST(static_cast<int>(r.phase->phase) == static_cast<int>(ConcurrentPhase::mark));
    BOOST_TEST(r.phase->start == 100u);
    BOOST_TEST(*r.phase->end == 200u);
    BOOST_TEST(*r.phase->marked_objects == 2094u);
    BOOST_TEST(r.phase->begins == 1u);
    r = t.handle(event(300, std::nullopt, ev::ConcSweepBegin{}));
    r = t.handle(event(400, std::nullopt, ev::ConcSweepEnd{}));
    BOOST_REQUIRE(r.phase);
    BOOST_TEST(static_cast<int>(r.phase->phase) == static_cast<int>(ConcurrentPhase::sweep));
    BOOST_TEST(!r.phase->marked_objects);
}

BOOST_AUTO_TEST_CASE(a_doubled_sync_begin_is_one_phase_until_the_balancing_end) {
    // GHC 9.0 posts CONC_SYNC_BEGIN twice, then CONC_SYNC_END twice.
    NonmovingTracker t;
    t.handle(event(100, std::nullopt, ev::ConcSyncBegin{}));
    t.handle(event(101, std::nullopt, ev::ConcSyncBegin{}));
    BOOST_TEST(t.handle(event(200, std::nullopt, ev::ConcSyncEnd{})).empty());
    NonmovingRecord r = t.handle(event(201, std::nullopt, ev::ConcSyncEnd{}));
    BOOST_REQUIRE(r.phase);
    BOOST_TEST(r.phase->start == 100u);
    BOOST_TEST(*r.phase->end == 201u);
    BOOST_TEST(r.phase->begins == 2u);
}

BOOST_AUTO_TEST_CASE(unmatched_ends_are_counted_and_open_phases_end_with_the_log) {
    NonmovingTracker t;
    BOOST_TEST(t.handle(event(10, std::nullopt, ev::ConcSweepEnd{})).empty());
    BOOST_TEST(t.unmatched_ends() == 1u);
    t.handle(event(20, std::nullopt, ev::ConcMarkBegin{}));
    auto open = t.finish();
    BOOST_REQUIRE_EQUAL(open.size(), 1u);
    BOOST_TEST(open[0].start == 20u);
    BOOST_TEST(!open[0].end);
}

BOOST_AUTO_TEST_CASE(census_pruned_segments_and_flushes_are_moments) {
    NonmovingTracker t;
    ev::NonmovingHeapCensus old_form;
    old_form.blk_size = 5;  // log2 in the 13-byte form
    old_form.blk_size_is_log2 = true;
    old_form.active_segs = 3;
    old_form.filled_segs = 4;
    old_form.live_blocks = 99;
    NonmovingRecord r = t.handle(event(10, std::nullopt, old_form));
    BOOST_REQUIRE(r.census);
    BOOST_TEST(r.census->block_size == 32u);
    BOOST_TEST(r.census->live_blocks == 99u);
    ev::NonmovingHeapCensus new_form = old_form;
    new_form.blk_size = 48;
    new_form.blk_size_is_log2 = false;
    BOOST_TEST(t.handle(event(11, std::nullopt, new_form)).census->block_size == 48u);
    r = t.handle(event(12, std::nullopt, ev::NonmovingPrunedSegments{7, 2}));
    BOOST_REQUIRE(r.pruned);
    BOOST_TEST(r.pruned->pruned_segments == 7u);
    r = t.handle(event(13, 1, ev::ConcUpdRemSetFlush{1}));
    BOOST_REQUIRE(r.flush);
    BOOST_TEST(r.flush->cap == 1u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(nonmoving_concerns)

template <typename... Ts>
void check_every_type(el2fx::eventlog::TypeList<Ts...>) {
    auto check = []<typename T>(T payload) {
        NonmovingTracker t;  // every phase open: an end completes one
        t.handle(event(1, std::nullopt, ev::ConcMarkBegin{}));
        t.handle(event(2, std::nullopt, ev::ConcSyncBegin{}));
        t.handle(event(3, std::nullopt, ev::ConcSweepBegin{}));
        const bool gives = !t.handle(event(10, 0, payload)).empty();
        BOOST_TEST((!gives || NonmovingTracker::concerns(T::tag)), T::name << " gives a record it does not concern");
    };
    (check(Ts{}), ...);
}

// GcAnalysis skips what concerns() rejects: it must not reject what handle() uses.
BOOST_AUTO_TEST_CASE(concerns_every_type_that_gives_a_record) {
    check_every_type(el2fx::eventlog::AllPayloads{});
    BOOST_TEST(NonmovingTracker::concerns(ev::ConcMarkBegin::tag));
    BOOST_TEST(!NonmovingTracker::concerns(ev::RunThread::tag));
    BOOST_TEST(!NonmovingTracker::concerns(ev::StartGC::tag));
}

BOOST_AUTO_TEST_SUITE_END()
