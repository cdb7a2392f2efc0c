// The census forgets finished threads that cannot get a track of their own (run_census.hpp,
// ThreadCatalog::forget_unless), so that its memory follows the live threads; the second pass
// still names them (forgotten_labels.hpp). Small thresholds stand in for the real 100,000.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "make_event.hpp"
#include "analysis/run/detail_census.hpp"
#include "analysis/run/forgotten_labels.hpp"
#include "analysis/run/run_census.hpp"
#include "analysis/run/thread_catalog.hpp"
#include "eventlog/event_types.hpp"

using namespace el2fx;
using namespace el2fx::run;
namespace ev = el2fx::eventlog;

namespace {

template <typename Payload>
ev::Event event(std::uint64_t time, std::optional<ev::CapNo> cap, Payload payload) {
    return el2fx::testing::make_event(time, cap, payload);
}

constexpr std::uint16_t kFinished = 5;

// Thread `id` is created, (labelled), runs `ns` on capability 0 and finishes, from `time`.
template <class Sink>
std::uint64_t short_thread(Sink& sink, std::uint64_t time, ev::ThreadId id, std::uint64_t ns, const char* label = nullptr) {
    sink.handle(event(time, 0, ev::CreateThread{id}));
    if (label) sink.handle(event(time, 0, ev::ThreadLabel{id, ev::Text{label}}));
    sink.handle(event(time + 1, 0, ev::RunThread{id}));
    sink.handle(event(time + 1 + ns, 0, ev::StopThread{id, kFinished, 0}));
    return time + 2 + ns;
}

std::vector<ev::ThreadId> ids(const ThreadCatalog& c) {
    std::vector<ev::ThreadId> out;
    for (const ThreadFacts& f : c.threads()) out.push_back(f.id);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(thread_forgetting)

BOOST_AUTO_TEST_CASE(catalog_forgets_the_threads_not_kept_with_their_labels_and_counts_them) {
    ThreadCatalog c;
    c.handle(event(1, 0, ev::CreateThread{1}));
    c.handle(event(2, 0, ev::CreateThread{2}));
    c.handle(event(3, 0, ev::ThreadLabel{2, ev::Text{"gone"}}));
    c.handle(event(4, 0, ev::CreateThread{3}));
    c.handle(event(5, 0, ev::ThreadLabel{3, ev::Text{"a"}}));
    c.handle(event(6, 0, ev::ThreadLabel{1, ev::Text{"one"}}));
    c.handle(event(7, 0, ev::ThreadLabel{3, ev::Text{"b"}}));
    c.forget_unless({true, false, true});
    BOOST_TEST(c.forgotten() == 1u);
    BOOST_TEST(*c.first_forgotten_place() == 1u);  // between 1 and 3
    BOOST_TEST((ids(c) == std::vector<ev::ThreadId>{1, 3}));
    BOOST_TEST(!c.find(2));
    BOOST_TEST(*c.ordinal(3) == 1u);
    c.handle(event(8, 0, ev::CreateThread{4}));
    c.handle(event(9, 0, ev::ThreadLabel{3, ev::Text{"c"}}));  // the chain goes on after compaction
    c.forget_unless({false, true, true});                      // 1 goes too: the first forgotten is now first
    BOOST_TEST(c.forgotten() == 2u);
    BOOST_TEST(*c.first_forgotten_place() == 0u);
    c.finish();
    BOOST_TEST((ids(c) == std::vector<ev::ThreadId>{3, 4}));
    const ThreadFacts& three = *c.find(3);
    BOOST_TEST(c.label(three) == "c");
    BOOST_TEST(c.nth_label(three, 0) == "a");
    BOOST_TEST(c.label_at(three, 8) == "b");
    BOOST_TEST(c.label(*c.find(4)).empty());
}

BOOST_AUTO_TEST_CASE(the_first_forgotten_place_follows_the_kept_threads_before_it) {
    ThreadCatalog c;
    for (ev::ThreadId id = 1; id <= 4; ++id) c.handle(event(id, 0, ev::CreateThread{id}));
    c.forget_unless({true, true, true, false});  // 4 after all three
    BOOST_TEST(*c.first_forgotten_place() == 3u);
    c.forget_unless({false, true, true});  // 1 goes: 4 stood after the two left, 1 before them
    BOOST_TEST(*c.first_forgotten_place() == 0u);
    ThreadCatalog d;
    for (ev::ThreadId id = 1; id <= 4; ++id) d.handle(event(id, 0, ev::CreateThread{id}));
    d.forget_unless({true, true, false, true});
    d.forget_unless({true, false, true});  // 2 goes: 3 stood after 1 only
    BOOST_TEST(*d.first_forgotten_place() == 1u);
    BOOST_TEST(d.forgotten() == 2u);
}

// Whatever the order threads finish in, the kept ones include the layout's choice over all.
BOOST_AUTO_TEST_CASE(census_keeps_live_and_best_finished_threads_beyond_the_threshold) {
    RunCensusCollector c(false, CensusLimits{.thread_tracks = 2, .forget_above = 4});
    std::uint64_t t = 0;
    c.handle(event(t++, 1, ev::CreateThread{100}));  // lives to the end, never runs
    const std::vector<std::uint64_t> busy = {5, 50, 7, 3, 50, 9, 1, 60, 2, 4, 8, 6};
    for (std::size_t i = 0; i < busy.size(); ++i)
        t = short_thread(c, t, static_cast<ev::ThreadId>(i + 1), busy[i], i == 10 ? "labelled" : nullptr);
    RunCensus census = c.finish();
    // Threads 11 (labelled) and 8 (60 ns) win; 2 and 5 (50 ns) lose to them; 100 lives.
    const std::vector<ev::ThreadId> kept = ids(census.threads);
    BOOST_TEST(std::count(kept.begin(), kept.end(), 11) == 1);
    BOOST_TEST(std::count(kept.begin(), kept.end(), 8) == 1);
    BOOST_TEST(std::count(kept.begin(), kept.end(), 100) == 1);
    BOOST_TEST(kept.size() <= 8u);  // at most twice the kept (2 live + 2 best) before the next round
    BOOST_TEST(census.threads.forgotten() + kept.size() == busy.size() + 1);
    BOOST_TEST(census.running_ns(8) == 60u);
    BOOST_TEST(census.running_ns(11) == 8u);
    BOOST_TEST(census.running_by_ordinal.size() == kept.size());
    BOOST_TEST(census.threads.label(*census.threads.find(11)) == "labelled");
    BOOST_TEST(census.detail.threads == busy.size());  // counted whether kept or not (100 never ran)
}

// threads_to_keep() lets go of most threads by one comparison with the worst it keeps; what it
// keeps is still the full order's choice: the first `tracks` finished threads by rank
// (labelled, then busiest, then first created), with ties, live threads, and any count.
BOOST_AUTO_TEST_CASE(threads_to_keep_keeps_the_first_finished_threads_of_the_full_order) {
    std::mt19937 random(35);
    for (int round = 0; round < 500; ++round) {
        ThreadCatalog c;
        const std::size_t n = random() % 40;
        std::vector<std::uint64_t> running(n);
        std::uint64_t t = 1;
        for (std::size_t i = 0; i < n; ++i) {
            const auto id = static_cast<ev::ThreadId>(i + 1);
            c.handle(event(t++, 0, ev::CreateThread{id}));
            if (random() % 5 == 0) c.handle(event(t++, 0, ev::ThreadLabel{id, ev::Text{"named"}}));
            if (random() % 4 != 0) c.handle(event(t++, 0, ev::StopThread{id, kFinished, 0}));
            running[i] = random() % 6;  // ties, often
        }
        const std::size_t tracks = random() % 12;
        std::vector<ThreadRank> finished;
        for (std::size_t i = 0; i < n; ++i)
            if (c.threads()[i].finished())
                finished.push_back({c.threads()[i].labelled(), running[i], static_cast<std::uint32_t>(i)});
        std::sort(finished.begin(), finished.end(), [](const ThreadRank& a, const ThreadRank& b) { return ranks_before(a, b); });
        std::vector<bool> expected(n, true);
        for (std::size_t k = tracks; k < finished.size(); ++k) expected[finished[k].ordinal] = false;
        BOOST_TEST(threads_to_keep(c, running, tracks) == expected, "round " << round);
    }
}

BOOST_AUTO_TEST_CASE(ties_keep_the_first_created_as_the_layout_does) {
    RunCensusCollector c(false, CensusLimits{.thread_tracks = 1, .forget_above = 2});
    std::uint64_t t = 0;
    for (ev::ThreadId id = 1; id <= 6; ++id) t = short_thread(c, t, id, 10);
    RunCensus census = c.finish();
    BOOST_TEST(census.threads.find(1) != nullptr);
    BOOST_TEST(census.threads.forgotten() + census.threads.threads().size() == 6u);
}

BOOST_AUTO_TEST_CASE(nothing_is_forgotten_below_the_threshold_or_without_a_limit) {
    RunCensusCollector below(false, CensusLimits{.thread_tracks = 1, .forget_above = 100});
    RunCensusCollector unlimited(false, CensusLimits{.thread_tracks = std::nullopt, .forget_above = 2});
    std::uint64_t t = 0, u = 0;
    for (ev::ThreadId id = 1; id <= 20; ++id) {
        t = short_thread(below, t, id, id);
        u = short_thread(unlimited, u, id, id);
    }
    BOOST_TEST(below.finish().threads.threads().size() == 20u);
    RunCensus all = unlimited.finish();
    BOOST_TEST(all.threads.threads().size() == 20u);
    BOOST_TEST(all.threads.forgotten() == 0u);
    BOOST_TEST(!all.threads.first_forgotten_place());
}

BOOST_AUTO_TEST_CASE(detail_census_keeps_the_busiest_runs_and_the_total) {
    DetailCensusCollector pruned(2, 3), full;
    std::uint64_t t = 0, u = 0;
    const std::vector<int> runs = {1, 4, 2, 9, 3, 3, 7, 1, 5};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const auto id = static_cast<ev::ThreadId>(i + 1);
        for (int r = 0; r < runs[i]; ++r) {
            for (DetailCensusCollector* c : {&pruned, &full}) {
                std::uint64_t& at = c == &pruned ? t : u;
                c->handle(event(at++, 0, ev::RunThread{id}));
                c->handle(event(at++, 0, ev::StopThread{id, static_cast<std::uint16_t>(r + 1 == runs[i] ? kFinished : 3), 0}));
            }
        }
    }
    DetailCensus a = pruned.finish(), b = full.finish();
    BOOST_TEST(a.runs_by_thread.size() < b.runs_by_thread.size());
    BOOST_TEST(a.run_share_of_busiest(1) == b.run_share_of_busiest(1));
    BOOST_TEST(a.run_share_of_busiest(2) == b.run_share_of_busiest(2));
    BOOST_TEST(a.threads == b.threads);
}

BOOST_AUTO_TEST_CASE(forgotten_labels_follow_the_events_and_go_a_grace_after_the_finish) {
    ThreadCatalog catalog;
    catalog.handle(event(1, 0, ev::CreateThread{1}));
    catalog.handle(event(2, 0, ev::CreateThread{2}));
    catalog.forget_unless({true, false});
    ForgottenLabels labels(catalog, 100);
    labels.handle(event(10, 0, ev::ThreadLabel{1, ev::Text{"kept"}}));
    labels.handle(event(11, 0, ev::ThreadLabel{2, ev::Text{"worker"}}));
    BOOST_TEST(labels.label(1).empty());  // the catalog knows it
    BOOST_TEST(labels.label(2) == "worker");
    labels.handle(event(12, 0, ev::ThreadLabel{2, ev::Text{"renamed"}}));
    labels.handle(event(20, 0, ev::StopThread{2, kFinished, 0}));
    labels.handle(event(120, 0, ev::StartGC{}));
    BOOST_TEST(labels.label(2) == "renamed");  // within the grace
    labels.handle(event(121, 0, ev::StartGC{}));
    BOOST_TEST(labels.label(2).empty());
}

// Several forgotten threads finish at different times: each label goes at the first event
// after its own grace, whatever kind of event moves the clock there.
BOOST_AUTO_TEST_CASE(forgotten_labels_go_one_by_one_at_the_end_of_each_grace) {
    ThreadCatalog catalog;
    for (ev::ThreadId id = 1; id <= 4; ++id) catalog.handle(event(id, 0, ev::CreateThread{id}));
    catalog.forget_unless({true, false, false, false});
    ForgottenLabels labels(catalog, 100);
    labels.handle(event(10, 0, ev::ThreadLabel{2, ev::Text{"two"}}));
    labels.handle(event(10, 0, ev::ThreadLabel{3, ev::Text{"three"}}));
    labels.handle(event(10, 0, ev::ThreadLabel{4, ev::Text{"four"}}));
    labels.handle(event(20, 0, ev::StopThread{2, kFinished, 0}));
    labels.handle(event(50, 1, ev::StopThread{3, kFinished, 0}));
    labels.handle(event(60, 0, ev::StopThread{4, 2, 0}));  // blocked, not finished: stays
    labels.handle(event(121, 0, ev::RunThread{1}));        // past 2's grace only
    BOOST_TEST(labels.label(2).empty());
    BOOST_TEST(labels.label(3) == "three");
    labels.handle(event(150, 1, ev::WakeupThread{1, 0}));  // 3's grace ends at 150: not past it
    BOOST_TEST(labels.label(3) == "three");
    labels.handle(event(151, 1, ev::GCIdle{}));
    BOOST_TEST(labels.label(3).empty());
    labels.handle(event(10'000, 0, ev::StartGC{}));
    BOOST_TEST(labels.label(4) == "four");
}

// The clock moves on labels and stops too: a grace that ends before one of them ends there,
// and a thread finishing after an earlier one waits for its own grace.
BOOST_AUTO_TEST_CASE(forgotten_labels_expire_at_labels_and_stops) {
    ThreadCatalog catalog;
    for (ev::ThreadId id = 1; id <= 5; ++id) catalog.handle(event(id, 0, ev::CreateThread{id}));
    catalog.forget_unless({true, false, false, false, false});
    ForgottenLabels labels(catalog, 100);
    labels.handle(event(10, 0, ev::ThreadLabel{2, ev::Text{"two"}}));
    labels.handle(event(10, 0, ev::ThreadLabel{3, ev::Text{"three"}}));
    labels.handle(event(20, 0, ev::StopThread{2, kFinished, 0}));
    labels.handle(event(30, 0, ev::StopThread{3, kFinished, 0}));
    labels.handle(event(120, 0, ev::StopThread{5, 2, 0}));  // 2's grace ends at 120: not past it
    BOOST_TEST(labels.label(2) == "two");
    labels.handle(event(121, 0, ev::StopThread{5, 2, 0}));  // a stop past it
    BOOST_TEST(labels.label(2).empty());
    BOOST_TEST(labels.label(3) == "three");
    labels.handle(event(131, 1, ev::ThreadLabel{4, ev::Text{"four"}}));  // a label past 3's
    BOOST_TEST(labels.label(3).empty());
    BOOST_TEST(labels.label(4) == "four");
    labels.handle(event(140, 1, ev::StopThread{4, kFinished, 0}));  // alone again: its own grace
    labels.handle(event(240, 1, ev::RunThread{1}));
    BOOST_TEST(labels.label(4) == "four");
    labels.handle(event(241, 1, ev::ThreadLabel{5, ev::Text{"five"}}));
    BOOST_TEST(labels.label(4).empty());
}

BOOST_AUTO_TEST_SUITE_END()
