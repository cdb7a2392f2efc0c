// CapabilityStage runs the capabilities' part of the threading analysis on the prefetcher's
// worker, the threads' part staying on the consumer. Together they must give exactly what one
// analysis of both parts gives: the same sink calls in the same order, each delivered with the
// same event, the same diagnostics counted by the time the consumer is done with each event,
// the same end time, and the reader's error where the reader has it.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <unistd.h>
#include <variant>
#include <vector>

#include "analysis/threading/threading_analysis.hpp"
#include "analysis/threading/capability_stage.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "eventlog_files.hpp"
#include "upstream_data.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::analysis;
using namespace el2fx::eventlog;
using el2fx::testing::EventlogBuilder;
namespace fs = std::filesystem;

namespace {

using What = std::variant<std::uint64_t, CapabilitySpan, Sample<CapabilityActivity>, ThreadStateSpan,
                          Sample<ThreadActivity>, KeptCapabilitySpan>;

// A sink call and how many events the consumer had taken when it came.
struct Call {
    std::size_t taken;
    std::uint32_t id;
    What what;
    bool operator==(const Call&) const = default;
};

class LoggingSink final : public ThreadingSink {
public:
    void capability_started(CapNo cap, std::uint64_t time) override { add(cap, time); }
    void capability_span(CapNo cap, const CapabilitySpan& span) override { add(cap, span); }
    void capability_sample(CapNo cap, const Sample<CapabilityActivity>& s) override { add(cap, s); }
    void thread_span(ThreadId thread, const ThreadStateSpan& span) override { add(thread, span); }
    void thread_sample(ThreadId thread, const Sample<ThreadActivity>& s) override { add(thread, s); }
    void kept_capability_span(CapNo cap, const KeptCapabilitySpan& kept) override { add(cap, kept); }

