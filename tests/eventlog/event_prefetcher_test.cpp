// The prefetcher must give exactly what the time-ordered reader gives: the same events with
// the same payloads, each pass's diagnostics counted by the time the event that caused them
// comes out, and the reader's error after the events before it.
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>
#include <random>
#include <unistd.h>

#include "analysis/run/census_repeats.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/split_prefetcher.hpp"
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
    ThreadId woken = 0;  // a WakeupThread's thread
    bool operator==(const Seen&) const = default;
};

Seen seen(const Event& e, const Diagnostics& d) {
    std::string text;
    if (const auto* m = e.as<UserMessage>()) text = std::string(m->message.bytes);
    const auto* w = e.as<WakeupThread>();
    return Seen{e.time, e.offset, e.cap, e.tag, text, d.total(), w ? w->thread : ThreadId{0}};
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

// The worker stores a batch through its cache when it had to wait for it (the consumer is the
// slower side), else past it (event_prefetcher.cpp): the same events either way. A consumer
// that pauses at every event keeps the worker waiting; one that does not keeps it busy.
BOOST_AUTO_TEST_CASE(same_events_whichever_side_waits) {
    el2fx::testing::IndexedLog log(disordered_log(4));
    TimeOrderedReader& reader = log.reader;
    Diagnostics plain_pass;
    const std::vector<Seen> expected = read_plain(reader, plain_pass);
    for (const bool slow_consumer : {true, false}) {
        Diagnostics pass;
        EventPrefetcher prefetcher(reader, pass, 5);
        std::vector<Seen> got;
        while (const Event* e = prefetcher.next()) {
            got.push_back(seen(*e, pass));
            if (slow_consumer) ::usleep(50);
        }
        BOOST_TEST((got == expected), (slow_consumer ? "slow consumer" : "fast consumer"));
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
    // The file shrinks after indexing: reading its end fails. Each reading has a file of its
    // own, as the first read past the end of a mapped file marks every later read of it failed.
    auto cut_log = [] {
        auto log = std::make_unique<el2fx::testing::IndexedLog>(disordered_log(7));
        BOOST_REQUIRE(::truncate(log->file.path.c_str(), static_cast<off_t>(log->reader.stream_end().bytes / 2)) == 0);
        return log;
    };
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
    const auto plain_log = cut_log();
    plain_log->reader.restart(d);
    const std::size_t plain = read_until_error([&] { return plain_log->reader.next(); });
    BOOST_TEST(plain > 0u);
    for (std::size_t batch : {std::size_t{1}, std::size_t{5}, EventPrefetcher::kBatchEvents}) {
        const auto log = cut_log();
        EventPrefetcher prefetcher(log->reader, d, batch);
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

// Records of the tags left undecoded come out with an empty payload and everything else as
// ever; the others are decoded as ever.
BOOST_AUTO_TEST_CASE(tags_left_undecoded_keep_all_but_their_payload) {
    el2fx::testing::IndexedLog log(disordered_log(5));
    TimeOrderedReader& reader = log.reader;
    Diagnostics plain_pass;
    const std::vector<Seen> expected = read_plain(reader, plain_pass);
    TagSet undecoded;
    undecoded.set(RunThread::tag);
    for (std::size_t batch : {std::size_t{1}, std::size_t{7}, EventPrefetcher::kBatchEvents}) {
        Diagnostics pass;
        EventPrefetcher events(reader, pass, batch);
        events.leave_undecoded(undecoded);
        std::vector<Seen> got;
        std::size_t left = 0;
        while (const Event* e = events.next()) {
            got.push_back(seen(*e, pass));  // tag, time, offset, capability, a message's text
            if (e->tag == RunThread::tag) {
                const auto* unknown = e->as<UnknownEvent>();
                left += unknown && unknown->payload.bytes.empty() &&
                        e->size == kEventHeader + static_cast<std::size_t>(reader.header().size_of(RunThread::tag));
            } else {
                BOOST_TEST(!e->as<UnknownEvent>());  // decoded as ever
            }
        }
        BOOST_TEST((got == expected), "batch of " << batch);
        BOOST_TEST(left > 500u, "batch of " << batch);
        BOOST_TEST(left == static_cast<std::size_t>(std::count_if(expected.begin(), expected.end(), [](const Seen& x) {
                               return x.tag == RunThread::tag;
                           })));
    }
}

namespace {

// A part on the worker that leaves, for each event of its tags, its thread and the latest
// time so far, and one more at the end; what the consumer gets back, in order.
class EchoPart final : public WorkerPart {
public:
    struct Left {
        std::uint64_t sequence;  // the event's place in the whole pass (~0: finish()'s)
        ThreadId thread;
        std::uint64_t now;
        bool operator==(const Left&) const = default;
    };
    const TagSet& tags() const override { return tags_; }
    std::unique_ptr<WorkerOutput> make_output() const override { return std::make_unique<Output>(); }
    bool handle(const WorkerEvent& event, std::uint64_t now, std::size_t index, WorkerOutput& out) override {
        // No Boost.Test assertion here, on the worker: an undecoded event leaves a thread no
        // event has, which the consumer's check then finds.
        RunThread run;
        const bool decoded = event.decode(run);
        auto& left = static_cast<Output&>(out).left;
        left.push_back({index, {worker_seen_, decoded ? run.thread : ~ThreadId{0}, now}});
        ++worker_seen_;
        return left.size() < room;
    }
    std::size_t room = static_cast<std::size_t>(-1);  // outputs a batch takes
    void finish(std::uint64_t now, std::size_t index, WorkerOutput& out) override {
        static_cast<Output&>(out).left.push_back({index, {~std::uint64_t{0}, 0, now}});
    }
    std::size_t deliver(const WorkerOutput& out, std::size_t end, bool from_start) override {
        const auto& left = static_cast<const Output&>(out).left;
        if (from_start) {
            at_ = 0;
            ++outputs;
        }
        most_left = std::max(most_left, left.size());
        for (; at_ < left.size() && left[at_].first < end; ++at_) delivered.push_back(left[at_].second);
        return at_ < left.size() ? left[at_].first : static_cast<std::size_t>(-1);
    }
    std::vector<Left> delivered;
    std::size_t outputs = 0, most_left = 0;  // batches delivered from, most outputs one held

private:
    struct Output final : WorkerOutput {
        std::vector<std::pair<std::size_t, Left>> left;
        void clear() override { left.clear(); }
    };
    TagSet tags_ = [] {
        TagSet t;
        t.set(RunThread::tag);
        return t;
    }();
    std::uint64_t worker_seen_ = 0;  // the worker's
    std::size_t at_ = 0;             // the consumer's
};

}  // namespace

// What a part on the worker leaves for an event reaches the consumer once it took that event
// and not before, in the order of the events, across batches of every size; the end's after the last.
BOOST_AUTO_TEST_CASE(a_worker_parts_outputs_come_back_with_their_events) {
    el2fx::testing::IndexedLog log(disordered_log(4));
    TimeOrderedReader& reader = log.reader;
    for (std::size_t batch : {std::size_t{1}, std::size_t{7}, EventPrefetcher::kBatchEvents, std::size_t{0}}) {
        BOOST_TEST_CONTEXT("batch of " << batch) {
            EchoPart part;
            if (batch == 0) {  // a part whose output is full after 3 events ends the batch there
                part.room = 3;
                batch = EventPrefetcher::kBatchEvents;
            }
            Diagnostics d;
            EventPrefetcher prefetcher(reader, d, std::nullopt, &part, batch);
            std::uint64_t runs = 0, latest = 0;
            while (const Event* e = prefetcher.next()) {
                latest = std::max(latest, e->time);
                prefetcher.deliver_worker_outputs();
                if (const auto* run = e->as<RunThread>()) {
                    BOOST_REQUIRE(part.delivered.size() == runs + 1);
                    BOOST_TEST((part.delivered.back() == EchoPart::Left{runs, run->thread, latest}));
                    ++runs;
                } else {
                    BOOST_TEST(part.delivered.size() == runs);
                }
            }
            BOOST_TEST(runs > 500u);
            prefetcher.deliver_worker_outputs_to_end();
            BOOST_REQUIRE(part.delivered.size() == runs + 1);
            BOOST_TEST((part.delivered.back() == EchoPart::Left{~std::uint64_t{0}, 0, latest}));
            if (part.room == 3) {
                BOOST_TEST(part.most_left <= 4u);  // three events' and the end's
                BOOST_TEST(part.outputs >= runs / 3);
            }
        }
    }
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

namespace {

// Blocks of three capabilities with jitter (records out of order inside a block), some with a
// record stamped before their block marker (the block's earliest is not its first), and a
// global block: run and stop records, and texts.
std::string counting_log(std::uint32_t seed) {
    std::mt19937 rng(seed);
    auto b = base();
    for (int block = 0; block < 6; ++block) {
        for (CapNo cap = 0; cap < 3; ++cap) {
            const std::uint64_t t0 = 10'000 + 1000 * static_cast<std::uint64_t>(block) + cap;
            b.begin_block(t0, block == 5 && cap == 2 ? kGlobalCap : cap, t0 + 999);
            if (block % 2 == 1) b.event(t0 - 7, RunThread{99});  // before the marker
            for (int i = 0; i < 40; ++i) {
                const std::uint64_t t = t0 + 20 * static_cast<std::uint64_t>(i) + rng() % 50;
                if (i % 9 == 4)
                    b.event(t, UserMessage{Text{std::string(rng() % 40, 'm')}});
                else if (i % 3 == 0)
                    b.event(t, StopThread{static_cast<ThreadId>(i), 3, 0});
                else
                    b.event(t, RunThread{static_cast<ThreadId>(i)});
            }
            b.end_block();
        }
    }
    return b.finish();
}

// What a pass gives when it counts `tags` only, and what it counted.
struct CountedPass {
    std::vector<Seen> given;
    CountedRecords counted;
};

void check_counted_pass(const std::vector<Seen>& all, const CountedPass& pass, const TagSet& tags) {
    BOOST_REQUIRE(!pass.given.empty());
    // The records given are the reader's, in its order, and every one not of a counted tag.
    std::size_t at = 0;
    std::map<std::uint16_t, std::uint64_t> given_by_tag, all_by_tag;
    for (const Seen& s : pass.given) {
        while (at < all.size() && !(all[at] == s)) {
            BOOST_TEST(tags.test(all[at].tag), "a record of a tag not counted is missing at " << all[at].offset);
            ++at;
        }
        BOOST_REQUIRE_MESSAGE(at < all.size(), "a record given out of the reader's order");
        ++at;
        ++given_by_tag[s.tag];
    }
    for (; at < all.size(); ++at) BOOST_TEST(tags.test(all[at].tag));
    // What is not given is counted, by type, with the latest of its times.
    std::uint64_t latest_given = 0, latest = 0;
    for (const Seen& s : pass.given) latest_given = std::max(latest_given, s.time);
    for (const Seen& s : all) {
        ++all_by_tag[s.tag];
        latest = std::max(latest, s.time);
    }
    std::uint64_t latest_counted = 0;  // of the records not given (the given ones are unique by offset)
    {
        std::set<std::uint64_t> given_offsets;
        for (const Seen& s : pass.given) given_offsets.insert(s.offset);
        for (const Seen& s : all)
            if (!given_offsets.count(s.offset)) latest_counted = std::max(latest_counted, s.time);
    }
    BOOST_TEST(pass.counted.latest_time == latest_counted);
    BOOST_TEST(std::max(latest_given, pass.counted.latest_time) == latest);
    for (const auto& [tag, n] : all_by_tag)
        BOOST_TEST(given_by_tag[tag] + pass.counted.by_tag[tag] == n, "tag " << tag);
    BOOST_TEST(pass.counted.events() == all.size() - pass.given.size());
    // The first record of all, and each capability's first, are given.
    BOOST_TEST((pass.given.front() == all.front()));
    std::map<std::optional<CapNo>, Seen> first_given, first_of_all;
    for (const Seen& s : pass.given) first_given.try_emplace(s.cap, s);
    for (const Seen& s : all) first_of_all.try_emplace(s.cap, s);
    BOOST_TEST(first_given.size() == first_of_all.size());
    for (const auto& [cap, s] : first_of_all) BOOST_TEST((first_given.at(cap) == s));
}

Seen without_diagnostics(Seen s) {
    s.diagnostics = 0;
    return s;
}

// What a plain pass gives of a log with no problem to count.
std::vector<Seen> every_record(TimeOrderedReader& reader) {
    Diagnostics plain_pass;
    std::vector<Seen> all;
    for (const Seen& s : read_plain(reader, plain_pass)) all.push_back(without_diagnostics(s));
    BOOST_REQUIRE(plain_pass.total() == 0u);
    return all;
}

// What the reader gives and counts in a pass that counts `tags` only (and `also`).
CountedPass counted_by_reader(TimeOrderedReader& reader, const TagSet& tags,
                              std::vector<RepeatFilter*> repeats = {}) {
    CountedPass pass;
    Diagnostics d;
    reader.restart(d);
    reader.count_only(tags, repeats);
    while (const Event* e = reader.next()) pass.given.push_back(without_diagnostics(seen(*e, d)));
    pass.counted = reader.counted();
    BOOST_TEST(d.total() == 0u);
    return pass;
}

// Tags a pass counts only: of fixed sizes (the usual framing step), and of a variable size
// (the cursor's slow step).
std::pair<TagSet, TagSet> counted_tag_sets() {
    TagSet fixed, variable;
    fixed.set(RunThread::tag);
    fixed.set(BlockMarker::tag);
    variable.set(UserMessage::tag);
    variable.set(StopThread::tag);
    return {fixed, variable};
}

}  // namespace

// A pass that counts some tags only (the census's GC and heap events) gives every other record
// as without, in the same order, and counts the rest; but the first record of all and each
// capability's first are given, whatever their tag (also where a block's earliest record is
// not its marker).
BOOST_AUTO_TEST_CASE(counting_only_gives_the_other_records_and_counts_the_rest) {
    const auto [fixed, variable] = counted_tag_sets();
    for (const auto& [tags, main_tag] : {std::pair{fixed, RunThread::tag}, std::pair{variable, UserMessage::tag}})
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        el2fx::testing::IndexedLog log(counting_log(seed));
        TimeOrderedReader& reader = log.reader;
        BOOST_REQUIRE(reader.in_order());
        const std::vector<Seen> all = every_record(reader);

        const CountedPass by_reader = counted_by_reader(reader, tags);
        check_counted_pass(all, by_reader, tags);
        BOOST_TEST(by_reader.counted.by_tag[main_tag] > 50u);  // the log exercises it

        for (std::size_t batch : {std::size_t{1}, std::size_t{7}, EventPrefetcher::kBatchEvents}) {
            Diagnostics pass;
            EventPrefetcher prefetcher(reader, pass, EventPrefetcher::CountOnly{&tags}, batch);
            CountedPass prefetched;
            while (const Event* e = prefetcher.next()) {
                prefetched.given.push_back(without_diagnostics(seen(*e, pass)));
                if (prefetched.given.size() == 1 && batch < 100)  // the first batch is not the last
                    BOOST_TEST(prefetcher.counted().events() == 0u);  // nothing before the end
            }
            prefetched.counted = prefetcher.counted();
            BOOST_TEST((prefetched.given == by_reader.given), "batch of " << batch);
            BOOST_TEST((prefetched.counted.by_tag == by_reader.counted.by_tag));
            BOOST_TEST(prefetched.counted.latest_time == by_reader.counted.latest_time);
        }
        // The next pass gives everything again.
        BOOST_TEST(every_record(reader).size() == all.size());
    }
}

// Wake-ups of six threads on three capabilities whose blocks overlap in time, some stamped
// before their block's marker, among runs of threads.
std::string wakeup_log(std::uint32_t seed) {
    std::mt19937 rng(seed);
    auto b = base();
    b.declare<WakeupThread>();
    for (int block = 0; block < 6; ++block) {
        for (CapNo cap = 0; cap < 3; ++cap) {
            const std::uint64_t t0 = 10'000 + 1000 * static_cast<std::uint64_t>(block) + cap;
            b.begin_block(t0, cap, t0 + 999);
            if (block % 2 == 1) b.event(t0 - 7 + cap, WakeupThread{static_cast<ThreadId>(1 + rng() % 6), 0});
            for (int i = 0; i < 40; ++i) {
                const std::uint64_t t = t0 + 20 * static_cast<std::uint64_t>(i) + rng() % 50;
                if (rng() % 4 == 0)
                    b.event(t, RunThread{static_cast<ThreadId>(1 + rng() % 6)});
                else
                    b.event(t, WakeupThread{static_cast<ThreadId>(1 + rng() % 6), cap});
            }
            b.end_block();
        }
    }
    return b.finish();
}

// With wake-ups counted too: each thread's earliest wake-ups are given, and a wake-up counted
// is of a thread a wake-up stamped earlier was given for; the other records as before.
BOOST_AUTO_TEST_CASE(counting_wakeups_gives_each_threads_earliest) {
    TagSet tags, with_wakeups;
    tags.set(RunThread::tag);  // some kept back as before, beside the wake-ups
    with_wakeups = tags;
    with_wakeups.set(WakeupThread::tag);
    for (std::uint32_t seed : {1u, 2u, 3u})
    for (std::size_t threads : {std::size_t{100}, std::size_t{2}}) {
        BOOST_TEST_CONTEXT("seed " << seed << ", up to " << threads << " threads") {
            el2fx::testing::IndexedLog log(wakeup_log(seed));
            TimeOrderedReader& reader = log.reader;
            BOOST_REQUIRE(reader.in_order());
            const std::vector<Seen> all = every_record(reader);
            el2fx::run::WakeupRepeats wakeups(threads);
            const CountedPass by_reader = counted_by_reader(reader, tags, {&wakeups});
            check_counted_pass(all, by_reader, with_wakeups);
            // Each counted wake-up: a wake-up of its thread stamped earlier was given.
            std::set<std::uint64_t> given_offsets;
            std::map<ThreadId, std::uint64_t> earliest_given, earliest;
            for (const Seen& s : by_reader.given) {
                given_offsets.insert(s.offset);
                if (s.tag == WakeupThread::tag && !earliest_given.count(s.woken)) earliest_given[s.woken] = s.time;
                if (s.tag == WakeupThread::tag) earliest_given[s.woken] = std::min(earliest_given[s.woken], s.time);
            }
            std::set<ThreadId> counted_threads;
            for (const Seen& s : all) {
                if (s.tag != WakeupThread::tag) continue;
                earliest.try_emplace(s.woken, s.time);
                earliest[s.woken] = std::min(earliest[s.woken], s.time);
                if (given_offsets.count(s.offset)) continue;
                counted_threads.insert(s.woken);
                BOOST_TEST((earliest_given.count(s.woken) && earliest_given[s.woken] < s.time),
                           "wake-up at " << s.offset << " counted before its thread's was given");
            }
            for (const Seen& s : all)  // every wake-up at its thread's earliest time is given
                if (s.tag == WakeupThread::tag && s.time == earliest[s.woken]) BOOST_TEST(given_offsets.count(s.offset) == 1u);
            BOOST_TEST(counted_threads.size() <= threads);
            BOOST_TEST(by_reader.counted.by_tag[WakeupThread::tag] > 60u);  // the log exercises it
            for (std::size_t batch : {std::size_t{1}, std::size_t{7}, EventPrefetcher::kBatchEvents}) {
                Diagnostics pass;
                el2fx::run::WakeupRepeats again(threads);
                EventPrefetcher prefetcher(reader, pass, EventPrefetcher::CountOnly{&tags, {&again}}, batch);
                CountedPass prefetched;
                while (const Event* e = prefetcher.next()) prefetched.given.push_back(without_diagnostics(seen(*e, pass)));
                prefetched.counted = prefetcher.counted();
                BOOST_TEST((prefetched.given == by_reader.given), "batch of " << batch);
                BOOST_TEST((prefetched.counted.by_tag == by_reader.counted.by_tag));
            }
            // The next pass gives every wake-up again.
            BOOST_TEST(every_record(reader).size() == all.size());
        }
    }
}

// Only from the start of a pass over a log the index found in order.
BOOST_AUTO_TEST_CASE(counting_only_needs_the_start_of_a_pass_over_a_log_in_order) {
    TagSet tags;
    tags.set(RunThread::tag);
    el2fx::testing::IndexedLog log(counting_log(4));
    Diagnostics d;
    log.reader.restart(d);
    BOOST_REQUIRE(log.reader.next());
    BOOST_CHECK_THROW(log.reader.count_only(tags), Error);

    auto b = base();  // disordered beyond the reorder window: indexed by decoding
    b.begin_block(10, 0);
    for (std::uint64_t i = 0; i < kMaxReorderWindow + 904; ++i) b.event(100 + i, RunThread{1});
    b.event(50, StopThread{1, 3, 0}).end_block();
    el2fx::testing::IndexedLog disordered(b.finish());
    BOOST_REQUIRE(!disordered.reader.in_order());
    disordered.reader.restart(d);
    BOOST_CHECK_THROW(disordered.reader.count_only(tags), Error);
}

// Two workers, each reading every other range, one merging the other's records with its own:
// the consumer sees what one prefetcher of the whole reader gives, counted records included,
// also where a batch ends between the two sides' records.
BOOST_AUTO_TEST_CASE(a_split_pass_gives_what_one_reader_gives) {
    const auto [fixed, variable] = counted_tag_sets();
    for (const TagSet& tags : {fixed, variable, TagSet{}})
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        el2fx::testing::IndexedLog log(counting_log(seed));
        TimeOrderedReader& reader = log.reader;
        BOOST_REQUIRE(reader.in_order());
        BOOST_REQUIRE(reader.ranges().size() > 4u);
        const CountedPass by_reader = counted_by_reader(reader, tags);
        // Each part's reader gives its ranges' records: the two together are the whole's.
        std::size_t given_by_parts = 0;
        for (std::size_t part = 0; part < SplitPrefetcher::kParts; ++part) {
            TimeOrderedReader half(reader, part, SplitPrefetcher::kParts);
            BOOST_TEST(half.ranges().size() >= reader.ranges().size() / 2);
            given_by_parts += counted_by_reader(half, tags).given.size();
        }
        BOOST_TEST(given_by_parts == by_reader.given.size());
        for (std::size_t batch : {std::size_t{1}, std::size_t{7}, EventPrefetcher::kBatchEvents}) {
            Diagnostics pass;
            SplitPrefetcher split(reader, pass, tags, {}, batch);
            CountedPass prefetched;
            while (const Event* e = split.next()) prefetched.given.push_back(without_diagnostics(seen(*e, pass)));
            BOOST_TEST(!split.next());  // the end stays the end
            prefetched.counted = split.counted();
            BOOST_TEST((prefetched.given == by_reader.given), "batch of " << batch);
            BOOST_TEST((prefetched.counted.by_tag == by_reader.counted.by_tag));
            BOOST_TEST(prefetched.counted.latest_time == by_reader.counted.latest_time);
            BOOST_TEST(pass.total() == 0u);
        }
    }
}

// Each part's filter gives what is new in its ranges: every wake-up one filter gives is
// given, in the reader's order, and each one counted is of a thread whose earlier wake-up was.
BOOST_AUTO_TEST_CASE(a_split_pass_gives_at_least_what_one_filter_gives) {
    TagSet tags;
    tags.set(RunThread::tag);
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        el2fx::testing::IndexedLog log(wakeup_log(seed));
        TimeOrderedReader& reader = log.reader;
        const std::vector<Seen> all = every_record(reader);
        el2fx::run::WakeupRepeats one(100);
        const CountedPass by_reader = counted_by_reader(reader, tags, {&one});
        for (std::size_t batch : {std::size_t{1}, EventPrefetcher::kBatchEvents}) {
            Diagnostics pass;
            el2fx::run::WakeupRepeats first(100), second(100);
            SplitPrefetcher split(reader, pass, tags, {std::vector<RepeatFilter*>{&first}, {&second}}, batch);
            CountedPass prefetched;
            while (const Event* e = split.next()) prefetched.given.push_back(without_diagnostics(seen(*e, pass)));
            prefetched.counted = split.counted();
            TagSet with_wakeups = tags;
            with_wakeups.set(WakeupThread::tag);
            check_counted_pass(all, prefetched, with_wakeups);  // in order, the rest counted
            std::set<std::uint64_t> offsets;
            for (const Seen& s : prefetched.given) offsets.insert(s.offset);
            for (const Seen& s : by_reader.given) BOOST_TEST(offsets.count(s.offset) == 1u, "batch of " << batch);
            BOOST_TEST(prefetched.counted.by_tag[WakeupThread::tag] > 0u);
        }
    }
}

// A part's error (the file shrank after indexing) comes after the events before it, and the
// end follows.
BOOST_AUTO_TEST_CASE(a_split_pass_gives_a_parts_error) {
    for (std::size_t cut : {3u, 2u}) {
        el2fx::testing::IndexedLog log(counting_log(5));
        TimeOrderedReader& reader = log.reader;
        const std::size_t whole = every_record(reader).size();
        BOOST_REQUIRE(::truncate(log.file.path.c_str(), static_cast<off_t>(reader.stream_end().bytes / cut)) == 0);
        Diagnostics pass;
        SplitPrefetcher split(reader, pass, TagSet{}, {});
        std::size_t n = 0;
        bool failed = false;
        try {
            while (split.next()) ++n;
        } catch (const Error& e) {
            failed = true;
            BOOST_TEST(std::string(e.what()).find("changed while it was being read") != std::string::npos);
        }
        BOOST_TEST(failed);
        BOOST_TEST(n > 0u);
        BOOST_TEST(n < whole);
        BOOST_TEST(!split.next());
    }
}
