// GcStage runs the GC analysis on the prefetcher's worker. The consumer must get exactly what
// running the analysis itself gives: the same collections and heap samples, each delivered
// with the same event, and the same result (summary, non-moving records) at the end.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "analysis/gc/gc_analysis.hpp"
#include "analysis/gc/gc_stage.hpp"
#include "analysis/gc/rts_summary_text.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_clock.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "eventlog_files.hpp"
#include "upstream_data.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::gc;
using namespace el2fx::eventlog;
using el2fx::testing::EventlogBuilder;
namespace fs = std::filesystem;

namespace {

// A record as text, with how many events the consumer had taken when it came.
class LoggingSink final : public GcRecordSink {
public:
    void collection(GcCollection&& c) override {
        std::ostringstream s;
        s << taken << " collection " << c.number << " caps " << c.caps.size() << " start " << c.first_start()
          << " end " << c.last_end().value_or(0) << " initiator " << (c.initiating_cap ? int(*c.initiating_cap) : -1)
          << " stats " << c.stats.has_value() << " allocated " << c.allocated_total.value_or(0) << " live "
          << c.live_bytes.value_or(0) << " heap " << c.heap_size.value_or(0) << " cut " << c.cut;
        for (const GcParticipation& p : c.caps) {
            s << " | cap " << p.cap << ' ' << p.start << '-' << p.end.value_or(0);
            for (const GcPhaseSpan& phase : p.phases)
                s << ' ' << static_cast<int>(phase.phase) << ':' << phase.start << '-' << phase.end;
        }
        records.push_back(s.str());
        spent.push_back(std::move(c));  // as the contributor gives them back, to be filled again
    }
    void heap_sample(const HeapSample& h) override {
        std::ostringstream s;
        s << taken << " heap " << h.time << ' ' << static_cast<int>(h.quantity) << ' '
          << (h.cap ? int(*h.cap) : -1) << ' ' << h.value << ' ' << h.total_allocated << ' ' << h.mem.returned;
        records.push_back(s.str());
    }

