// The prefetcher must give exactly what the time-ordered reader gives: the same events with
// the same payloads, each pass's diagnostics counted by the time the event that caused them
// comes out, and the reader's error after the events before it.
#include <boost/test/unit_test.hpp>

#include <random>
#include <unistd.h>

#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "eventlog_files.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::EventlogBuilder;

namespace {

// What a consumer sees of one event, and the diagnostics counted by then.
struct Seen {
    std::uint64_t time, offset;
    std::optional<CapNo> cap;
    std::uint16_t tag;
    std::string text;  // a UserMessage's
    std::uint64_t diagnostics;
    bool operator==(const Seen&) const = default;
};

Seen seen(const Event& e, const Diagnostics& d) {
    std::string text;
    if (const auto* m = e.as<UserMessage>()) text = std::string(m->message.bytes);
    return Seen{e.time, e.offset, e.cap, e.tag, text, d.total()};
}

std::vector<Seen> read_plain(TimeOrderedReader& reader, Diagnostics& d) {
    reader.restart(d);
    std::vector<Seen> out;
    while (const Event* e = reader.next()) out.push_back(seen(*e, d));
    return out;
}

std::vector<Seen> read_prefetched(TimeOrderedReader& reader, Diagnostics& d, std::size_t batch) {
    EventPrefetcher prefetcher(reader, d, batch);
    std::vector<Seen> out;
    while (const Event* e = prefetcher.next()) out.push_back(seen(*e, d));
    BOOST_TEST(!prefetcher.next());  // the end stays the end
    return out;
}

EventlogBuilder base() {
    EventlogBuilder b;
    b.declare_block_marker().declare<RunThread>().declare<StopThread>().declare<CapsetCreate>().declare<UserMessage>();
    return b;
}

// Three capabilities' blocks with jitter, texts of every length up to the largest record.
std::string disordered_log(std::uint32_t seed) {
    std::mt19937 rng(seed);
    auto b = base();
    for (CapNo cap = 0; cap < 3; ++cap) {
        for (int block = 0; block < 5; ++block) {
            const std::uint64_t t0 = 1000 * static_cast<std::uint64_t>(block) + cap;
            b.begin_block(t0, block == 4 && cap == 2 ? kGlobalCap : cap);
            for (int i = 0; i < 60; ++i) {
                const std::uint64_t t = t0 + 10 * static_cast<std::uint64_t>(i) + rng() % 40;
                if (i % 7 == 3) {
                    const std::size_t length = i == 10 ? 0xFFFF : rng() % 3000;  // 0xFFFF: the largest payload
                    b.event(t, UserMessage{Text{std::string(length, static_cast<char>('a' + i % 26))}});
                } else {
                    b.event(t, RunThread{static_cast<ThreadId>(i)});
                }
            }
            b.end_block();
        }
    }
    return b.finish();
}

}  // namespace

BOOST_AUTO_TEST_CASE(same_events_and_texts_as_the_reader_whatever_the_batch_size) {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        el2fx::testing::IndexedLog log(disordered_log(seed));
        TimeOrderedReader& reader = log.reader;
        Diagnostics plain_pass;
        const std::vector<Seen> expected = read_plain(reader, plain_pass);
        BOOST_REQUIRE(expected.size() > 800u);
        for (std::size_t batch : {std::size_t{1}, std::size_t{2}, std::size_t{7}, EventPrefetcher::kBatchEvents}) {
            Diagnostics pass;
            BOOST_TEST((read_prefetched(reader, pass, batch) == expected), "batch of " << batch);
            BOOST_TEST(pass.total() == plain_pass.total());
        }
    }
}

// Skipping (a window's prelude): records before the time whose type is not wanted are passed
// over undecoded, their capabilities and latest time told; every other event is as without.
BOOST_AUTO_TEST_CASE(skipping_passes_over_unwanted_records_before_the_time_only) {
    el2fx::testing::IndexedLog log(disordered_log(4));
    TimeOrderedReader& reader = log.reader;
    Diagnostics plain_pass;
    const std::vector<Seen> all = read_plain(reader, plain_pass);
    const std::uint64_t before = 2500;
    TagSet wanted;
    wanted.set(UserMessage::tag);
    std::vector<Seen> expected;
    std::uint64_t last_skipped = 0;
    std::vector<bool> caps;
    for (const Seen& s : all) {
        if (s.time < before && s.tag != UserMessage::tag) {
            last_skipped = std::max(last_skipped, s.time);
            if (s.cap) {
                if (*s.cap >= caps.size()) caps.resize(std::size_t{*s.cap} + 1);
                caps[*s.cap] = true;
            }
            continue;
        }
        expected.push_back(s);
    }
    BOOST_REQUIRE(expected.size() < all.size());
    for (std::size_t batch : {std::size_t{1}, std::size_t{7}, EventPrefetcher::kBatchEvents}) {
        Diagnostics pass;
        EventPrefetcher prefetcher(reader, pass, batch);
        SkipBefore skip;
        skip.before = before;
        skip.wanted = &wanted;
        std::vector<Seen> got;
        while (const Event* e = prefetcher.next(skip)) {
            Seen s = seen(*e, pass);
            s.diagnostics = 0;  // compared below, at the end
            got.push_back(s);
        }
        std::vector<Seen> want = expected;
        for (Seen& s : want) s.diagnostics = 0;
        BOOST_TEST((got == want), "batch of " << batch);
        BOOST_TEST(skip.last_time == last_skipped);
        BOOST_TEST((skip.caps == caps));
        BOOST_TEST(pass.total() == plain_pass.total());
    }
}

