// The event-order pitfalls end to end: an eventlog written as GHC 9.0 writes it (the
// initiating capability posts GC_GLOBAL_SYNC and GC_STATS_GHC, then the GC_END it stamps
// earlier) goes through the time-ordered reader into the GC analysis.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>
#include <unistd.h>

#include "temp_file.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "analysis/gc/gc_analysis.hpp"
#include "gc_test_util.hpp"

using namespace el2fx::gc;
using namespace el2fx::gc::testing;
using el2fx::testing::EventlogBuilder;

namespace {

using el2fx::testing::TempFile;

EventlogBuilder declared() {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<ev::StartGC>()
        .declare<ev::EndGC>()
        .declare<ev::RequestParGC>()
        .declare<ev::GCWork>()
        .declare<ev::GCIdle>()
        .declare<ev::GCDone>()
        .declare<ev::HeapAllocated>()
        .declare<ev::GlobalSyncGC>()
        .declare<ev::GCStatsGHC>()
        .declare<ev::HeapSize>();
    return b;
}

// parallel_collection_time_order(), as the two capabilities' buffers hold it.
std::string as_ghc_writes_it() {
    EventlogBuilder b = declared();
    b.begin_block(100, 1, 350)
        .event(100, ev::RequestParGC{})
        .event(110, ev::StartGC{})
        .event(120, ev::GCWork{})
        .event(310, ev::GCIdle{})
        .event(311, ev::GCDone{})
        .event(321, ev::HeapAllocated{0, 700})
        .event(340, ev::GlobalSyncGC{})
        .event(341, stats(0, 50, 2, 30, 40))
        .event(330, ev::EndGC{})  // stamped with the statistics' clock, written last
        .event(350, ev::HeapSize{0, 2 << 20})
        .end_block();
    b.begin_block(105, 0, 410)
        .event(105, ev::StartGC{})
        .event(121, ev::GCWork{})
        .event(300, ev::GCIdle{})
        .event(301, ev::GCDone{})
        .event(320, ev::HeapAllocated{0, 600})
        .event(410, ev::EndGC{})
        .end_block();
    return b.finish();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(event_order)

BOOST_AUTO_TEST_CASE(the_reader_puts_the_early_stamped_gc_end_first_and_the_collection_is_whole) {
    TempFile f(as_ghc_writes_it());
    el2fx::eventlog::InputFile input(f.path);
    el2fx::Diagnostics d;
    el2fx::eventlog::TimeOrderedReader reader(input, d);
    GcAnalysis analysis;
    std::vector<std::uint64_t> cap1_gc_order;
    while (const ev::Event* e = reader.next()) {
        if (e->cap == 1 &&
            (e->tag == ev::EndGC::tag || e->tag == ev::GlobalSyncGC::tag || e->tag == ev::GCStatsGHC::tag))
            cap1_gc_order.push_back(e->time);
        analysis.handle(*e);
    }
    // The pitfall: in time order the initiating capability's GC_END precedes its sync and statistics.
    const std::vector<std::uint64_t> want{330, 340, 341};
    BOOST_TEST(cap1_gc_order == want, boost::test_tools::per_element());
    GcAnalysisResult r = analysis.finish(SummaryEnd{false, {}, {}});
    BOOST_REQUIRE_EQUAL(r.collections.size(), 1u);
    auto expected = collections_of(parallel_collection_time_order());
    BOOST_TEST(describe(r.collections[0]) == describe(expected[0]));
    BOOST_TEST(*r.summary.gc_elapsed.value == 220u);  // the initiating capability: 110..330
    BOOST_TEST(*r.summary.seed_gc_elapsed.value == (305.0 + 220.0) / 2);
    BOOST_TEST(r.summary.anomalies.total() == 0u);
    // The seed's per-capability GC summary: time in each phase, from GC_WORK/GC_IDLE/GC_DONE
    // to the next one or GC_END.
    BOOST_REQUIRE_EQUAL(r.summary.capabilities.size(), 2u);
    const CapabilityGcFigures& initiating = r.summary.capabilities[1];
    BOOST_TEST(initiating.gc_ns == 220u);
    BOOST_TEST(initiating.work_ns == 190u);                 // 120..310
    BOOST_TEST(initiating.idle_ns == 1u);                   // 310..311
    BOOST_TEST(initiating.done_ns == 19u);                  // 311..330
    BOOST_TEST(r.summary.capabilities[0].done_ns == 109u);  // 301..410: released late
}

BOOST_AUTO_TEST_SUITE_END()
