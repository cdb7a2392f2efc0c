// The time-ordered reader must give exactly what a stable sort by timestamp over
// file order gives (what `ghc-events show` prints), without loading the file.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "temp_file.hpp"
#include "collecting_sink.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::EventlogBuilder;

namespace {

using el2fx::testing::TempFile;

struct Key {
    std::uint64_t time, offset;
    std::optional<CapNo> cap;
    bool operator==(const Key&) const = default;
};

std::vector<Key> read_ordered(const std::string& path, Diagnostics& diagnostics) {
    InputFile input(path);
    TimeOrderedReader reader(input, diagnostics);
    std::vector<Key> out;
    while (const Event* e = reader.next()) out.push_back(Key{e->time, e->offset, e->cap});
    return out;
}

// The reference: decode in file order, then stable-sort by time.
std::vector<Key> stable_sorted(const std::string& bytes) {
    el2fx::testing::CollectingSink sink;
    Diagnostics d;
    PushDecoder decoder(sink, d);
    el2fx::testing::feed_all(decoder, bytes);
    std::vector<Key> out;
    for (const auto& s : sink.events) out.push_back(Key{s.time, s.offset, s.cap});
    std::stable_sort(out.begin(), out.end(), [](const Key& a, const Key& b) { return a.time < b.time; });
    return out;
}

// The log's events come out of the reader as a stable sort by time gives them, with no
// disorder beyond the reorder window.
void merged_as_a_stable_sort(const std::string& bytes) {
    TempFile f(bytes);
    Diagnostics d;
    BOOST_CHECK(read_ordered(f.path, d) == stable_sorted(bytes));
    BOOST_TEST(d.count(Diagnostic::reorder_window_exceeded) == 0u);
}

EventlogBuilder base() {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<RunThread>()
        .declare<StopThread>()
        .declare<StartGC>()
        .declare<EndGC>()
        .declare<GCStatsGHC>()
        .declare<CapsetCreate>()
        .declare<UserMessage>();
    return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(blocks_of_several_capabilities_merge_by_time) {
    auto b = base();
    b.begin_block(100, 0).event(110, RunThread{1}).event(300, StopThread{1, 3, 0}).end_block();
    b.begin_block(105, 1).event(120, RunThread{2}).event(200, StopThread{2, 3, 0}).end_block();
    // The global block is written last but holds the earliest events.
    b.begin_block(50, kGlobalCap).event(60, CapsetCreate{0, 2}).end_block();
    std::string bytes = b.finish();
    TempFile f(bytes);
    Diagnostics d;
    auto got = read_ordered(f.path, d);
    BOOST_CHECK(got == stable_sorted(bytes));
    BOOST_TEST(got.front().time == 50u);
    BOOST_TEST(!got[1].cap.has_value());  // the capset event, from the global block
    BOOST_TEST(d.count(Diagnostic::reorder_window_exceeded) == 0u);
}

BOOST_AUTO_TEST_CASE(equal_times_keep_file_order) {
    auto b = base();
    b.begin_block(10, 0).event(20, RunThread{1}).event(20, StopThread{1, 3, 0}).end_block();
    b.begin_block(10, 1).event(20, RunThread{2}).event(20, StopThread{2, 3, 0}).end_block();
    std::string bytes = b.finish();
    TempFile f(bytes);
    Diagnostics d;
    auto got = read_ordered(f.path, d);
    BOOST_CHECK(got == stable_sorted(bytes));
    for (std::size_t i = 1; i < got.size(); ++i)
        if (got[i].time == got[i - 1].time) BOOST_TEST(got[i].offset > got[i - 1].offset);
}

BOOST_AUTO_TEST_CASE(gc_stats_stamped_after_gc_end_is_sorted_within_its_block) {
    auto b = base();
    b.begin_block(10, 0)
        .event(20, StartGC{})
        .event(90, GCStatsGHC{})
        .event(80, EndGC{})
        .event(95, RunThread{1})
        .end_block();
    std::string bytes = b.finish();
    TempFile f(bytes);
    Diagnostics d;
    auto got = read_ordered(f.path, d);
    BOOST_CHECK(got == stable_sorted(bytes));
    BOOST_TEST(got[2].time == 80u);
    BOOST_TEST(got[3].time == 90u);
    BOOST_TEST(d.count(Diagnostic::reorder_window_exceeded) == 0u);
}

BOOST_AUTO_TEST_CASE(random_disorder_within_the_window_matches_a_stable_sort) {
    std::mt19937 rng(42);
    for (int round = 0; round < 20; ++round) {
        auto b = base();
        for (CapNo cap = 0; cap < 3; ++cap) {
            for (int block = 0; block < 4; ++block) {
                std::uint64_t t0 = 1000 * static_cast<std::uint64_t>(block) + cap;
                b.begin_block(t0, block == 3 && cap == 2 ? kGlobalCap : cap);
                for (int i = 0; i < 50; ++i) {
                    // Mostly increasing, with jitter that goes backwards, and many ties.
                    std::uint64_t t = t0 + 10 * static_cast<std::uint64_t>(i) + rng() % 40;
                    b.event(t, RunThread{static_cast<ThreadId>(i)});
                }
                b.end_block();
            }
        }
        merged_as_a_stable_sort(b.finish());
    }
}

// A cursor reads its block in pieces: messages of every length up to the largest record (more
// than a piece), and disorder whose window spans several pieces, come out as a stable sort.
BOOST_AUTO_TEST_CASE(records_and_windows_larger_than_a_read) {
    for (const std::size_t longest : {std::size_t{1} << 12, std::size_t{0xFFFF}}) {
        auto b = base();
        for (CapNo cap = 0; cap < 2; ++cap) {
            b.begin_block(100 + cap, cap);
            std::uint64_t t = 200;
            for (std::size_t size = 1; size <= longest; size = size * 3 + 1) {
                b.event(t, UserMessage{{std::string(std::min(size, longest - 2 * cap), 'm')}});
                b.event(t + 5, GCStatsGHC{});  // stamped after the next
                b.event(t + 3, EndGC{});
                t += 10;
            }
            b.event(t, UserMessage{{std::string(longest - cap, 'x')}});
            // The run of records behind a late one: the window spans more than a read.
            b.event(t + 100000, RunThread{1});
            for (int i = 0; i < 3000; ++i)  // within the window's records, not within a read's bytes
                b.event(t + 10 + static_cast<std::uint64_t>(i), UserMessage{{std::string(60 + i % 7, 'w')}});
            b.end_block();
        }
        merged_as_a_stable_sort(b.finish());
    }
}

// Many capabilities' blocks overlapping in time, each starting while others are being read:
// the merge's heap is several levels deep, a block taken from it gives its place to the one
// that was read last, and blocks become due in between (ties across blocks included).
BOOST_AUTO_TEST_CASE(many_interleaved_capabilities_match_a_stable_sort) {
    std::mt19937 rng(11);
    for (int round = 0; round < 10; ++round) {
        auto b = base();
        const CapNo caps = static_cast<CapNo>(5 + round % 6);
        for (int block = 0; block < 3; ++block) {
            for (CapNo cap = 0; cap < caps; ++cap) {
                const std::uint64_t t0 =
                    3000 * static_cast<std::uint64_t>(block) + 97 * std::uint64_t{cap} + rng() % 50;
                b.begin_block(t0, cap);
                std::uint64_t t = t0;
                for (int i = 0; i < 40 + static_cast<int>(rng() % 40); ++i) {
                    t += rng() % 4 == 0 ? 0 : rng() % 60;  // ties within the block and across blocks
                    b.event(t, RunThread{static_cast<ThreadId>(i)});
                }
                b.end_block();
            }
        }
        std::string bytes = b.finish();
        TempFile f(bytes);
        Diagnostics d;
        const std::vector<Key> got = read_ordered(f.path, d);
        BOOST_CHECK(got == stable_sorted(bytes));
        BOOST_TEST(d.count(Diagnostic::reorder_window_exceeded) == 0u);
    }
}

// Runs of one block's records (next_records_of_block, the prefetcher's way) mixed with single
// records give the same records, each with the same diagnostics counted by then, whether a
// run is cut short by its taker or stops by itself (another block due, a diagnostic).
BOOST_AUTO_TEST_CASE(runs_of_a_blocks_records_give_what_single_records_give) {
    std::mt19937 rng(5);
    auto b = base();
    for (int block = 0; block < 3; ++block) {
        for (CapNo cap = 0; cap < 4; ++cap) {
            const std::uint64_t t0 = 10'000 * static_cast<std::uint64_t>(block) + 3 * std::uint64_t{cap};
            b.begin_block(t0, cap);
            std::uint64_t t = t0;
            const int n = block == 1 && cap == 2 ? static_cast<int>(kMaxReorderWindow) + 300 : 200;
            for (int i = 0; i < n; ++i) {
                t += rng() % 8 == 0 ? 40 : rng() % 3;  // long runs and short ones, ties
                b.event(t, RunThread{static_cast<ThreadId>(i)});
            }
            if (block == 1 && cap == 2) b.event(t0 + 1, StopThread{1, 3, 0});  // beyond any window
            b.end_block();
        }
    }
    TempFile f(b.finish());
    InputFile input(f.path);
    Diagnostics index;
    TimeOrderedReader reader(input, index);
    struct Taken {
        std::uint64_t time, offset, diagnostics;
        bool operator==(const Taken&) const = default;
    };
    Diagnostics plain_pass;
    reader.restart(plain_pass);
    std::vector<Taken> expected;
    while (const RawRecord* r = reader.next_record()) expected.push_back({r->time, r->offset, plain_pass.total()});
    BOOST_REQUIRE(plain_pass.count(Diagnostic::reorder_window_exceeded) > 0u);
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        std::mt19937 cut(seed);
        Diagnostics pass;
        reader.restart(pass);
        std::vector<Taken> got;
        std::size_t runs = 0;
        for (;;) {
            const std::size_t given = reader.next_records_of_block([&](const RawRecord& r) {
                got.push_back({r.time, r.offset, pass.total()});
                return cut() % 16 != 0;
            });
            if (given > 1) ++runs;
            if (given > 0) continue;
            const RawRecord* r = reader.next_record();
            if (!r) break;
            got.push_back({r->time, r->offset, pass.total()});
        }
        BOOST_TEST(runs > 10u);
        BOOST_CHECK(got == expected);
        BOOST_TEST(pass.total() == plain_pass.total());
    }
}

// A pass from a record on gives exactly what follows it in a whole pass: the records before
// it are passed over, whichever blocks they are in (ties at its time included).
BOOST_AUTO_TEST_CASE(restart_from_a_record_gives_the_rest_of_a_whole_pass) {
    std::mt19937 rng(7);
    for (int round = 0; round < 10; ++round) {
        auto b = base();
        for (int block = 0; block < 6; ++block) {
            for (CapNo cap = 0; cap < 2; ++cap) {
                std::uint64_t t0 = 1000 * static_cast<std::uint64_t>(block) + cap;
                b.begin_block(t0, cap);
                for (int i = 0; i < 30; ++i)
                    b.event(t0 + 30 * static_cast<std::uint64_t>(i) + rng() % 40, RunThread{static_cast<ThreadId>(i)});
                b.end_block();
            }
        }
        TempFile f(b.finish());
        InputFile input(f.path);
        Diagnostics d;
        TimeOrderedReader reader(input, d);
        auto read_all = [&] {
            std::vector<Key> out;
            while (const Event* e = reader.next()) out.push_back(Key{e->time, e->offset, e->cap});
            return out;
        };
        const std::vector<Key> whole = read_all();
        for (std::size_t k : {std::size_t{0}, std::size_t{1}, whole.size() / 3, whole.size() / 2, whole.size() - 1}) {
            reader.restart(d, OrderKey{whole[k].time, whole[k].offset});
            const std::vector<Key> rest = read_all();
            BOOST_TEST_CONTEXT("round " << round << ", from record " << k) {
                BOOST_CHECK(rest == std::vector<Key>(whole.begin() + static_cast<std::ptrdiff_t>(k), whole.end()));
            }
        }
        reader.restart(d, OrderKey{whole.back().time + 1, 0});  // after the last: nothing
        BOOST_TEST(read_all().empty());
        BOOST_TEST(d.count(Diagnostic::reorder_window_exceeded) == 0u);
    }
}

BOOST_AUTO_TEST_CASE(events_outside_blocks_are_merged_too) {
    auto b = base();
    b.event(5, CapsetCreate{0, 2});  // before any block, as in GHC 6.12-era logs
    b.begin_block(10, 0).event(20, RunThread{1}).end_block();
    b.event(15, UserMessage{Text{"between"}});
    std::string bytes = b.finish();
    TempFile f(bytes);
    Diagnostics d;
    auto got = read_ordered(f.path, d);
    BOOST_CHECK(got == stable_sorted(bytes));
    BOOST_TEST(got.size() == 4u);
}

BOOST_AUTO_TEST_CASE(truncated_log_merges_its_complete_events) {
    auto b = base();
    b.begin_block(10, 0).event(20, RunThread{1}).event(30, StopThread{1, 3, 0}).end_block();
    b.begin_block(12, 1).event(25, RunThread{2}).event(26, StopThread{2, 3, 0}).end_block();
    std::string bytes = b.finish(false);
    bytes.resize(bytes.size() - 5);  // killed mid-event
    TempFile f(bytes);
    Diagnostics d;
    InputFile input(f.path);
    TimeOrderedReader reader(input, d);
    std::size_t n = 0;
    while (reader.next()) ++n;
    BOOST_TEST(n == 5u);
    BOOST_TEST(reader.stream_end().truncated_mid_event);
    BOOST_TEST(d.count(Diagnostic::truncated_input) == 1u);
}

BOOST_AUTO_TEST_CASE(restart_reads_the_same_events_again_without_reindexing) {
    auto b = base();
    b.begin_block(10, 0).event(20, RunThread{1}).event(30, StopThread{1, 3, 0}).end_block();
    b.begin_block(12, 1).event(25, RunThread{2}).event(26, StopThread{2, 3, 0}).end_block();
    b.event(22, UserMessage{Text{"between"}});
    std::string bytes = b.finish(false);
    bytes.resize(bytes.size() - 5);  // killed mid-event: a problem of the index pass
    TempFile f(bytes);
    Diagnostics index_pass;
    InputFile input(f.path);
    TimeOrderedReader reader(input, index_pass);
    auto read_all = [&] {
        std::vector<Key> out;
        while (const Event* e = reader.next()) out.push_back(Key{e->time, e->offset, e->cap});
        return out;
    };
    const std::vector<Key> first = read_all();
    BOOST_TEST(first.size() == 6u);
    Diagnostics second_pass;
    reader.restart(second_pass);
    BOOST_TEST((read_all() == first));
    reader.next();  // at the end it stays at the end
    // Restarting in the middle starts over too.
    reader.restart(second_pass);
    reader.next();
    reader.next();
    reader.restart(second_pass);
    BOOST_TEST((read_all() == first));
    BOOST_TEST(index_pass.count(Diagnostic::truncated_input) == 1u);
    BOOST_TEST(second_pass.count(Diagnostic::truncated_input) == 0u);
}

BOOST_AUTO_TEST_CASE(standard_input_pipe_is_spooled_and_merged) {
    auto b = base();
    b.begin_block(100, 0).event(110, RunThread{1}).end_block();
    b.begin_block(50, kGlobalCap).event(60, CapsetCreate{0, 2}).end_block();
    std::string bytes = b.finish();
    int fds[2];
    BOOST_REQUIRE(::pipe(fds) == 0);
    pid_t child = ::fork();
    BOOST_REQUIRE(child >= 0);
    if (child == 0) {
        ::close(fds[0]);
        // Write in small pieces: the reader must cope with short reads.
        for (std::size_t i = 0; i < bytes.size(); i += 7)
            if (::write(fds[1], bytes.data() + i, std::min<std::size_t>(7, bytes.size() - i)) < 0) _exit(1);
        _exit(0);
    }
    ::close(fds[1]);
    int saved = ::dup(STDIN_FILENO);
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    std::vector<Key> got;
    {
        Diagnostics d;
        InputFile input("-");
        BOOST_TEST(!input.seekable());
        TimeOrderedReader reader(input, d);
        while (const Event* e = reader.next()) got.push_back(Key{e->time, e->offset, e->cap});
    }
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
    int status = 0;
    ::waitpid(child, &status, 0);
    BOOST_CHECK(got == stable_sorted(bytes));
}