    std::vector<std::string> records;
    std::vector<GcCollection> spent;
    std::size_t taken = 0;
};

struct Seen {
    std::vector<std::string> records;
    std::string summary;  // the +RTS -s text
    std::size_t concurrent_phases = 0, censuses = 0, pruned = 0, flushes = 0;
    bool failed = false;
};

void finish_seen(Seen& seen, const GcAnalysisResult& r) {
    seen.summary = render_summary_text(r.summary);
    seen.concurrent_phases = r.concurrent_phases.size();
    seen.censuses = r.censuses.size();
    seen.pruned = r.pruned.size();
    seen.flushes = r.flushes.size();
}

// The analysis on the consumer, as the contributor runs it without the stage; `recycle`: the
// collections' storage goes back to the analysis (GcAnalysis::recycle), else it is freed.
Seen on_consumer(TimeOrderedReader& reader, bool recycle = true) {
    Seen seen;
    Diagnostics d;
    LoggingSink sink;
    GcAnalysis analysis(true, &sink);
    EventClock clock;
    EventPrefetcher events(reader, d);
    try {
        while (const Event* e = events.next()) {
            ++sink.taken;
            clock.add(e->time);
            if (GcAnalysis::concerns(e->tag)) analysis.handle_without_clock(*e);
            if (recycle)
                for (GcCollection& c : sink.spent) analysis.recycle(std::move(c));
            sink.spent.clear();
        }
    } catch (const Error&) {
        seen.failed = true;
        seen.records = sink.records;
        return seen;
    }
    analysis.set_clock(clock);
    const GcAnalysisResult r = analysis.finish(SummaryEnd{});
    seen.records = sink.records;
    finish_seen(seen, r);
    return seen;
}

Seen on_worker(TimeOrderedReader& reader, std::size_t batch) {
    Seen seen;
    Diagnostics d;
    LoggingSink sink;
    GcStage stage;
    EventClock clock;
    EventPrefetcher events(reader, d, stage, batch);
    try {
        while (const Event* e = events.next()) {
            ++sink.taken;
            clock.add(e->time);
            if (GcAnalysis::concerns(e->tag)) GcStage::deliver(events.stage_output(), events.given_in_batch(), sink);
            if (!sink.spent.empty()) GcStage::give_back(events.stage_output(), sink.spent);  // the worker recycles them
        }
    } catch (const Error&) {
        seen.failed = true;
        seen.records = sink.records;
        return seen;
    }
    const std::size_t before_finish = sink.records.size();
    GcStage::deliver(events.stage_output(), events.given_in_batch(), sink);
    BOOST_TEST(sink.records.size() == before_finish);  // each went with its event
    const GcAnalysisResult r = stage.finish(SummaryEnd{}, &clock, sink);
    seen.records = sink.records;
    finish_seen(seen, r);
    return seen;
}

void check_same(TimeOrderedReader& reader, std::initializer_list<std::size_t> batches) {
    const Seen expected = on_consumer(reader, /*recycle=*/false);
    const Seen recycled = on_consumer(reader);
    BOOST_TEST((recycled.records == expected.records));
    for (std::size_t batch : batches) {
        BOOST_TEST_CONTEXT("batch of " << batch) {
            const Seen got = on_worker(reader, batch);
            BOOST_TEST(got.records.size() == expected.records.size());
            BOOST_TEST((got.records == expected.records));
            BOOST_TEST(got.summary == expected.summary);
            BOOST_TEST(got.concurrent_phases == expected.concurrent_phases);
            BOOST_TEST(got.censuses == expected.censuses);
            BOOST_TEST(got.pruned == expected.pruned);
            BOOST_TEST(got.flushes == expected.flushes);
            BOOST_TEST(got.failed == expected.failed);
        }
    }
}

// Collections on two capabilities with their phases, statistics and heap events, among
// scheduler events the stage never sees; the last collection is still under way at the end.
std::string collections_log() {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<RunThread>()
        .declare<StopThread>()
        .declare<RequestParGC>()
        .declare<StartGC>()
        .declare<EndGC>()
        .declare<GCWork>()
        .declare<GCIdle>()
        .declare<GCDone>()
        .declare<GlobalSyncGC>()
        .declare<GCStatsGHC>()
        .declare<HeapAllocated>()
        .declare<HeapSize>()
        .declare<HeapLive>();
    for (int round = 0; round < 40; ++round) {
        const std::uint64_t t = 1'000'000 * static_cast<std::uint64_t>(round);
        const bool last = round == 39;
        for (CapNo cap = 0; cap < 2; ++cap) {
            b.begin_block(t + cap, cap);
            b.event(t + 10 + cap, RunThread{static_cast<ThreadId>(1 + cap)});
            b.event(t + 100'000 + cap, StopThread{static_cast<ThreadId>(1 + cap), 3, 0});
            if (cap == 0) b.event(t + 150'000, RequestParGC{});
            b.event(t + 300'000 + cap, StartGC{});
            b.event(t + 310'000 + cap, GCWork{});
            if (cap == 0) b.event(t + 315'000, GlobalSyncGC{});
            b.event(t + 320'000 + cap, GCIdle{});
            b.event(t + 330'000 + cap, GCDone{});
            if (!last) {
                b.event(t + 400'000 + cap, HeapAllocated{1, 1000 * static_cast<std::uint64_t>(round + 1)});
                if (cap == 0)
                    b.event(t + 401'000, GCStatsGHC{1, static_cast<std::uint16_t>(round % 2), 5000, 100, 0, 1, 4096, 10, 20});
                b.event(t + 402'000 + cap, EndGC{});
                if (cap == 0) {
                    b.event(t + 403'000, HeapSize{1, 1 << 20});
                    b.event(t + 404'000, HeapLive{1, 1 << 19});
                }
            }
            b.end_block();
        }
    }
    return b.finish();
}

void check_files_in(const fs::path& dir) {
    el2fx::testing::check_indexed_eventlogs_in(
        dir, [](TimeOrderedReader& reader) { check_same(reader, {7, EventPrefetcher::kBatchEvents}); });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gc_stage)

BOOST_AUTO_TEST_CASE(the_same_records_with_the_same_events_as_on_the_consumer) {
    el2fx::testing::IndexedLog log(collections_log());
    TimeOrderedReader& reader = log.reader;
    const Seen expected = on_consumer(reader);
    // The log exercises what it claims to: collections and heap samples as they complete,
    // and the one under way at the end from finish().
    const auto count = [&](const std::string& what) {
        return std::count_if(expected.records.begin(), expected.records.end(),
                             [&](const std::string& r) { return r.find(what) != std::string::npos; });
    };
    BOOST_TEST(count(" collection ") == 40);
    BOOST_TEST(count(" heap ") > 40);
    check_same(reader, {1, 2, 7, 64, EventPrefetcher::kBatchEvents});
}

BOOST_AUTO_TEST_CASE(the_readers_error_after_the_same_records) {
    el2fx::testing::IndexedLog log(collections_log());
    TimeOrderedReader& reader = log.reader;
    // The file shrinks after indexing: reading its end fails.
    BOOST_REQUIRE(::truncate(log.file.path.c_str(), static_cast<off_t>(reader.stream_end().bytes / 2)) == 0);
    const Seen expected = on_consumer(reader);
    BOOST_REQUIRE(expected.failed);
    BOOST_REQUIRE(!expected.records.empty());
    check_same(reader, {1, 5, EventPrefetcher::kBatchEvents});
}

BOOST_AUTO_TEST_CASE(the_stage_sees_only_the_tags_it_wants) {
    const GcStage stage;
    BOOST_TEST(stage.wanted_tags().test(StartGC::tag));
    BOOST_TEST(stage.wanted_tags().test(HeapAllocated::tag));
    BOOST_TEST(!stage.wanted_tags().test(RunThread::tag));
    BOOST_TEST(!stage.wanted_tags().test(StopThread::tag));
    for (std::size_t tag = 0; tag < stage.wanted_tags().size(); ++tag)
        BOOST_TEST(stage.wanted_tags().test(tag) == GcAnalysis::concerns(static_cast<std::uint16_t>(tag)));
}

BOOST_AUTO_TEST_CASE(records_are_not_passed_over_with_a_stage) {
    el2fx::testing::IndexedLog log(collections_log());
    TimeOrderedReader& reader = log.reader;
    Diagnostics d;
    GcStage stage;
    EventPrefetcher events(reader, d, stage);
    SkipBefore skip;
    TagSet wanted;
    skip.before = 1'000'000;
    skip.wanted = &wanted;
    BOOST_CHECK_THROW(events.next(skip), Error);
}

BOOST_AUTO_TEST_CASE(fixture_eventlogs_give_the_same_records) {
    const char* fixtures = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(fixtures, "EL2FX_FIXTURES is not set (run the tests with `meson test`)");
    check_files_in(fixtures);
}

BOOST_AUTO_TEST_CASE(ghc_events_testdata_eventlogs_give_the_same_records, UPSTREAM_DATA) {
    auto dir = el2fx::testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    check_files_in(*dir);
}

BOOST_AUTO_TEST_SUITE_END()
