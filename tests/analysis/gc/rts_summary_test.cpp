// The +RTS -s calculator on a small synthetic run whose every figure is known, and its text
// and JSON renderings.
#include <boost/test/unit_test.hpp>

#include <string>

#include "analysis/gc/gc_analysis.hpp"
#include "analysis/gc/rts_summary_json.hpp"
#include "analysis/gc/rts_summary_text.hpp"
#include "gc_test_util.hpp"
#include "util/rapidjson.hpp"

using namespace el2fx::gc;
using namespace el2fx::gc::testing;

namespace {

ev::RtsIdentifier rts(std::string_view id) {
    ev::RtsIdentifier r;
    r.identifier.bytes = id;
    return r;
}

// A threaded run (pid 42, two generations) with three collections: a parallel minor one,
// a parallel major one, and the sequential major one the runtime does at exit.
std::vector<ev::Event> run_events(std::string_view rts_id = "GHC-9.0.2 rts_thr_l") {
    return {
        event(10, std::nullopt, rts(rts_id)),
        event(11, std::nullopt, ev::OsProcessPid{0, 42}),
        event(12, std::nullopt, ev::HeapInfoGHC{0, 2, 0, 1 << 20, 1 << 20, 4096}),
        event(20, 0, ev::TaskCreate{1, 0, 42}),  // the runtime's own call into Haskell in hs_init
        event(25, 0, ev::TaskCreate{7, 1, 43}),  // a worker
        event(30, 0, ev::TaskDelete{1}),         // INIT ends here, as the runtime's does (GHC 9.10.3: 10 ms
        event(40, 0, ev::TaskCreate{1, 0, 42}),  // before hs_main's task starts)
        // #1: minor, parallel. The minor collection's slop is not sampled by the runtime.
        event(1000, 0, ev::RequestParGC{}),
        event(1005, 1, ev::StartGC{}),
        event(1010, 0, ev::StartGC{}),
        event(1090, 0, ev::HeapAllocated{0, 500}),
        event(1091, 1, ev::HeapAllocated{0, 300}),
        event(1100, 0, ev::EndGC{}),
        event(1101, 0, ev::GlobalSyncGC{}),
        event(1102, 0, stats(0, 64, 2, 40, 48, /*slop=*/999)),
        event(1103, 0, ev::HeapSize{0, 2 << 20}),
        event(1150, 1, ev::EndGC{}),
        // #2: major, parallel.
        event(2000, 0, ev::RequestParGC{}),
        event(2010, 0, ev::StartGC{}),
        event(2012, 1, ev::StartGC{}),
        event(2200, 0, ev::HeapAllocated{0, 900}),
        event(2201, 1, ev::HeapAllocated{0, 700}),
        event(2210, 0, ev::EndGC{}),
        event(2211, 0, ev::GlobalSyncGC{}),
        event(2212, 0, stats(1, 100, 2, 60, 70, /*slop=*/333)),
        event(2213, 0, ev::HeapLive{0, 4444}),
        event(2214, 0, ev::HeapSize{0, 3 << 20}),
        event(2300, 1, ev::EndGC{}),
        // main returns; the runtime starts timing its exit and flushes stdout.
        event(3000, 0, ev::TaskDelete{1}),
        event(3010, 0, ev::TaskCreate{1, 0, 42}),
        event(3020, 0, ev::TaskDelete{1}),
        // #3: the exit collection, major and sequential.
        event(3100, 0, ev::RequestSeqGC{}),
        event(3110, 0, ev::StartGC{}),
        event(3200, 0, ev::HeapAllocated{0, 1000}),
        event(3201, 1, ev::HeapAllocated{0, 700}),
        event(3210, 0, ev::EndGC{}),
        event(3211, 0, ev::GlobalSyncGC{}),
        event(3212, 0, stats(1, 10, 1, 0, 0, /*slop=*/222)),
        event(3213, 0, ev::HeapLive{0, 3333}),
        event(3214, 0, ev::HeapSize{0, 3 << 20}),
        event(3300, 0, ev::SparkCounters{5, 1, 2, 3, 1, 0, 0}),
        event(3301, 1, ev::SparkCounters{2, 0, 0, 1, 0, 1, 0}),
        // stat_exit: the clock for Total, then every capability's allocation once more.
        event(3400, 0, ev::HeapAllocated{0, 1100}),
        event(3401, 1, ev::HeapAllocated{0, 750}),
        event(3500, std::nullopt, ev::CapsetDelete{0}),
    };
}

RtsSummary summarise(const std::vector<ev::Event>& events, bool truncated = false) {
    GcAnalysis a(false);
    for (const ev::Event& e : events) a.handle(e);
    return a.finish(SummaryEnd{truncated, {}, {}}).summary;
}

bool has_line(const std::string& text, const std::string& line) {
    return text.find(line + "\n") != std::string::npos || text.find(line + " [") != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rts_summary)

BOOST_AUTO_TEST_CASE(every_figure_of_a_complete_run) {
    RtsSummary s = summarise(run_events());
    BOOST_TEST(s.rts_identifier == "GHC-9.0.2 rts_thr_l");
    BOOST_TEST(*s.threaded);
    BOOST_TEST(s.collections == 3u);
    BOOST_TEST(*s.bytes_allocated.value == 1850u);
    BOOST_TEST(accuracy_name(s.bytes_allocated.accuracy) == std::string("exact"));
    BOOST_TEST(*s.bytes_copied.value == 174u);
    BOOST_TEST(accuracy_name(s.bytes_copied.accuracy) == std::string("exact"));
    BOOST_TEST(*s.max_residency.value == 4444u);
    BOOST_TEST(s.residency_samples == 2u);
    BOOST_TEST(*s.max_slop.value == 333u);  // major collections only
    BOOST_TEST(*s.memory_in_use.value == (3u << 20));
    BOOST_TEST(accuracy_name(s.memory_in_use.accuracy) == std::string("lower-bound"));
    BOOST_TEST(!s.fragmentation.value);
    BOOST_TEST(*s.max_fragmentation_at_gc.value == 4096u);

    const auto& gens = *s.generations_table.value;
    BOOST_REQUIRE_EQUAL(gens.size(), 2u);
    BOOST_TEST(gens[0].collections == 1u);
    BOOST_TEST(gens[0].par_collections == 1u);
    BOOST_TEST(gens[0].elapsed_ns == 90u);
    BOOST_TEST(gens[1].collections == 2u);
    BOOST_TEST(gens[1].par_collections == 1u);
    BOOST_TEST(gens[1].elapsed_ns == 300u);
    BOOST_TEST(gens[1].max_pause_ns == 200u);
    BOOST_TEST(gens[1].avg_pause_ns() == 150.0);
    BOOST_TEST(*s.work_balance.value == 118.0 / 164.0);
    BOOST_TEST(accuracy_name(s.work_balance.accuracy) == std::string("exact"));

    const SparkFigures& sp = *s.sparks.value;
    BOOST_TEST(sp.total() == 7u + 1u + 2u);
    BOOST_TEST(sp.converted == 4u);
    BOOST_TEST(sp.gcd == 1u);
    BOOST_TEST(sp.fizzled == 1u);

    BOOST_TEST(*s.gc_elapsed.value == 390u);
    BOOST_TEST(accuracy_name(s.gc_elapsed.accuracy) == std::string("exact"));
    BOOST_TEST(*s.init_elapsed.value == 30u);
    BOOST_TEST(*s.mut_elapsed.value == 2680u);  // 3000 - 30 less the two collections before the exit
    BOOST_TEST(*s.exit_elapsed.value == 300u);  // 3400 - 3000 less the exit collection
    BOOST_TEST(*s.total_elapsed.value == 3400u);
    BOOST_TEST(*s.init_elapsed.value + *s.mut_elapsed.value + *s.gc_elapsed.value + *s.exit_elapsed.value ==
               *s.total_elapsed.value);
    BOOST_TEST(*s.productivity.value == 2680.0 / 3400.0);
    BOOST_TEST(*s.alloc_rate.value == 1850.0 / (2680.0 / 1e9));

    BOOST_TEST(*s.seed_gc_elapsed.value == (90.0 + 145.0) / 2 + (200.0 + 288.0) / 2 + 100.0);
    BOOST_TEST(*s.seed_mut_elapsed.value == 3490.0 - *s.seed_gc_elapsed.value);
    BOOST_TEST(*s.seed_max_pause.value == 244.0);
    BOOST_TEST(s.gc_sync_count == 3u);
    BOOST_TEST(s.gc_sync_total_ns == 30u);
    BOOST_REQUIRE_EQUAL(s.capabilities.size(), 2u);
    BOOST_TEST(s.capabilities[0].collections == 3u);
    BOOST_TEST(s.capabilities[1].collections == 2u);
    BOOST_TEST(s.capabilities[1].gc_ns == 145u + 288u);
}

BOOST_AUTO_TEST_CASE(a_collection_under_way_when_main_returns_is_not_the_exits) {
    // main returns (TASK_DELETE at 2100) while collection #2 (from 2010 to 2210) runs:
    // only #3 counts as the exit's collection.
    std::vector<ev::Event> events;
    for (const ev::Event& e : run_events()) {
        if (e.time == 3000) continue;
        events.push_back(e);
        if (e.time == 2012) events.push_back(event(2100, 0, ev::TaskDelete{1}));
    }
    RtsSummary s = summarise(events);
    BOOST_TEST(*s.gc_elapsed.value == 390u);
    BOOST_TEST(*s.mut_elapsed.value == 2070u - 290u);           // 30 .. 2100, less #1 and #2
    BOOST_TEST(*s.exit_elapsed.value == 3400u - 2100u - 100u);  // less #3
}

// A window of the run from 500 cut at 2100 (src/window), inside collection #2: #2 is the window's
// only if its statistics are, so the window counts #1 alone, and nothing is odd about the cut.
BOOST_AUTO_TEST_CASE(a_collection_under_way_at_a_windows_cut_is_not_the_windows) {
    GcAnalysis a(false);
    for (const ev::Event& e : run_events())
        if (e.time <= 2100) a.handle(e);
    SummaryEnd end;
    end.window_start = 500;
    end.window_cut = 2100;
    RtsSummary s = a.finish(end).summary;
    BOOST_TEST(s.collections == 1u);
    BOOST_TEST(s.anomalies.total() == 0u);
    BOOST_TEST(*s.gc_elapsed.value == 90u);  // #1's pause: 1010 .. 1100
    // The same events as a log that stops there: #2 counts, its capabilities' ends are missing.
    GcAnalysis b(false);
    for (const ev::Event& e : run_events())
        if (e.time <= 2100) b.handle(e);
    SummaryEnd stop;
    stop.truncated = true;
    RtsSummary t = b.finish(stop).summary;
    BOOST_TEST(t.collections == 2u);
    BOOST_TEST(t.anomalies.missing_end == 2u);
}

// A window from 900 to 2400 (src/window) of the run: the events inside it, closed by the
// window's block marker at 2400. Total is the window's length, MUT is Total less GC; INIT and
// EXIT are not in a window. The whole run's figures differ: Total there is the runtime's.
BOOST_AUTO_TEST_CASE(a_window_counts_total_from_its_start_and_mut_as_total_less_gc) {
    GcAnalysis a(false);
    for (const ev::Event& e : run_events())
        if (e.time >= 900 && e.time <= 2400) a.handle(e);
    a.handle(event(2400, ev::kGlobalCap, ev::BlockMarker{0, 2400, ev::kGlobalCap}));
    SummaryEnd end;
    end.window_start = 900;
    end.window_cut = 2400;
    RtsSummary s = a.finish(end).summary;
    BOOST_TEST(s.collections == 2u);
    BOOST_REQUIRE(s.total_elapsed.value.has_value());
    BOOST_TEST(*s.total_elapsed.value == 1500u);  // 900 .. 2400
    BOOST_TEST(s.total_elapsed.accuracy == Accuracy::exact);
    BOOST_TEST(*s.gc_elapsed.value == 290u);      // #1 (90) and #2 (200): the initiating capability's pauses
    BOOST_TEST(*s.mut_elapsed.value == 1500u - 290u);
    BOOST_TEST(!s.init_elapsed.value.has_value());
    BOOST_TEST(!s.exit_elapsed.value.has_value());
    const RtsSummary whole = summarise(run_events());
    BOOST_TEST(*whole.total_elapsed.value != *s.total_elapsed.value);
    BOOST_TEST(whole.init_elapsed.value.has_value());
}

BOOST_AUTO_TEST_CASE(a_truncated_run_gives_lower_bounds_and_says_what_is_missing) {
    std::vector<ev::Event> events = run_events();
    events.resize(28);  // up to and with collection 2's late GC_END: main never returned
    RtsSummary s = summarise(events, /*truncated=*/true);
    BOOST_TEST(*s.bytes_allocated.value == 1600u);
    BOOST_TEST(accuracy_name(s.bytes_allocated.accuracy) == std::string("lower-bound"));
    BOOST_TEST(accuracy_name(s.bytes_copied.accuracy) == std::string("lower-bound"));
    BOOST_TEST(*s.total_elapsed.value == 2300u);
    BOOST_TEST(accuracy_name(s.total_elapsed.accuracy) == std::string("lower-bound"));
    BOOST_TEST(!s.exit_elapsed.value);
    BOOST_TEST(s.exit_elapsed.note.find("truncated") != std::string::npos);
    BOOST_TEST(*s.init_elapsed.value == 30u);  // the main task, still open, is the longest-lived
    BOOST_TEST(*s.mut_elapsed.value == 2300u - 30u - 290u);
    BOOST_TEST(accuracy_name(s.mut_elapsed.accuracy) == std::string("lower-bound"));
    std::string text = render_summary_text(s);
    BOOST_TEST(text.find("at least: the eventlog is truncated") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_non_threaded_runtime_has_no_sparks_but_a_gc_share) {
    std::vector<ev::Event> events;
    for (const ev::Event& e : run_events("GHC-9.0.2 rts_l"))
        if (e.tag != ev::SparkCounters::tag) events.push_back(e);
    RtsSummary s = summarise(events);
    BOOST_TEST(!*s.threaded);
    BOOST_TEST(!s.sparks.value);
    BOOST_TEST(s.sparks.note.find("non-threaded") != std::string::npos);
    BOOST_TEST(*s.gc_share.value == 390.0 / 3400.0);
    std::string text = render_summary_text(s);
    BOOST_TEST(text.find("SPARKS") == std::string::npos);
    BOOST_TEST(text.find("  %GC     time          -  (11.5% elapsed)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(missing_event_classes_are_explained) {
    // Scheduler events only: no GC class.
    RtsSummary s = summarise({event(10, 0, ev::RunThread{1}), event(20, 0, ev::StopThread{1, 5, 0})});
    BOOST_TEST(!s.bytes_allocated.value);
    BOOST_TEST(s.bytes_allocated.note.find("HEAP_ALLOCATED") != std::string::npos);
    BOOST_TEST(!s.bytes_copied.value);
    BOOST_TEST(s.bytes_copied.note.find("GC event class") != std::string::npos);
    BOOST_TEST(!s.sparks.value);
    BOOST_TEST(!s.init_elapsed.value);
    std::string text = render_summary_text(s);
    BOOST_TEST(has_line(text, "               ? bytes allocated in the heap"));
    BOOST_TEST(text.find("unknown: no HEAP_ALLOCATED events") != std::string::npos);

    RtsSummary empty = summarise({}, true);
    BOOST_TEST(!empty.total_elapsed.value);
    BOOST_TEST(empty.total_elapsed.note.find("no events") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(older_logs_without_balanced_copied_use_the_older_balance_formula) {
    std::vector<ev::Event> events;
    for (ev::Event e : run_events()) {
        if (auto* st = std::get_if<ev::GCStatsGHC>(&e.payload)) st->par_balanced_copied.reset();
        events.push_back(e);
    }
    RtsSummary s = summarise(events);
    // (Σ copied / Σ max copied - 1) / (threads - 1) over the parallel collections.
    BOOST_TEST(*s.work_balance.value == (164.0 / 100.0 - 1.0) / 1.0);
    BOOST_TEST(accuracy_name(s.work_balance.accuracy) == std::string("estimate"));
}

BOOST_AUTO_TEST_CASE(text_follows_the_runtime_layout) {
    std::string text = render_summary_text(summarise(run_events()));
    BOOST_TEST(has_line(text, "           1,850 bytes allocated in the heap"));
    BOOST_TEST(has_line(text, "             174 bytes copied during GC"));
    BOOST_TEST(has_line(text, "           4,444 bytes maximum residency (2 sample(s))"));
    BOOST_TEST(has_line(text, "             333 bytes maximum slop"));
    BOOST_TEST(text.find("               3 MiB total memory in use [") != std::string::npos);
    BOOST_TEST(text.find("                                     Tot time (elapsed)  Avg pause  Max pause") !=
               std::string::npos);
    BOOST_TEST(has_line(text, "  Gen  0         1 colls,     1 par         -   0.000s     0.0000s    0.0000s"));
    BOOST_TEST(has_line(text, "  Gen  1         2 colls,     1 par         -   0.000s     0.0000s    0.0000s"));
    BOOST_TEST(has_line(text, "  Parallel GC work balance: 71.95% (serial 0%, perfect 100%)"));
    BOOST_TEST(has_line(text, "  SPARKS: 10 (4 converted, 2 overflowed, 1 dud, 1 GC'd, 1 fizzled)"));
    BOOST_TEST(text.find("  GC      time         -  (  0.000s elapsed)\n") != std::string::npos);  // exact: no note
    BOOST_TEST(text.find("  MUT     time         -  (  0.000s elapsed) [") != std::string::npos);
    BOOST_TEST(text.find("  Productivity     - of total user, 78.8% of total elapsed") != std::string::npos);
    BOOST_TEST(text.find("Per-capability view (the seed's conventions") != std::string::npos);
    BOOST_TEST(text.find("Notes\n  [1] ") != std::string::npos);
    BOOST_TEST(with_commas(0) == "0");
    BOOST_TEST(with_commas(999) == "999");
    BOOST_TEST(with_commas(1000) == "1,000");
    BOOST_TEST(with_commas(532401568) == "532,401,568");
}

BOOST_AUTO_TEST_CASE(json_gives_every_figure_with_its_accuracy) {
    std::string json = render_summary_json(summarise(run_events()), "run.eventlog");
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    BOOST_REQUIRE(!d.HasParseError());
    BOOST_TEST(d["input"].GetString() == std::string("run.eventlog"));
    BOOST_TEST(d["bytes_allocated"]["value"].GetUint64() == 1850u);
    BOOST_TEST(d["bytes_allocated"]["accuracy"].GetString() == std::string("exact"));
    BOOST_TEST(d["fragmentation_bytes"]["value"].IsNull());
    BOOST_TEST(d["fragmentation_bytes"]["accuracy"].GetString() == std::string("unavailable"));
    BOOST_TEST(std::string(d["fragmentation_bytes"]["note"].GetString()).find("peak") != std::string::npos);
    BOOST_TEST(d["generations_table"]["rows"].Size() == 2u);
    BOOST_TEST(d["generations_table"]["rows"][1]["collections"].GetUint64() == 2u);
    BOOST_TEST(d["generations_table"]["rows"][1]["elapsed_ns"].GetUint64() == 300u);
    BOOST_TEST(d["sparks"]["value"]["total"].GetUint64() == 10u);
    BOOST_TEST(d["mut_elapsed_ns"]["value"].GetUint64() == 2680u);
    BOOST_TEST(d["mut_elapsed_ns"]["accuracy"].GetString() == std::string("estimate"));
    BOOST_TEST(d["seed"]["gc_sync"]["requests"].GetUint64() == 3u);
    BOOST_TEST(d["seed"]["capabilities"].Size() == 2u);
    BOOST_TEST(d["anomalies"]["missing_end"].GetUint64() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