    std::vector<Call> calls;
    std::size_t taken = 0;

private:
    void add(std::uint32_t id, What what) { calls.push_back({taken, id, what}); }
};

// The capabilities' spans through the markers' merger, as the markers merge them on the
// consumer (convert/threading_markers.hpp); every other call straight to `log`.
class MergingSink final : public ThreadingSink {
public:
    MergingSink(LoggingSink& log, SpanDetail detail) : log_(log), merger_(detail) {}
    void capability_started(CapNo cap, std::uint64_t time) override { log_.capability_started(cap, time); }
    void capability_span(CapNo cap, const CapabilitySpan& span) override {
        merger_.offer(cap, span, [&](CapNo c, const KeptCapabilitySpan& kept) { log_.kept_capability_span(c, kept); });
    }
    void capability_sample(CapNo cap, const Sample<CapabilityActivity>& s) override { log_.capability_sample(cap, s); }
    void thread_span(ThreadId thread, const ThreadStateSpan& span) override { log_.thread_span(thread, span); }
    void thread_sample(ThreadId thread, const Sample<ThreadActivity>& s) override { log_.thread_sample(thread, s); }
    // The groups still pending, after the analysis finished.
    void finish() {
        merger_.finish([&](CapNo c, const KeptCapabilitySpan& kept) { log_.kept_capability_span(c, kept); });
    }

private:
    LoggingSink& log_;
    CapabilitySpanMerger merger_;
};

// Everything the consumer sees: the calls, the diagnostics after each event and at the end,
// the end time, and how many events came before an error (if one did).
struct Seen {
    std::vector<Call> calls;
    std::vector<std::uint64_t> diagnostics_after;  // total, after each event
    std::vector<std::uint64_t> final_counts;       // by kind
    std::uint64_t end_time = 0;
    bool failed = false;
};

void finish_seen(Seen& seen, const Diagnostics& d, const ThreadingResult& lives) {
    for (std::size_t i = 0; i < kDiagnosticCount; ++i) seen.final_counts.push_back(d.count(static_cast<Diagnostic>(i)));
    seen.end_time = lives.end_time;
}

// The analysis on the consumer, as before the stage; with `merge`, its capabilities' spans
// merged there for the markers.
Seen on_consumer(TimeOrderedReader& reader, std::optional<SpanDetail> merge = std::nullopt) {
    Seen seen;
    Diagnostics d;
    reader.restart(d);
    LoggingSink sink;
    std::optional<MergingSink> merging;
    if (merge) merging.emplace(sink, *merge);
    ThreadingAnalysis analysis(d, {}, merging ? static_cast<ThreadingSink*>(&*merging) : &sink);
    try {
        while (const Event* e = reader.next()) {
            ++sink.taken;
            analysis.handle(*e);
            seen.diagnostics_after.push_back(d.total());
        }
    } catch (const Error&) {
        seen.failed = true;
        seen.calls = sink.calls;
        return seen;
    }
    const ThreadingResult lives = analysis.finish();
    if (merging) merging->finish();
    seen.calls = sink.calls;
    finish_seen(seen, d, lives);
    return seen;
}

Seen on_worker(TimeOrderedReader& reader, std::size_t batch, std::optional<SpanDetail> merge = std::nullopt) {
    Seen seen;
    Diagnostics d;
    LoggingSink sink;
    CapabilityStage stage(ThreadingOptions{}, merge);
    BOOST_TEST((stage.span_merger() != nullptr) == merge.has_value());
    ThreadingOptions threads_part;
    threads_part.part = ThreadingPart::threads;
    ThreadingAnalysis threads(d, threads_part, &sink);
    EventPrefetcher events(reader, d, stage, batch);
    try {
        while (const Event* e = events.next()) {
            ++sink.taken;
            CapabilityStage::deliver(events.stage_output(), events.given_in_batch(), sink);
            threads.handle(*e);
            seen.diagnostics_after.push_back(d.total());
        }
    } catch (const Error&) {
        seen.failed = true;
        seen.calls = sink.calls;
        return seen;
    }
    CapabilityStage::finish(events.stage_output(), sink);
    const ThreadingResult lives = threads.finish();
    if (merge)
        stage.span_merger()->finish([&](CapNo c, const KeptCapabilitySpan& kept) { sink.kept_capability_span(c, kept); });
    seen.calls = sink.calls;
    finish_seen(seen, d, lives);
    return seen;
}

void check_same(TimeOrderedReader& reader, std::initializer_list<std::size_t> batches,
                std::optional<SpanDetail> merge = std::nullopt) {
    const Seen expected = on_consumer(reader, merge);
    for (std::size_t batch : batches) {
        BOOST_TEST_CONTEXT("batch of " << batch << (merge ? ", spans merged" : "")) {
            const Seen got = on_worker(reader, batch, merge);
            BOOST_TEST(got.calls.size() == expected.calls.size());
            BOOST_TEST((got.calls == expected.calls));
            BOOST_TEST((got.diagnostics_after == expected.diagnostics_after));
            BOOST_TEST((got.final_counts == expected.final_counts));
            BOOST_TEST(got.end_time == expected.end_time);
            BOOST_TEST(got.failed == expected.failed);
        }
    }
}

// Scheduler events on three capabilities, collections with their phases and a heap census,
// and what the analysis counts as odd: a scheduler event in the global block, a finished
// thread run again and woken, a capability whose first event is one the stage does not
// take by its tag (it watches capabilities not started yet).
std::string scheduler_log() {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<RunThread>()
        .declare<StopThread>()
        .declare<WakeupThread>()
        .declare<StartGC>()
        .declare<EndGC>()
        .declare<GCWork>()
        .declare<GCIdle>()
        .declare<GCDone>()
        .declare<HeapProfSampleBegin>()
        .declare<UserMessage>();
    const std::uint16_t finished = static_cast<std::uint16_t>(StopStatus::ThreadFinished);
    for (int round = 0; round < 40; ++round) {
        const std::uint64_t t = 1'000'000 * static_cast<std::uint64_t>(round);
        for (CapNo cap = 0; cap < 2; ++cap) {
            const ThreadId thread = 1 + cap + 2 * static_cast<ThreadId>(round % 5);
            b.begin_block(t + cap, cap);
            b.event(t + 10 + cap, RunThread{thread});
            b.event(t + 200'000 + cap, StopThread{thread, round % 7 == 3 ? finished : std::uint16_t{3}, 0});
            if (round % 7 == 4) b.event(t + 210'000 + cap, RunThread{thread - 2});  // finished before
            b.event(t + 220'000 + cap, WakeupThread{thread + 2, cap});
            if (round % 3 == 0) {
                b.event(t + 300'000 + cap, StartGC{});
                b.event(t + 310'000 + cap, GCWork{});
                b.event(t + 320'000 + cap, GCIdle{});
                b.event(t + 330'000 + cap, GCDone{});
                // The census candidate's capability is watched: an event the stage does not
                // take by its tag settles it.
                if (cap == 0) b.event(t + 335'000, WakeupThread{thread, cap});
                b.event(t + 400'000 + cap, EndGC{});
            }
            b.end_block();
        }
        b.begin_block(t + 5, kGlobalCap);
        if (round % 6 == 0) b.event(t + 340'000, HeapProfSampleBegin{static_cast<std::uint64_t>(round)});
        if (round % 9 == 2) b.event(t + 500'000, RunThread{99});  // no capability
        b.end_block();
        if (round == 20) b.begin_block(t + 7, 2).event(t + 600'000, UserMessage{Text{"late"}}).end_block();
    }
    return b.finish();
}

void check_files_in(const fs::path& dir) {
    el2fx::testing::check_indexed_eventlogs_in(dir, [](TimeOrderedReader& reader) {
        check_same(reader, {7, EventPrefetcher::kBatchEvents});
        check_same(reader, {7}, span_detail_for(1'000'000));
    });
}

std::size_t count_kept(const std::vector<Call>& calls, bool merged) {
    return static_cast<std::size_t>(std::count_if(calls.begin(), calls.end(), [&](const Call& c) {
        const auto* k = std::get_if<KeptCapabilitySpan>(&c.what);
        return k && k->kept_as_is() != merged;
    }));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(capability_stage)

BOOST_AUTO_TEST_CASE(the_same_calls_with_the_same_events_as_on_the_consumer) {
    el2fx::testing::IndexedLog log(scheduler_log());
    TimeOrderedReader& reader = log.reader;
    const Seen expected = on_consumer(reader);
    // The log exercises what it claims to.
    BOOST_REQUIRE(expected.calls.size() > 300u);
    const auto count = [&](Diagnostic d) { return expected.final_counts[static_cast<std::size_t>(d)]; };
    BOOST_TEST(count(Diagnostic::scheduler_event_without_capability) > 0u);
    BOOST_TEST(count(Diagnostic::event_after_thread_finished) > 0u);
    // Three capabilities started (one by a message only).
    BOOST_TEST(std::count_if(expected.calls.begin(), expected.calls.end(), [](const Call& c) {
                   return std::holds_alternative<std::uint64_t>(c.what);
               }) == 3);
    check_same(reader, {1, 2, 7, 64, EventPrefetcher::kBatchEvents});
}

// With a marker detail the stage merges the spans on the worker: the sink gets what the
// markers' merger keeps, with the same events, and the groups pending at the end stay with
// the stage. Resolution 0 keeps every span; a coarse one merges nearly all.
BOOST_AUTO_TEST_CASE(spans_merged_on_the_worker_as_on_the_consumer) {
    el2fx::testing::IndexedLog log(scheduler_log());
    TimeOrderedReader& reader = log.reader;
    const std::size_t spans = [&] {
        const std::vector<Call> calls = on_consumer(reader).calls;
        return static_cast<std::size_t>(std::count_if(calls.begin(), calls.end(), [](const Call& c) {
            const auto* span = std::get_if<CapabilitySpan>(&c.what);
            return span && span->activity.state != CapabilityState::gc;
        }));
    }();
    BOOST_REQUIRE(spans > 100u);
    for (const std::uint64_t resolution : {std::uint64_t{0}, std::uint64_t{200'000}, std::uint64_t{100'000'000}}) {
        BOOST_TEST_CONTEXT("resolution " << resolution) {
            const Seen expected = on_consumer(reader, span_detail_for(resolution));
            if (resolution == 0) {
                BOOST_TEST(count_kept(expected.calls, false) == spans);
                BOOST_TEST(count_kept(expected.calls, true) == 0u);
            } else {
                BOOST_TEST(count_kept(expected.calls, true) > 0u);
                BOOST_TEST(count_kept(expected.calls, false) + count_kept(expected.calls, true) < spans);
                if (resolution == 200'000) BOOST_TEST(count_kept(expected.calls, false) > 0u);  // both kinds
            }
            check_same(reader, {1, 7, EventPrefetcher::kBatchEvents}, span_detail_for(resolution));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_sink_of_every_span_refuses_merged_ones) {
    ThreadingResultCollector collector;
    BOOST_CHECK_THROW(collector.kept_capability_span(0, KeptCapabilitySpan{}), Error);
}

BOOST_AUTO_TEST_CASE(the_readers_error_after_the_same_calls) {
    el2fx::testing::IndexedLog log(scheduler_log());
    TimeOrderedReader& reader = log.reader;
    // The file shrinks after indexing: reading its end fails.
    BOOST_REQUIRE(::truncate(log.file.path.c_str(), static_cast<off_t>(reader.stream_end().bytes / 2)) == 0);
    const Seen expected = on_consumer(reader);
    BOOST_REQUIRE(expected.failed);
    BOOST_REQUIRE(!expected.calls.empty());
    check_same(reader, {1, 5, EventPrefetcher::kBatchEvents});
    check_same(reader, {1, 5}, span_detail_for(200'000));
}

BOOST_AUTO_TEST_CASE(records_are_not_passed_over_with_a_stage) {
    el2fx::testing::IndexedLog log(scheduler_log());
    TimeOrderedReader& reader = log.reader;
    Diagnostics d;
    CapabilityStage stage(ThreadingOptions{});
    EventPrefetcher events(reader, d, stage);
    SkipBefore skip;
    TagSet wanted;
    skip.before = 1'000'000;
    skip.wanted = &wanted;
    BOOST_CHECK_THROW(events.next(skip), Error);
}

BOOST_AUTO_TEST_CASE(fixture_eventlogs_give_the_same_calls) {
    const char* fixtures = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(fixtures, "EL2FX_FIXTURES is not set (run the tests with `meson test`)");
    check_files_in(fixtures);
}

BOOST_AUTO_TEST_CASE(ghc_events_testdata_eventlogs_give_the_same_calls, UPSTREAM_DATA) {
    auto dir = el2fx::testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    check_files_in(*dir);
}

BOOST_AUTO_TEST_SUITE_END()
