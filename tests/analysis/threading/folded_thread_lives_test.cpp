// The folded threads' lives kept apart (on the reader's thread in a conversion): what the
// sinks are told must be what one analysis of every thread tells them, at the same events:
// the samples of the threads it follows, and the folded threads' samples summed by time on
// the grid and activity in chunks of FoldedSampleSink::kChunkSamples, the first of each
// activity told before its sums, and the diagnostics.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analysis/threading/folded_thread_lives.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "make_event.hpp"

using el2fx::Diagnostic;
using el2fx::Diagnostics;
using namespace el2fx::analysis;
namespace ev = el2fx::eventlog;

namespace {

constexpr std::uint64_t kInterval = 1000;
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

// What the sinks were told, one line each, with the event it came after ("end" after the last).
struct Told {
    std::vector<std::string> lines;
    std::string at = "start";
    std::map<std::pair<std::uint64_t, std::string>, std::uint64_t> chunk;  // (time, activity) -> weight
    void line(const std::string& s) { lines.push_back(at + ": " + s); }
    void chunk_full() {
        std::string s = "chunk";
        for (const auto& [key, weight] : chunk)
            s += " " + std::to_string(key.first) + "@" + key.second + "x" + std::to_string(weight);
        line(s);
        chunk.clear();
    }
};

// The followed threads' samples as they come; the folded threads' as the shared track sums
// them (convert/folded_chunk.hpp, ThreadingMapper::thread_sample): the reference.
class Summing final : public ThreadingSink {
public:
    Summing(Told& told, const el2fx::util::FixedIdSet& followed) : told_(told), followed_(followed) {}
    void capability_started(ev::CapNo, std::uint64_t) override {}
    void capability_span(ev::CapNo, const CapabilitySpan&) override {}
    void capability_sample(ev::CapNo, const Sample<CapabilityActivity>&) override {}
    void thread_span(ev::ThreadId, const ThreadStateSpan&) override {}
    void thread_sample(ev::ThreadId id, const Sample<ThreadActivity>& s) override {
        if (followed_.contains(id)) {
            told_.line("thread " + std::to_string(id) + " " + std::to_string(s.time) + " " + text(s.key) + " w" +
                       std::to_string(s.weight) + " cpu" + std::to_string(s.cpu_delta_ns));
            return;
        }
        if (seen_.insert(text(s.key)).second) told_.line("activity " + text(s.key));
        told_.chunk[{on_sampling_grid(s.time, kInterval), text(s.key)}] += s.weight;
        if (++taken_ == FoldedSampleSink::kChunkSamples) {
            told_.chunk_full();
            taken_ = 0;
        }
    }

private:
    Told& told_;
    const el2fx::util::FixedIdSet& followed_;
    std::set<std::string> seen_;
    std::size_t taken_ = 0;
};

// The folded threads' sums as FoldedThreadLives hands them over.
class Summed final : public FoldedSampleSink {
public:
    explicit Summed(Told& told) : told_(told) {}
    void folded_activity(const ThreadActivity& key) override { told_.line("activity " + text(key)); }
    void folded_sum(std::uint64_t time, const ThreadActivity& key, std::uint64_t weight) override {
        told_.chunk[{time, text(key)}] += weight;
    }
    void folded_chunk_full() override { told_.chunk_full(); }

private:
    Told& told_;
};

// Threads 1 and 7 followed, the others folded: thread 2 runs long enough to fill chunks by
// itself; many short lives, blocked and woken; events after a finish (diagnostics); threads 1,
// 5, 7 and 9 live at the end, one of them in an activity no sample had before.
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
        if (id % 50 == 0) {
            out.push_back(event(t += 10, cap, ev::RunThread{1}));
            out.push_back(event(t += 1500, cap, ev::StopThread{1, kYield, 0}));
        }
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

}  // namespace

BOOST_AUTO_TEST_SUITE(folded_thread_lives)

