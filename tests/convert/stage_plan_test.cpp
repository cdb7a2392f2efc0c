// plan_stages: which analyses run on the reader's thread, from the census's counts. The plan
// only moves work between the two threads (the profile is the same), so these check that it
// balances them as the benchmark logs need, and keeps the simple plan where nothing is gained.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

#include "convert/stage_plan.hpp"
#include "eventlog/event_types.hpp"

using namespace el2fx;
using namespace el2fx::convert;
using namespace el2fx::eventlog;

namespace {

struct Counts {
    std::vector<std::uint64_t> by_tag = std::vector<std::uint64_t>(256, 0);
    std::uint64_t all = 0;
    Counts& add(std::uint16_t tag, std::uint64_t n) {
        by_tag[tag] += n;
        all += n;
        return *this;
    }
    StagePlan plan() const { return plan_stages(by_tag, all); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(stage_plan)

// The 20-minute service log: threads switching, few collections.
BOOST_AUTO_TEST_CASE(a_scheduler_heavy_log_moves_the_capabilities_part) {
    Counts c;
    c.add(RunThread::tag, 10'119'143).add(StopThread::tag, 10'119'143).add(WakeupThread::tag, 25'096'409);
    c.add(MigrateThread::tag, 1'485'364).add(StartGC::tag, 26'667).add(EndGC::tag, 26'667);
    c.add(GCIdle::tag, 40'012).add(GCWork::tag, 26'669).add(GCDone::tag, 40'010).add(SparkCounters::tag, 26'671);
    BOOST_TEST(c.plan().capabilities);
}

// The dense log: a collection every few dozen events; the GC analysis fills the worker.
BOOST_AUTO_TEST_CASE(a_collection_heavy_log_moves_the_gc_analysis_only) {
    Counts c;
    c.add(RunThread::tag, 406'522).add(StopThread::tag, 406'522).add(WakeupThread::tag, 259'491);
    c.add(CreateThread::tag, 75'080).add(MigrateThread::tag, 62'503);
    c.add(StartGC::tag, 202'433).add(EndGC::tag, 202'433).add(RequestParGC::tag, 101'216);
    c.add(GCIdle::tag, 303'725).add(GCWork::tag, 202'440).add(GCDone::tag, 303'718);
    c.add(SparkCounters::tag, 202'441).add(HeapAllocated::tag, 404'872).add(HeapSize::tag, 101'217);
    c.add(GCStatsGHC::tag, 101'217).add(GlobalSyncGC::tag, 101'217).add(ThreadLabel::tag, 30'918);
    const StagePlan plan = c.plan();
    BOOST_TEST(plan.gc);
    BOOST_TEST(!plan.capabilities);
}

BOOST_AUTO_TEST_CASE(nothing_moves_where_nothing_is_gained) {
    BOOST_TEST((Counts{}.plan() == StagePlan{}));
    Counts messages;
    messages.add(UserMessage::tag, 1'000'000);
    BOOST_TEST((messages.plan() == StagePlan{}));
}

// Tags past the decoder's table (unknown events) count as events, nothing else.
BOOST_AUTO_TEST_CASE(unknown_tags_are_events_only) {
    Counts c;
    c.by_tag.resize(70'000, 0);
    c.add(65'000, 5'000'000).add(RunThread::tag, 10).add(StopThread::tag, 10);
    BOOST_TEST((c.plan() == StagePlan{}));
}

BOOST_AUTO_TEST_SUITE_END()
