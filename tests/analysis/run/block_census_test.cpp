// The census learnt from the blocks apart (BlockCensus) must be the census of every event in
// time order, field by field, on every real eventlog it accepts; and it must accept the
// fixtures that need no forgetting and have no time-profile ticks, or it saves nothing.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "analysis/run/block_census.hpp"
#include "analysis/run/block_combiner.hpp"
#include "census_fields.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "eventlog_files.hpp"
#include "temp_file.hpp"
#include "upstream_data.hpp"

using namespace el2fx;
using namespace el2fx::run;
namespace ev = el2fx::eventlog;

namespace {

RunCensus census_of_every_event(ev::TimeOrderedReader& reader, CensusLimits limits) {
    Diagnostics pass;
    RunCensusCollector collector(false, limits);
    ev::EventPrefetcher events(reader, pass);
    while (const ev::Event* e = events.next()) collector.handle(*e);
    return collector.finish();
}

struct Outcome {
    std::size_t logs = 0, in_order = 0, accepted = 0;
};

// Each eventlog in `dir`, with the census's limits as the converter gives them by default.
Outcome check_logs_in(const std::filesystem::path& dir, CensusLimits limits) {
    Outcome outcome;
    for (const std::filesystem::path& file : el2fx::testing::eventlogs_in(dir)) {
        BOOST_TEST_CONTEXT(file.filename().string()) {
            try {
                ++outcome.logs;
                BlockCensus blocks(false, limits);
                Diagnostics index;
                ev::InputFile input(file.string());
                ev::TimeOrderedReader reader(input, index, &blocks.reading());
                if (!reader.in_order()) {
                    BOOST_TEST_MESSAGE(file.filename().string() << ": not in order");
                    continue;  // the census pass then
                }
                ++outcome.in_order;
                const std::optional<RunCensus> learnt = blocks.finish();
                if (!learnt) {
                    BOOST_TEST_MESSAGE(file.filename().string() << ": declined: " << blocks.declined_why());
                    continue;
                }
                ++outcome.accepted;
                el2fx::testing::same_census(census_of_every_event(reader, limits), *learnt);
            } catch (const Error& e) {
                BOOST_TEST_MESSAGE(file.filename().string() << ": not indexed: " << e.what());
            }
        }
    }
    return outcome;
}

// A log built block by block: its census from the blocks (or why not) and of every event.
struct Taken {
    std::optional<RunCensus> learnt;
    std::string why;
    bool threads_made_often = false;
    RunCensus every;
};
Taken take_both(const std::string& bytes, CensusLimits limits = {.thread_tracks = 64}) {
    el2fx::testing::TempFile file(bytes);
    BlockCensus blocks(false, limits);
    Diagnostics index;
    ev::InputFile input(file.path);
    ev::TimeOrderedReader reader(input, index, &blocks.reading());
    BOOST_REQUIRE(reader.in_order());
    Taken t;
    t.learnt = blocks.finish();
    if (!t.learnt) t.why = blocks.declined_why();
    t.threads_made_often = blocks.threads_made_often();
    t.every = census_of_every_event(reader, limits);
    return t;
}

using el2fx::testing::EventlogBuilder;

EventlogBuilder builder() {
    el2fx::testing::EventlogBuilder b;
    b.declare_block_marker()
        .declare<ev::CreateThread>()
        .declare<ev::RunThread>()
        .declare<ev::StopThread>()
        .declare<ev::MigrateThread>()
        .declare<ev::WakeupThread>()
        .declare<ev::StartGC>()
        .declare<ev::EndGC>()
        .declare<ev::ThreadLabel>()
        .declare<ev::ProfSampleCostCentre>();
    return b;
}

constexpr std::uint16_t kBlocked = 10;  // a stop status: BlockedOnMVar
constexpr std::uint16_t kFinishedStatus = static_cast<std::uint16_t>(ev::StopStatus::ThreadFinished);

void same_as_every_event(const Taken& t) {
    BOOST_REQUIRE_MESSAGE(t.learnt, "declined: " << t.why);
    el2fx::testing::same_census(t.every, *t.learnt);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(block_census)

// A thread that migrates from one capability to the other and back: its stopped spans join a
// stop on one capability to the run on the other.
BOOST_AUTO_TEST_CASE(a_thread_migrating_between_capabilities) {
    auto b = builder();
    b.begin_block(5, 0, 100)
        .event(6, ev::CreateThread{1})
        .event(10, ev::RunThread{1})
        .event(20, ev::StopThread{1, kBlocked, 0})
        .event(21, ev::MigrateThread{1, 1})
        .event(50, ev::RunThread{1})
        .event(60, ev::StopThread{1, kFinishedStatus, 0})
        .end_block();
    b.begin_block(7, 1, 100)
        .event(25, ev::WakeupThread{1, 1})
        .event(30, ev::RunThread{1})
        .event(40, ev::StopThread{1, kBlocked, 0})
        .event(41, ev::MigrateThread{1, 0})
        .end_block();
    const Taken t = take_both(b.finish());
    same_as_every_event(t);
    BOOST_TEST(t.learnt->detail.stopped.count() == 2u);  // 20 → 30 and 40 → 50
    BOOST_TEST(t.learnt->detail.stopped.total_ns() == 20u);
    BOOST_TEST(t.learnt->running_ns(1) == 30u);
}

// A capability's spans that cross from one of its blocks to the next: a run, an idle span, a
// collection; and the census's running time closed by the next block's first stop.
BOOST_AUTO_TEST_CASE(spans_across_a_capabilitys_blocks) {
    auto b = builder();
    b.begin_block(5, 0, 40).event(10, ev::RunThread{1}).event(30, ev::StartGC{}).end_block();
    b.begin_block(41, 0, 100).event(45, ev::EndGC{}).event(50, ev::StopThread{1, kBlocked, 0}).end_block();
    b.begin_block(101, 0, 200).event(120, ev::RunThread{2}).event(150, ev::StopThread{2, kBlocked, 0}).end_block();
    const Taken t = take_both(b.finish());
    same_as_every_event(t);
    BOOST_TEST(t.learnt->running_ns(1) == 40u);
    BOOST_TEST(t.learnt->detail.gc.count() == 1u);
    BOOST_TEST(t.learnt->detail.idle.count() == 2u);  // 50 → 120, and from 150 to the end
}

// Blocks of unlike sizes, in turn on two capabilities, each with threads, labels, segments and
// catalog items of its own: every share after the first few is filled in vectors another
// share filled before (SpareVectors), and nothing of that one's may show.
BOOST_AUTO_TEST_CASE(shares_filled_in_vectors_of_earlier_shares) {
    auto b = builder();
    ev::ThreadId next_id = 1;
    for (std::uint64_t block = 0; block < 24; ++block) {
        const std::uint64_t at = 1000 * block + 10;
        const ev::CapNo cap = static_cast<ev::CapNo>(block % 2);
        b.begin_block(at, cap, at + 990);
        const std::uint64_t threads = block % 5 == 0 ? 40 : 3;  // a large share, then small ones
        for (std::uint64_t n = 0; n < threads; ++n) {
            const ev::ThreadId id = next_id++;
            const std::uint64_t t = at + 10 + 20 * n;
            b.event(t, ev::CreateThread{id}).event(t + 1, ev::ThreadLabel{id, {"worker " + std::to_string(id)}});
            b.event(t + 2, ev::RunThread{id}).event(t + 7, ev::StopThread{id, kBlocked, 0});
            b.event(t + 9, ev::RunThread{id}).event(t + 12 + n % 3, ev::StopThread{id, kFinishedStatus, 0});
        }
        b.end_block();
    }
    same_as_every_event(take_both(b.finish()));
    same_as_every_event(take_both(b.finish(), {.thread_tracks = 4, .forget_above = 8}));
}

// What is kept of the shares' vectors: their capacity, emptied, a few of each kind, the best
// fit taken, bounded.
BOOST_AUTO_TEST_CASE(spare_vectors_are_kept_empty_and_bounded) {
    blocks::SpareVectors spares;
    BOOST_TEST(spares.take<blocks::Segment>(0).capacity() == 0u);  // none given yet
    std::vector<blocks::Segment> segments(100);
    const blocks::Segment* memory = segments.data();
    spares.give(segments);
    const std::vector<blocks::Segment> again = spares.take<blocks::Segment>(0);
    BOOST_TEST(again.empty());
    BOOST_TEST(again.data() == memory);  // the same memory, not a copy
    BOOST_TEST(again.capacity() >= 100u);
    BOOST_TEST(spares.take<blocks::Segment>(0).capacity() == 0u);      // taken once only
    BOOST_TEST(spares.take<blocks::CatalogItem>(0).capacity() == 0u);  // each kind its own

    // A few of each kind.
    for (std::size_t i = 0; i < blocks::SpareVectors::kPerKind + 2; ++i) {
        std::vector<blocks::CatalogItem> items(10);
        spares.give(items);
    }
    std::size_t kept = 0;
    while (spares.take<blocks::CatalogItem>(0).capacity() > 0) ++kept;
    BOOST_TEST(kept == blocks::SpareVectors::kPerKind);

    // The smallest that holds what is wanted; else the largest.
    const auto give = [&](std::size_t size) {
        std::vector<blocks::CatalogItem> items(size);
        spares.give(items);
    };
    give(10);
    give(1000);
    give(100);
    give(5000);
    const auto capacity = [](const std::vector<blocks::CatalogItem>& v) { return v.capacity(); };
    BOOST_TEST(capacity(spares.take<blocks::CatalogItem>(50)) == 100u);
    BOOST_TEST(capacity(spares.take<blocks::CatalogItem>(9000)) == 5000u);
    BOOST_TEST(capacity(spares.take<blocks::CatalogItem>(0)) == 10u);
    BOOST_TEST(capacity(spares.take<blocks::CatalogItem>(0)) == 1000u);
    give(10);
    spares.release();  // the blocks read: none kept
    BOOST_TEST(spares.take<blocks::CatalogItem>(0).capacity() == 0u);

    // Bounded in bytes: a vector past the bound is freed, not kept.
    std::vector<std::uint8_t> huge(blocks::SpareVectors::kMaxBytes + 1);
    spares.give(huge);
    BOOST_TEST(spares.take<std::uint8_t>(0).capacity() == 0u);
    std::vector<std::uint8_t> bytes(1000);
    spares.give(bytes);
    BOOST_TEST(spares.take<std::uint8_t>(0).capacity() >= 1000u);
}

BOOST_AUTO_TEST_CASE(a_thread_on_two_capabilities_at_once_is_declined) {
    auto b = builder();
    b.begin_block(5, 0, 100).event(10, ev::RunThread{1}).event(20, ev::StopThread{1, kBlocked, 0});
    b.event(50, ev::RunThread{1}).event(60, ev::StopThread{1, kBlocked, 0}).end_block();
    // No migration: the same thread runs on capability 1 between its runs on capability 0.
    b.begin_block(7, 1, 100).event(30, ev::RunThread{1}).event(40, ev::StopThread{1, kBlocked, 0}).end_block();
    const Taken t = take_both(b.finish());
    BOOST_TEST(!t.learnt);
    BOOST_TEST(t.why == "a thread's runs on two capabilities overlap");
}

BOOST_AUTO_TEST_CASE(events_after_a_threads_finish_are_declined) {
    auto b = builder();
    b.begin_block(5, 0, 100).event(10, ev::RunThread{1}).event(20, ev::StopThread{1, kFinishedStatus, 0});
    b.event(30, ev::RunThread{1}).event(40, ev::StopThread{1, kBlocked, 0}).end_block();
    const Taken t = take_both(b.finish());
    BOOST_TEST(!t.learnt);
    BOOST_TEST(t.why == "a thread's events after its finish");
}

BOOST_AUTO_TEST_CASE(runs_and_stops_out_of_time_order_are_declined) {
    auto b = builder();
    b.begin_block(5, 0, 100).event(10, ev::RunThread{1}).event(30, ev::StopThread{1, kBlocked, 0});
    b.event(20, ev::RunThread{2}).event(40, ev::StopThread{2, kBlocked, 0}).end_block();
    const Taken t = take_both(b.finish());
    BOOST_TEST(!t.learnt);
    BOOST_TEST(t.why == "a capability's runs, stops or collections out of time order");
}

// GHC stamps some of a collection's events before the block it writes them in began: the
// blocks still tell the census. A thread's segments are folded behind the blocks' starts, so a
// run or stop before its block's start is declined.
BOOST_AUTO_TEST_CASE(a_collection_stamped_before_its_block_began) {
    auto b = builder();
    b.begin_block(5, 0, 60).event(10, ev::RunThread{1}).event(40, ev::StartGC{}).end_block();
    b.begin_block(7, 1, 100).event(20, ev::RunThread{2}).event(80, ev::StopThread{2, kBlocked, 0}).end_block();
    b.begin_block(70, 0, 200)
        .event(65, ev::EndGC{})
        .event(90, ev::StopThread{1, kBlocked, 0})
        .event(120, ev::RunThread{2})
        .event(150, ev::StopThread{2, kBlocked, 0})
        .end_block();
    const Taken t = take_both(b.finish());
    same_as_every_event(t);
    BOOST_TEST(t.learnt->detail.gc.count() == 1u);
    BOOST_TEST(t.learnt->detail.gc.total_ns() == 25u);
    BOOST_TEST(t.learnt->detail.stopped.count() == 3u);  // thread 2: 80 → 120 (cap 1, then cap 0); both to the end
}

BOOST_AUTO_TEST_CASE(a_run_stamped_before_its_block_began_is_declined) {
    auto b = builder();
    b.begin_block(5, 0, 60).event(10, ev::RunThread{1}).event(40, ev::StopThread{1, kBlocked, 0}).end_block();
    b.begin_block(70, 0, 200).event(65, ev::RunThread{1}).event(90, ev::StopThread{1, kBlocked, 0}).end_block();
    const Taken t = take_both(b.finish());
    BOOST_TEST(!t.learnt);
    BOOST_TEST(t.why == "a run or stop before its block's start");
}

BOOST_AUTO_TEST_CASE(time_profile_ticks_are_declined) {
    auto b = builder();
    b.begin_block(5, 0, 100).event(10, ev::RunThread{1}).event(15, ev::ProfSampleCostCentre{0, 1, {}});
    b.event(20, ev::StopThread{1, kBlocked, 0}).end_block();
    const Taken t = take_both(b.finish());
    BOOST_TEST(!t.learnt);
    BOOST_TEST(t.why == "time-profile ticks");
    BOOST_TEST(!t.threads_made_often);
}

// Short-lived threads on two capabilities, two blocks each, one long-lived thread migrating
// between them, some labelled; small limits stand in for the real ones. The catalog forgets
// at the same events as the census pass's: the same threads kept, in the same places, the
// same runs pruned.
EventlogBuilder many_threads() {
    auto b = builder();
    const auto thread = [&](ev::ThreadId id, std::uint64_t at) {
        b.event(at, ev::CreateThread{id});
        if (id % 7 == 0) b.event(at + 1, ev::ThreadLabel{id, {"worker"}});
        b.event(at + 2, ev::RunThread{id})
            .event(at + 3 + id % 5, ev::StopThread{id, kBlocked, 0})
            .event(at + 10, ev::RunThread{id})
            .event(at + 11 + id % 3, ev::StopThread{id, kFinishedStatus, 0});
    };
    b.begin_block(5, 0, 400).event(6, ev::CreateThread{1000}).event(7, ev::RunThread{1000});
    b.event(8, ev::StopThread{1000, kBlocked, 0}).event(9, ev::MigrateThread{1000, 1});
    for (ev::ThreadId id = 1; id <= 20; ++id) thread(id, 20 * id);
    b.end_block();
    b.begin_block(6, 1, 420).event(15, ev::RunThread{1000}).event(16, ev::StopThread{1000, kBlocked, 0});
    for (ev::ThreadId id = 21; id <= 40; ++id) thread(id, 20 * (id - 20) + 5);
    b.end_block();
    b.begin_block(401, 0, 800);
    for (ev::ThreadId id = 41; id <= 60; ++id) thread(id, 20 * (id - 20));
    b.end_block();
    b.begin_block(421, 1, 820);
    for (ev::ThreadId id = 61; id <= 80; ++id) thread(id, 20 * (id - 40) + 5);
    b.end_block();
    return b;
}

BOOST_AUTO_TEST_CASE(forgetting_threads_as_the_census_pass_does) {
    const std::string log = many_threads().finish();
    const Taken t = take_both(log, {.thread_tracks = 3, .forget_above = 8});
    same_as_every_event(t);
    BOOST_TEST(t.learnt->threads.forgotten() > 40u);
    BOOST_TEST(t.learnt->threads.first_forgotten_place().has_value());
    BOOST_TEST(t.learnt->detail.other_runs > 0u);  // runs_by_thread was pruned
    same_as_every_event(take_both(log, {.thread_tracks = std::nullopt, .forget_above = 8}));
}

// GHC 9.6 labels a thread killed by throwTo after its finish: the label is the catalog's, as
// the census pass has it, while the thread is kept.
BOOST_AUTO_TEST_CASE(a_label_after_a_threads_finish) {
    auto b = builder();
    b.begin_block(5, 0, 100)
        .event(10, ev::CreateThread{1})
        .event(20, ev::RunThread{1})
        .event(30, ev::StopThread{1, kFinishedStatus, 0})
        .event(40, ev::ThreadLabel{1, {"masked"}})
        .end_block();
    b.begin_block(6, 1, 100).event(50, ev::WakeupThread{1, 1}).end_block();
    const Taken t = take_both(b.finish());
    same_as_every_event(t);
    BOOST_TEST(t.learnt->threads.label(t.learnt->threads.threads()[0]) == "masked");
}

// To the census pass, a forgotten thread's later event makes it a new thread: the blocks
// decline, whether the event is in the finish's block or a later one.
BOOST_AUTO_TEST_CASE(a_forgotten_threads_later_event_is_declined) {
    for (const bool same_block : {true, false}) {
        BOOST_TEST_CONTEXT("in the finish's block: " << same_block) {
            auto b = builder();
            b.begin_block(5, 0, 1000).event(10, ev::CreateThread{1}).event(11, ev::RunThread{1});
            b.event(12, ev::StopThread{1, kFinishedStatus, 0});
            for (ev::ThreadId id = 2; id <= 20; ++id) b.event(10 * id, ev::CreateThread{id});
            if (same_block) b.event(500, ev::WakeupThread{1, 0});
            b.end_block();
            if (!same_block) b.begin_block(1001, 0, 1100).event(1050, ev::WakeupThread{1, 0}).end_block();
            const Taken t = take_both(b.finish(), {.thread_tracks = 0, .forget_above = 8});
            BOOST_TEST(!t.learnt);
            BOOST_TEST(t.why == "a forgotten thread's later event");
            BOOST_TEST(t.every.threads.forgotten() == 1u);
            BOOST_TEST(t.every.threads.threads().size() == 20u);  // thread 1 again, as a new one
        }
    }
}

// A capability idle from the start, whose only block the RTS writes at the end: the other's
// blocks wait behind it. What waits is bounded: beyond the bound, the blocks decline.
BOOST_AUTO_TEST_CASE(blocks_held_back_by_a_long_one) {
    auto b = builder();
    for (std::uint64_t block = 0; block < 20; ++block) {
        const std::uint64_t at = 100 * block + 10;
        b.begin_block(at, 1, at + 90);
        for (ev::ThreadId id = 1; id <= 4; ++id)
            b.event(at + 10 * id, ev::RunThread{id}).event(at + 10 * id + 5, ev::StopThread{id, kBlocked, 0});
        b.end_block();
    }
    b.begin_block(5, 0, 3000).event(2500, ev::RunThread{9}).event(2600, ev::StopThread{9, kBlocked, 0}).end_block();
    const std::string log = b.finish();
    same_as_every_event(take_both(log));
    const Taken bounded = take_both(log, {.thread_tracks = 64, .held_back_bytes = 1000});
    BOOST_TEST(!bounded.learnt);
    BOOST_TEST(bounded.why == "blocks held back too long (a block spanning much of the log)");
}

// The shares of later blocks that wait for an earlier one (a checking thread still on a long
// block while the other checks the rest) count against the same bound, before the earlier one
// ever comes: the combiner is given them out of file order.
BOOST_AUTO_TEST_CASE(shares_waiting_for_an_earlier_block_are_bounded) {
    const CensusLimits limits{.thread_tracks = 64, .held_back_bytes = 4000};
    const BlockCensus::Rewrite rewrite = [](const ev::Event& e) -> const ev::Event& { return e; };
    blocks::SpareVectors spares;
    const auto share = [&](std::size_t block) {
        auto s = std::make_unique<blocks::Share>(spares, blocks::ShareSizes{});
        s->block = block;
        s->cap = 0;
        s->kept.bytes.assign(400, 0);  // records it keeps for the census (messages, say)
        return s;
    };
    const auto put_all = [&](std::size_t count, bool first_last) {
        auto c = std::make_unique<blocks::Combiner>(limits, rewrite, spares);
        c->starts.assign(count, 0);
        c->frontier_after.assign(count, 0);
        std::size_t waited = 0;
        for (std::size_t block = 1; block < count && !c->failed; ++block, ++waited) c->put(share(block));
        if (!c->failed && first_last) c->put(share(0));
        return std::pair{std::move(c), waited};
    };
    // A few wait, within the bound: nothing declines, and once the first comes none waits.
    const auto [few, few_waited] = put_all(4, true);
    BOOST_TEST(few->failed == nullptr);
    BOOST_TEST(few->waiting.empty());
    BOOST_TEST(few->waiting_bytes == 0u);
    // Many: they decline while they wait, before block 0 comes.
    const auto [many, many_waited] = put_all(1000, false);
    BOOST_REQUIRE(many->failed != nullptr);
    BOOST_TEST(std::string(many->failed) == "blocks held back too long (a block spanning much of the log)");
    BOOST_TEST(many_waited < 100u);
    BOOST_TEST(many->next == 0u);
}

// Two checking threads that end their blocks at the same moments, as the index's do: a share
// left while the other thread puts one in is put in all the same (BlockCensus::put), on every
// try, whichever thread ends up putting it in. Each block counts one record, so the census
// counts every block's.
BOOST_AUTO_TEST_CASE(every_share_is_put_in_however_the_checking_threads_meet) {
    constexpr std::size_t kBlocks = 2000;
    std::vector<ev::BlockReading::Start> starts;
    for (std::size_t i = 0; i < kBlocks; ++i)
        starts.push_back({.time = 10 * i + 1, .cap = static_cast<ev::CapNo>(i % 2), .bytes = 100});
    for (int take = 0; take < 20; ++take) {
        BlockCensus census(false, {.thread_tracks = 64});
        census.reading().found(starts);
        std::atomic<std::size_t> next{0};
        std::atomic<int> ready{0};
        std::atomic<bool> refused{false};  // Boost.Test's checks are the main thread's only
        const auto check = [&] {
            std::unique_ptr<ev::BlockReader> reader = census.reading().reader();
            ++ready;
            while (ready < 2) {}  // both start together
            for (std::size_t i; (i = next.fetch_add(1)) < kBlocks;) {
                if (!reader->begin_block(i, starts[i].cap)) {
                    refused = true;
                    return;
                }
                reader->records({});
                ev::BlockTotals totals;
                totals.by_tag[ev::BlockMarker::tag] = 1;
                totals.min_time = totals.max_time = starts[i].time;
                reader->end_block(totals);
            }
        };
        std::thread helper(check);
        check();
        helper.join();
        const std::optional<RunCensus> learnt = census.finish();
        BOOST_TEST_CONTEXT("take " << take) {
            BOOST_REQUIRE(!refused);
            BOOST_REQUIRE_MESSAGE(learnt, "declined: " << census.declined_why());
            BOOST_TEST(learnt->run.events == kBlocks);
        }
    }
}

// A log that creates a thread every few records: the census pass is quicker.
BOOST_AUTO_TEST_CASE(threads_created_every_few_records_are_declined) {
    auto b = builder();
    b.begin_block(5, 0, 1'000'000);
    for (ev::ThreadId id = 1; id <= 30'000; ++id)
        b.event(10 * id, ev::CreateThread{id})
            .event(10 * id + 1, ev::RunThread{id})
            .event(10 * id + 2, ev::StopThread{id, kFinishedStatus, 0});
    b.end_block();
    const Taken t = take_both(b.finish());
    BOOST_TEST(!t.learnt);
    BOOST_TEST(t.why == "threads so many that a pass is quicker");
    BOOST_TEST(t.threads_made_often);  // the census pass then reads on one worker (converter.cpp)
}

// Labels, in the log's order whatever the block, and the catalog's order of first appearance.
BOOST_AUTO_TEST_CASE(labels_and_first_appearances_across_blocks) {
    auto b = builder();
    b.begin_block(5, 0, 100)
        .event(30, ev::ThreadLabel{2, {"second"}})
        .event(40, ev::RunThread{1})
        .event(50, ev::StopThread{1, kBlocked, 0})
        .end_block();
    b.begin_block(6, 1, 100)
        .event(10, ev::WakeupThread{2, 1})
        .event(20, ev::ThreadLabel{2, {"first"}})
        .event(35, ev::ThreadLabel{1, {"one"}})
        .end_block();
    const Taken t = take_both(b.finish());
    same_as_every_event(t);
    BOOST_REQUIRE(t.learnt->threads.threads().size() == 2u);
    BOOST_TEST(t.learnt->threads.threads()[0].id == 2u);  // woken at 10, before thread 1's label
    BOOST_TEST(t.learnt->threads.label(t.learnt->threads.threads()[0]) == "second");
}

BOOST_AUTO_TEST_CASE(the_fixtures_give_the_census_of_every_event) {
    const char* fixtures = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(fixtures, "EL2FX_FIXTURES is not set (run the tests with `meson test`)");
    const Outcome outcome = check_logs_in(fixtures, {.thread_tracks = 64});
    BOOST_TEST_MESSAGE(outcome.accepted << " of " << outcome.in_order << " in order, " << outcome.logs << " logs");
    BOOST_TEST(outcome.accepted >= 8u);
}

BOOST_AUTO_TEST_CASE(with_every_thread_kept_too) {
    const char* fixtures = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(fixtures, "EL2FX_FIXTURES is not set (run the tests with `meson test`)");
    const Outcome outcome = check_logs_in(fixtures, {.thread_tracks = std::nullopt});
    BOOST_TEST(outcome.accepted >= 8u);
}

BOOST_AUTO_TEST_CASE(ghc_events_testdata_eventlogs_give_the_census_of_every_event, UPSTREAM_DATA) {
    auto dir = el2fx::testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    const Outcome outcome = check_logs_in(*dir, {.thread_tracks = 64});
    BOOST_TEST_MESSAGE(outcome.accepted << " of " << outcome.in_order << " in order, " << outcome.logs << " logs");
    BOOST_TEST(outcome.accepted >= 1u);
}

BOOST_AUTO_TEST_SUITE_END()
