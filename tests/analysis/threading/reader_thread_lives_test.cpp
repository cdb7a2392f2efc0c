// The threads' lives kept apart (on the reader's thread in a conversion): what the sinks are
// told must be what one analysis of every thread and the markers' span filters on the
// consumer tell them, at the same events: the own threads' samples and what their span
// filters keep, the folded threads' samples summed by time on the grid and activity in chunks
// of ReaderLivesSink::kChunkSamples (the first of each activity told before its sums), the
// diagnostics, the lives' ends in id order, and the filters' pending groups where the markers
// flush them.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/threading/reader_thread_lives.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "make_event.hpp"

using el2fx::Diagnostic;
using el2fx::Diagnostics;
using namespace el2fx::analysis;
namespace ev = el2fx::eventlog;

namespace {

constexpr std::uint64_t kInterval = 1000;
constexpr SpanDetail kDetail{.resolution = 2000, .window = 40'000};
constexpr std::uint16_t kYield = 3;
constexpr std::uint16_t kFinished = 5;
constexpr std::uint16_t kMVar = 7;

template <typename Payload>
ev::Event event(std::uint64_t time, ev::CapNo cap, Payload payload) {
    return el2fx::testing::make_event(time, cap, payload);
}

std::string text(const ThreadActivity& a) {
    return std::to_string(static_cast<int>(a.state)) + "/" + std::to_string(a.cap) + "/" +
           std::to_string(a.reason.status) + "/" + std::to_string(a.reason.blocker);
}

std::string text(const MergedSpans& g) {
    return std::to_string(g.start) + "-" + std::to_string(g.end) + " n" + std::to_string(g.count) + " t" +
           std::to_string(g.total) + " l" + std::to_string(g.longest);
}

// What the sinks were told, one line each, with the event it came after ("end" after the last).
struct Told {
    std::vector<std::string> lines;
    std::string at = "start";
    std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> chunk;   // (time, activity) -> weight
    std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> chunks;  // every chunk's, summed
    void line(const std::string& s) { lines.push_back(at + ": " + s); }
    void chunk_full() {
        std::string s = "chunk";
        for (const auto& [key, weight] : chunk) chunks[key] += weight;
        for (const auto& [key, weight] : chunk)
            s += " " + std::to_string(key.first) + "@" + key.second + "x" + std::to_string(weight);
        line(s);
        chunk.clear();
    }
    void running_span(std::size_t track, std::uint64_t start, std::uint64_t end, ev::CapNo cap) {
        line("track " + std::to_string(track) + " running " + std::to_string(start) + "-" + std::to_string(end) +
             " on " + std::to_string(cap));
    }
    void running_merged(std::size_t track, const MergedSpans& g) {
        line("track " + std::to_string(track) + " running merged " + text(g));
    }
    void stopped_span(std::size_t track, std::uint64_t start, std::uint64_t end, const ThreadActivity& a) {
        line("track " + std::to_string(track) + " stopped " + std::to_string(start) + "-" + std::to_string(end) + " " +
             text(a));
    }
    void stopped_merged(std::size_t track, const MergedSpans& g, std::uint16_t status) {
        line("track " + std::to_string(track) + " stopped merged " + text(g) + " status " + std::to_string(status));
    }
    void own_sample(ev::ThreadId id, const Sample<ThreadActivity>& s) {
        line("thread " + std::to_string(id) + " " + std::to_string(s.time) + " " + text(s.key) + " w" +
             std::to_string(s.weight) + " cpu" + std::to_string(s.cpu_delta_ns));
    }
};

// The consumer's side as the converter had it: the own threads' spans through their filters
// (convert/threading_markers.hpp) and their samples; the folded threads' samples as the shared
// track sums them (convert/folded_chunk.hpp).
class OnTheConsumer final : public ThreadingSink {
public:
    OnTheConsumer(Told& told, const std::vector<ev::ThreadId>& own) : told_(told), own_(own) {
        for (std::size_t i = 0; i < own.size(); ++i) filters_.emplace_back(kDetail);
    }
    void capability_started(ev::CapNo, std::uint64_t) override {}
    void capability_span(ev::CapNo, const CapabilitySpan&) override {}
    void capability_sample(ev::CapNo, const Sample<CapabilityActivity>&) override {}
    void thread_span(ev::ThreadId id, const ThreadStateSpan& span) override {
        const auto track = track_of(id);
        if (track == own_.size()) return;
        Running running{told_, track};
        Stopped stopped{told_, track};
        filters_[track].offer(span, off_cpu_kind(span.activity.reason.status), running, stopped);
    }
    void thread_sample(ev::ThreadId id, const Sample<ThreadActivity>& s) override {
        if (track_of(id) < own_.size()) return told_.own_sample(id, s);
        if (seen_.insert(text(s.key)).second) told_.line("activity " + text(s.key));
        told_.chunk[{on_sampling_grid(s.time, kInterval), text(s.key)}] += s.weight;
        if (++taken_ == ReaderLivesSink::kChunkSamples) {
            told_.chunk_full();
            taken_ = 0;
        }
    }
    void flush(std::size_t track) {
        Running running{told_, track};
        Stopped stopped{told_, track};
        filters_[track].finish(running, stopped);
    }

private:
    struct Running {
        Told& told;
        std::size_t track;
        void span(std::uint64_t start, std::uint64_t end, ev::CapNo cap) { told.running_span(track, start, end, cap); }
        void merged(const MergedSpans& g) { told.running_merged(track, g); }
    };
    struct Stopped {
        Told& told;
        std::size_t track;
        void span(std::uint64_t start, std::uint64_t end, const ThreadActivity& a) {
            told.stopped_span(track, start, end, a);
        }
        void merged(const MergedSpans& g, const StoppedTally& tally) {
            told.stopped_merged(track, g, tally.by_status.dominant());
        }
    };
    std::size_t track_of(ev::ThreadId id) const {
        return static_cast<std::size_t>(std::find(own_.begin(), own_.end(), id) - own_.begin());
    }
    Told& told_;
    std::vector<ev::ThreadId> own_;
    std::vector<ThreadSpanFilters> filters_;
    std::set<std::string> seen_;
    std::size_t taken_ = 0;
};

// What ReaderThreadLives hands back.
class FromTheReader final : public ReaderLivesSink {
public:
    explicit FromTheReader(Told& told) : told_(told) {}
    void own_sample(ev::ThreadId id, const Sample<ThreadActivity>& s) override { told_.own_sample(id, s); }
    void running_span(std::size_t track, std::uint64_t start, std::uint64_t end, ev::CapNo cap) override {
        told_.running_span(track, start, end, cap);
    }
    void running_merged(std::size_t track, const MergedSpans& g) override { told_.running_merged(track, g); }
    void stopped_span(std::size_t track, std::uint64_t start, std::uint64_t end, const ThreadActivity& a) override {
        told_.stopped_span(track, start, end, a);
    }
    void stopped_merged(std::size_t track, const MergedSpans& g, std::uint16_t status) override {
        told_.stopped_merged(track, g, status);
    }
    void folded_activity(const ThreadActivity& key) override { told_.line("activity " + text(key)); }
    void folded_sum(std::uint64_t time, const ThreadActivity& key, std::uint64_t weight) override {
        told_.chunk[{time, text(key)}] += weight;
    }
    void folded_chunk_full() override { told_.chunk_full(); }

private:
    Told& told_;
};

// Threads 7 and 1 have tracks of their own (in that order), the others are folded: thread 2
// runs long enough to fill chunks by itself; many short lives, blocked and woken; events after
// a finish (diagnostics); threads 1, 5, 7 and 9 live at the end, 9 in an activity no sample had.
std::vector<ev::Event> events() {
    std::vector<ev::Event> out;
    std::uint64_t t = 1000;
    for (int run = 0; run < 3; ++run) {  // 60,000 samples a run (kMaxSamplesPerGap at most)
        out.push_back(event(t, 0, ev::RunThread{2}));
        t += 60'000 * kInterval;
        out.push_back(event(t, 0, ev::StopThread{2, kYield, 0}));
        t += 10 * kInterval;
    }
    for (ev::ThreadId id = 10; id < 400; ++id) {
        const ev::CapNo cap = id % 2;
        out.push_back(event(t += 300, cap, ev::RunThread{id}));
        out.push_back(event(t += 2500, cap, ev::StopThread{id, kMVar, 0}));
        out.push_back(event(t += 100, 1 - cap, ev::WakeupThread{id, cap}));
        out.push_back(event(t += 4000, cap, ev::RunThread{id}));
        out.push_back(event(t += 900, cap, ev::StopThread{id, kFinished, 0}));
        const ev::ThreadId own = id % 2 ? 1 : 7;
        out.push_back(event(t += 10, 1 - cap, ev::RunThread{own}));  // own threads' spans, short and long
        // Blocked briefly (merged), then runnable until its next turn (kept as it is).
        out.push_back(event(t += 300 + id % 7 * 700, 1 - cap, ev::StopThread{own, kMVar, 0}));
        out.push_back(event(t += 200 + id % 5 * 300, 1 - cap, ev::RunThread{own}));
        out.push_back(event(t += 150, 1 - cap, ev::StopThread{own, kYield, 0}));
    }
    out.push_back(event(t += 100, 0, ev::WakeupThread{10, 1}));  // after its finish
    out.push_back(event(t += 100, 1, ev::RunThread{11}));        // the same
    out.push_back(event(t += 100, 0, ev::RunThread{1}));
    out.push_back(event(t += 100, 1, ev::RunThread{5}));
    out.push_back(event(t += 3000, 1, ev::StopThread{5, kYield, 0}));
    out.push_back(event(t += 100, 1, ev::RunThread{7}));
    out.push_back(event(t += 100, 0, ev::StopThread{9, 20, 0}));  // a status no sample had
    out.push_back(event(t += 9000, 1, ev::StartGC{}));
    return out;
}

struct Told2 {
    Told told;
    Diagnostics diagnostics;
};

// One analysis of every thread, the filters and the summing on the consumer.
void on_the_consumer(const std::vector<ev::Event>& log, const std::vector<ev::ThreadId>& own, Told2& out) {
    OnTheConsumer sink(out.told, own);
    ThreadingAnalysis analysis(out.diagnostics, ThreadingOptions{kInterval}, &sink);
    for (std::size_t i = 0; i < log.size(); ++i) {
        out.told.at = std::to_string(i);
        analysis.handle(log[i]);
        out.told.line("diagnostics " + std::to_string(out.diagnostics.total()));
    }
    out.told.at = "end";
    analysis.finish();
    for (std::size_t track = 0; track < own.size(); ++track) sink.flush(track);
    out.told.chunk_full();  // the shared track adds what its chunk holds at the end
}

// The lives apart, fed as the prefetcher feeds a worker part (one batch).
// With `share`, the folded threads it gives the consumer are followed there.
void apart(const std::vector<ev::Event>& log, const std::vector<ev::ThreadId>& own, bool folded, Told2& out,
           FoldedShare* share = nullptr) {
    OnTheConsumer consumer_sink(out.told, own);  // the lives the consumer follows
    FromTheReader reader_sink(out.told);
    ReaderThreadLives beside(ReaderThreadLives::Setup{own, folded, kInterval, kDetail, share}, reader_sink,
                             out.diagnostics);
    ThreadingOptions options{kInterval};
    options.lives_elsewhere = folded ? ThreadingOptions::LivesElsewhere::others : ThreadingOptions::LivesElsewhere::own;
    options.own_threads = &beside.own();
    options.folded_share = share;
    ThreadingAnalysis analysis(out.diagnostics, options, &consumer_sink);
    const std::unique_ptr<ev::WorkerOutput> batch = beside.make_output();
    std::uint64_t now = 0;
    for (std::size_t i = 0; i < log.size(); ++i) {
        out.told.at = std::to_string(i);
        now = std::max(now, log[i].time);
        if (beside.tags().test(log[i].tag))
            beside.handle(el2fx::testing::FramedEvent(log[i]).view(), now, i, *batch);  // the worker
        analysis.handle(log[i]);
        beside.deliver(*batch, i + 1, i == 0);  // the consumer, once it took the event
        out.told.line("diagnostics " + std::to_string(out.diagnostics.total()));
    }
    beside.finish(now, log.size(), *batch);
    out.told.at = "end";
    beside.deliver(*batch, static_cast<std::size_t>(-1), false);
    analysis.finish([&](ev::ThreadId id) { beside.deliver_ends_before(id); });
    beside.deliver_ends_before(std::nullopt);
    for (std::size_t track = 0; track < own.size(); ++track) {
        beside.deliver_flush_of(track);
        consumer_sink.flush(track);  // nothing held where the own threads' lives were apart
    }
    out.told.chunk_full();
}

std::size_t lines_with(const std::vector<std::string>& lines, const std::string& part) {
    return static_cast<std::size_t>(
        std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != l.npos; }));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(reader_thread_lives)

BOOST_AUTO_TEST_CASE(the_sinks_are_told_what_one_analysis_on_the_consumer_tells_them) {
    const std::vector<ev::ThreadId> own{7, 1};
    const std::vector<ev::Event> log = events();
    Told2 whole;
    on_the_consumer(log, own, whole);
    for (const bool folded : {true, false}) {
        BOOST_TEST_CONTEXT((folded ? "the folded threads' lives apart" : "the own threads' lives apart")) {
            Told2 split;
            apart(log, own, folded, split);
            BOOST_TEST(whole.told.lines == split.told.lines, boost::test_tools::per_element());
            BOOST_TEST(split.diagnostics.count(Diagnostic::event_after_thread_finished) == 2u);
            BOOST_TEST(split.diagnostics.total() == whole.diagnostics.total());
        }
    }
    // What the test must exercise: chunks filled, own threads' samples, spans kept and merged,
    // groups pending at the end, and the end's new activity told among the own threads' ends.
    const std::vector<std::string>& lines = whole.told.lines;
    BOOST_TEST(lines_with(lines, ": chunk ") >= 3u);
    BOOST_TEST(lines_with(lines, ": thread ") > 10u);
    BOOST_TEST(lines_with(lines, "running merged") > 5u);
    BOOST_TEST(lines_with(lines, "stopped merged") > 5u);
    BOOST_TEST(lines_with(lines, " running ") > lines_with(lines, "running merged"));  // some kept as they are
    BOOST_TEST(lines_with(lines, "end: track") >= 2u);
    BOOST_TEST(std::count(lines.begin(), lines.end(), "end: activity 1/0/20/0") == 1);
}

// A share of the folded threads followed on the consumer instead: the chunks split elsewhere
// (each side counts its own samples), but every (time, activity) sums to the same weight, and
// everything else is told as before.
BOOST_AUTO_TEST_CASE(folded_threads_shared_with_the_consumer_sum_to_the_same_samples) {
    const std::vector<ev::ThreadId> own{7, 1};
    const std::vector<ev::Event> log = events();
    Told2 whole;
    on_the_consumer(log, own, whole);
    FoldedShare share;
    share.set(0, FoldedShare::kSteps / 2);
    Told2 split;
    apart(log, own, true, split, &share);
    const auto others = [](const std::vector<std::string>& lines) {
        std::vector<std::string> kept;
        for (const std::string& l : lines)
            if (l.find(": chunk") == l.npos && l.find(": activity") == l.npos) kept.push_back(l);
        return kept;
    };
    BOOST_TEST(others(whole.told.lines) == others(split.told.lines), boost::test_tools::per_element());
    BOOST_TEST((whole.told.chunks == split.told.chunks));
    BOOST_TEST(split.diagnostics.total() == whole.diagnostics.total());
    // Both sides had some: thread 2's long life on one, and the short lives on both.
    std::size_t shared = 0;
    for (ev::ThreadId id = 10; id < 400; ++id) shared += share.on_consumer(id);
    BOOST_TEST(shared > 100u);
    BOOST_TEST(shared < 290u);
}

BOOST_AUTO_TEST_CASE(a_quarter_of_the_folded_threads_go_to_the_consumer_while_the_worker_is_slower) {
    Told told;
    FromTheReader sink(told);
    Diagnostics diagnostics;
    FoldedShare share;
    ReaderThreadLives beside(ReaderThreadLives::Setup{{7, 1}, true, kInterval, kDetail, &share}, sink, diagnostics);
    const auto batches = [&](std::uint64_t worker_ns, std::uint64_t consumer_ns, int n) {
        for (int i = 0; i < n; ++i)
            beside.batch_begins(ev::Pace{.worker_ns = worker_ns * 32,
                                         .worker_events = 32,
                                         .consumer_ns = consumer_ns * 64,
                                         .consumer_events = 64});
    };
    beside.batch_begins(ev::Pace{});  // before the first batch: nothing to compare
    batches(1200, 1000, 7);
    BOOST_TEST(share.latest() == 0u);  // a look takes several batches
    batches(1200, 1000, 1);
    BOOST_TEST(share.latest() == FoldedShare::kSteps / 4);
    batches(1050, 1000, 16);  // near even: it stays
    BOOST_TEST(share.latest() == FoldedShare::kSteps / 4);
    batches(950, 1000, 16);
    BOOST_TEST(share.latest() == FoldedShare::kSteps / 4);
    batches(800, 1000, 8);  // the consumer the slower: every folded thread back to the worker
    BOOST_TEST(share.latest() == 0u);
    batches(1000, 1000, 8);
    BOOST_TEST(share.latest() == 0u);

    // Without a share, or keeping the own threads, there is nothing to move.
    ReaderThreadLives own(ReaderThreadLives::Setup{{7, 1}, false, kInterval, kDetail, &share}, sink, diagnostics);
    for (int i = 0; i < 8; ++i) own.batch_begins(ev::Pace{2000, 1, 1000, 1});
    BOOST_TEST(share.latest() == 0u);
}

// The folded threads' samples are summed by their time on the grid: many threads, each
// finishing just before, at and after the times where rounding moves to the next tick, one
// after another (as a tick's samples come), on two capabilities taking turns.
BOOST_AUTO_TEST_CASE(folded_samples_at_the_rounding_edges_of_the_grid_sum_as_on_the_consumer) {
    constexpr std::uint64_t half = kInterval / 2;
    std::vector<ev::Event> log;
    ev::ThreadId id = 100;
    for (std::uint64_t tick = 1; tick <= 6; ++tick)
        for (const std::uint64_t at :
             {tick * kInterval - half - 1, tick * kInterval - half, tick * kInterval - half + 1, tick * kInterval,
              tick * kInterval + kInterval - half - 1}) {
            const ev::CapNo cap = id % 2;
            log.push_back(event(at - 1, cap, ev::RunThread{id}));
            log.push_back(event(at, cap, ev::StopThread{id, kFinished, 0}));
            ++id;
        }
    Told2 whole;
    on_the_consumer(log, {}, whole);
    Told2 split;
    apart(log, {}, true, split);
    BOOST_TEST(whole.told.lines == split.told.lines, boost::test_tools::per_element());
    // Each finish's sample (weight 0, its nanosecond of running) stands at the tick its time
    // rounds to (half an interval rounds up).
    std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> want;
    for (const ev::Event& e : log)
        if (e.tag == ev::StopThread::tag)
            want[{(e.time + half) / kInterval * kInterval, text(ThreadActivity::running(*e.cap))}];
    std::set<std::uint64_t> ticks;
    for (const auto& [key, weight] : want) ticks.insert(key.first);
    BOOST_TEST(ticks.size() == 7u);  // 0 to 6
    std::string chunk = "end: chunk";
    for (const auto& [key, weight] : want) chunk += " " + std::to_string(key.first) + "@" + key.second + "x0";
    BOOST_TEST(std::count(whole.told.lines.begin(), whole.told.lines.end(), chunk) == 1);
}

// Only the thread events are asked for; one output per batch, cleared for reuse; a full one
// ends its batch.
BOOST_AUTO_TEST_CASE(it_asks_for_the_thread_events_only_and_its_outputs_clear) {
    Told told;
    FromTheReader sink(told);
    Diagnostics d;
    ReaderThreadLives beside(ReaderThreadLives::Setup{{}, true, kInterval, kDetail}, sink, d);
    BOOST_TEST(beside.tags().count() == 3u);
    BOOST_TEST(beside.tags().test(ev::RunThread::tag));
    BOOST_TEST(beside.tags().test(ev::StopThread::tag));
    BOOST_TEST(beside.tags().test(ev::WakeupThread::tag));
    const std::unique_ptr<ev::WorkerOutput> out = beside.make_output();
    // As the prefetcher's worker gives it an event.
    auto give = [&](const ev::Event& e, std::uint64_t now, std::size_t index) {
        return beside.handle(el2fx::testing::FramedEvent(e).view(), now, index, *out);
    };
    BOOST_TEST(give(event(10, 0, ev::RunThread{3}), 10, 0));
    BOOST_TEST(give(event(5000, 0, ev::StopThread{3, kFinished, 0}), 5000, 1));
    BOOST_TEST(give(event(6000, 0, ev::RunThread{3}), 6000, 2));  // after its finish
    BOOST_TEST(beside.deliver(*out, 1, true) == 1u);              // the first event left nothing: the next to ask
    BOOST_TEST(told.lines.empty());
    BOOST_TEST(beside.deliver(*out, 2, false) == 2u);
    BOOST_TEST(told.lines.size() == 1u);  // its activity (the sums wait for the chunk)
    BOOST_TEST(d.total() == 0u);
    BOOST_TEST(beside.deliver(*out, 3, false) == static_cast<std::size_t>(-1));
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 1u);
    out->clear();
    BOOST_TEST(beside.deliver(*out, 3, true) == static_cast<std::size_t>(-1));
    // Two long runs fill a chunk of samples of distinct times: the output is full.
    const std::uint64_t t0 = 7000, t1 = t0 + 60'000 * kInterval, t2 = t1 + 10, t3 = t2 + 60'000 * kInterval;
    BOOST_TEST(give(event(t0, 0, ev::RunThread{4}), t0, 0));
    BOOST_TEST(give(event(t1, 0, ev::StopThread{4, kYield, 0}), t1, 1));
    BOOST_TEST(give(event(t2, 0, ev::RunThread{4}), t2, 2));
    BOOST_TEST(!give(event(t3, 0, ev::StopThread{4, kYield, 0}), t3, 3));
}