BOOST_AUTO_TEST_CASE(the_sinks_are_told_what_one_analysis_of_every_thread_tells_them) {
    const std::vector<ev::ThreadId> followed_ids{1, 7};
    const el2fx::util::FixedIdSet followed(followed_ids);
    const std::vector<ev::Event> log = events();

    Told whole;
    Diagnostics whole_diagnostics;
    {
        Summing sink(whole, followed);
        ThreadingAnalysis analysis(whole_diagnostics, ThreadingOptions{kInterval}, &sink);
        for (std::size_t i = 0; i < log.size(); ++i) {
            whole.at = std::to_string(i);
            analysis.handle(log[i]);
            whole.line("diagnostics " + std::to_string(whole_diagnostics.total()));
        }
        whole.at = "end";
        analysis.finish();
        whole.chunk_full();  // the shared track adds what its chunk holds at the end
    }

    Told apart;
    Diagnostics apart_diagnostics;
    {
        Summing followed_sink(apart, followed);
        Summed folded_sink(apart);
        ThreadingOptions options{kInterval};
        options.followed_threads = &followed;
        ThreadingAnalysis analysis(apart_diagnostics, options, &followed_sink);
        FoldedThreadLives folded(followed, kInterval, folded_sink, apart_diagnostics);
        const std::unique_ptr<ev::WorkerOutput> out = folded.make_output();
        std::uint64_t now = 0;
        for (std::size_t i = 0; i < log.size(); ++i) {
            apart.at = std::to_string(i);
            now = std::max(now, log[i].time);
            if (folded.tags().test(log[i].tag))
                folded.handle(log[i], now, i, *out);  // the worker (one output: never full here)
            analysis.handle(log[i]);
            folded.deliver(*out, i + 1, i == 0);  // the consumer, once it took the event
            apart.line("diagnostics " + std::to_string(apart_diagnostics.total()));
        }
        folded.finish(now, log.size(), *out);
        apart.at = "end";
        folded.deliver(*out, static_cast<std::size_t>(-1), false);
        analysis.finish([&](ev::ThreadId id) { folded.deliver_finished_before(id); });
        folded.deliver_finished_before(std::nullopt);
        apart.chunk_full();
    }

    BOOST_TEST(whole.lines == apart.lines, boost::test_tools::per_element());
    BOOST_TEST(whole_diagnostics.count(Diagnostic::event_after_thread_finished) == 2u);
    BOOST_TEST(apart_diagnostics.count(Diagnostic::event_after_thread_finished) == 2u);
    BOOST_TEST(apart_diagnostics.total() == whole_diagnostics.total());
    // What the test must exercise: a chunk filled, followed threads' samples, the end's
    // activity told among the followed threads' ends.
    std::size_t chunks = 0, followed_lines = 0;
    for (const std::string& line : whole.lines) {
        chunks += line.find(": chunk ") != std::string::npos;
        followed_lines += line.find(": thread ") != std::string::npos;
    }
    BOOST_TEST(chunks >= 3u);
    BOOST_TEST(followed_lines > 10u);
    BOOST_TEST(std::count(whole.lines.begin(), whole.lines.end(), "end: activity 1/0/20/0") == 1);
}

// Only the thread events are asked for; one output per batch, cleared for reuse.
BOOST_AUTO_TEST_CASE(it_asks_for_the_thread_events_only_and_its_outputs_clear) {
    const el2fx::util::FixedIdSet followed;
    Told told;
    Summed sink(told);
    Diagnostics d;
    FoldedThreadLives folded(followed, kInterval, sink, d);
    BOOST_TEST(folded.tags().count() == 3u);
    BOOST_TEST(folded.tags().test(ev::RunThread::tag));
    BOOST_TEST(folded.tags().test(ev::StopThread::tag));
    BOOST_TEST(folded.tags().test(ev::WakeupThread::tag));
    const std::unique_ptr<ev::WorkerOutput> out = folded.make_output();
    folded.handle(event(10, 0, ev::RunThread{3}), 10, 0, *out);
    folded.handle(event(5000, 0, ev::StopThread{3, kFinished, 0}), 5000, 1, *out);
    folded.handle(event(6000, 0, ev::RunThread{3}), 6000, 2, *out);  // after its finish
    BOOST_TEST(folded.deliver(*out, 1, true) == 1u);                 // the first event left nothing: the next to ask
    BOOST_TEST(told.lines.empty());
    BOOST_TEST(folded.deliver(*out, 2, false) == 2u);
    BOOST_TEST(told.lines.size() == 1u);  // its activity (the sums wait for the chunk)
    BOOST_TEST(d.total() == 0u);
    BOOST_TEST(folded.deliver(*out, 3, false) == static_cast<std::size_t>(-1));
    BOOST_TEST(d.count(Diagnostic::event_after_thread_finished) == 1u);
    out->clear();
    BOOST_TEST(folded.deliver(*out, 3, true) == static_cast<std::size_t>(-1));
}

BOOST_AUTO_TEST_SUITE_END()