BOOST_AUTO_TEST_CASE(reader_diagnostics_come_with_the_event_that_caused_them) {
    // A block too disordered to sort: an event far earlier than the 5,000 before it.
    auto b = base();
    b.begin_block(10, 0);
    for (std::uint64_t i = 0; i < kMaxReorderWindow + 904; ++i) b.event(100 + i, RunThread{1});
    b.event(50, StopThread{1, 3, 0}).event(20000, RunThread{1}).end_block();
    b.begin_block(15, 1).event(60, RunThread{2}).event(30000, StopThread{2, 3, 0}).end_block();
    el2fx::testing::IndexedLog log(b.finish());
    TimeOrderedReader& reader = log.reader;
    Diagnostics plain_pass;
    const std::vector<Seen> expected = read_plain(reader, plain_pass);
    BOOST_REQUIRE(plain_pass.count(Diagnostic::reorder_window_exceeded) > 0u);  // counted during the merge
    for (std::size_t batch : {std::size_t{1}, std::size_t{64}, EventPrefetcher::kBatchEvents}) {
        Diagnostics pass;
        BOOST_TEST((read_prefetched(reader, pass, batch) == expected), "batch of " << batch);
        BOOST_TEST(pass.count(Diagnostic::reorder_window_exceeded) ==
                   plain_pass.count(Diagnostic::reorder_window_exceeded));
    }
}

BOOST_AUTO_TEST_CASE(the_readers_error_comes_after_the_events_before_it) {
    el2fx::testing::IndexedLog log(disordered_log(7));
    TimeOrderedReader& reader = log.reader;
    // The file shrinks after indexing: reading its end fails.
    BOOST_REQUIRE(::truncate(log.file.path.c_str(), static_cast<off_t>(reader.stream_end().bytes / 2)) == 0);
    auto read_until_error = [](auto&& next) {
        std::size_t n = 0;
        try {
            while (next()) ++n;
        } catch (const Error& e) {
            BOOST_TEST(std::string(e.what()).find("changed while it was being read") != std::string::npos);
            return n;
        }
        BOOST_FAIL("no error");
        return n;
    };
    Diagnostics d;
    reader.restart(d);
    const std::size_t plain = read_until_error([&] { return reader.next(); });
    BOOST_TEST(plain > 0u);
    for (std::size_t batch : {std::size_t{1}, std::size_t{5}, EventPrefetcher::kBatchEvents}) {
        EventPrefetcher prefetcher(reader, d, batch);
        BOOST_TEST(read_until_error([&] { return prefetcher.next(); }) == plain);
        BOOST_TEST(!prefetcher.next());  // after its error, the end
    }
}

// --timings: the worker's CPU time is reported once it stopped, whether or not every event was
// taken; none is reported unless asked for.
BOOST_AUTO_TEST_CASE(the_workers_cpu_time_is_reported_when_it_stops) {
    el2fx::testing::IndexedLog log(disordered_log(4));
    TimeOrderedReader& reader = log.reader;
    Diagnostics d;
    double all_events = -1, one_event = -1;
    {
        EventPrefetcher events(reader, d, 7);
        events.report_worker_cpu(&all_events);
        while (events.next()) {}
        BOOST_TEST(all_events == -1.0);  // not before it stopped
    }
    BOOST_TEST(all_events >= 0.0);
    BOOST_TEST(all_events < 60.0);
    {
        EventPrefetcher events(reader, d, 3);
        events.report_worker_cpu(&one_event);
        BOOST_TEST(events.next() != nullptr);
    }
    BOOST_TEST(one_event >= 0.0);
}

BOOST_AUTO_TEST_CASE(stopping_early_stops_the_worker) {
    el2fx::testing::IndexedLog log(disordered_log(9));
    TimeOrderedReader& reader = log.reader;
    Diagnostics d;
    { EventPrefetcher untouched(reader, d, 1); }
    {
        EventPrefetcher one_event(reader, d, 3);
        BOOST_TEST(one_event.next() != nullptr);
    }
    // The reader is still usable: a new prefetcher starts over.
    Diagnostics again;
    std::size_t n = 0;
    EventPrefetcher all(reader, again);
    while (all.next()) ++n;
    Diagnostics plain;
    BOOST_TEST(n == read_plain(reader, plain).size());
}