// The worker gives it framed events: a payload too short for its type's fields is no event of
// that type to it (the consumer's analysis, which gets it undecoded, counts it); a well-formed
// one is read as the event table defines it.
BOOST_AUTO_TEST_CASE(a_payload_too_short_for_its_fields_is_passed_over) {
    const auto told_after = [](bool short_stop_between) {
        Told told;
        FromTheReader sink(told);
        Diagnostics d;
        ReaderThreadLives beside(ReaderThreadLives::Setup{{9}, false, kInterval, kDetail}, sink, d);
        const std::unique_ptr<ev::WorkerOutput> out = beside.make_output();
        std::size_t index = 0;
        BOOST_TEST(
            beside.handle(el2fx::testing::FramedEvent(event(5000, 0, ev::RunThread{9})).view(), 5000, index++, *out));
        if (short_stop_between) {  // thread 9's id, and a byte of the status's two
            const std::uint8_t five_bytes[5] = {0, 0, 0, 9, 0};
            BOOST_TEST(beside.handle(ev::WorkerEvent{7000, ev::StopThread::tag, ev::CapNo{0}, five_bytes, 5}, 7000,
                                     index++, *out));
        }
        BOOST_TEST(beside.handle(el2fx::testing::FramedEvent(event(9000, 0, ev::StopThread{9, kYield, 0})).view(), 9000,
                                 index++, *out));
        beside.finish(9000, index, *out);
        beside.deliver(*out, static_cast<std::size_t>(-1), true);
        beside.deliver_ends_before(std::nullopt);
        beside.deliver_flush_of(0);
        told.lines.push_back("diagnostics " + std::to_string(d.total()));
        return told.lines;
    };
    const std::vector<std::string> without = told_after(false);
    BOOST_TEST(told_after(true) == without, boost::test_tools::per_element());
    BOOST_TEST(lines_with(without, " running 5000-9000 on 0") == 1u);  // read from its bytes
}

BOOST_AUTO_TEST_SUITE_END()
