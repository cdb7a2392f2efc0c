// Windows of real eventlogs, end to end: the profile holds nothing outside the window, the
// analyses see the state at its start, the +RTS -s figures are the window's own, markers are
// found, and impossible windows are refused with the CLI's exit statuses. Expected values are
// computed from the events themselves (the time-ordered reader), not copied from a run.
#include <boost/test/unit_test.hpp>

// Windows are written with designated initializers naming only the ends they give.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis/gc/gc_analysis.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "convert/converter.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "fxprof/profile_writer.hpp"
#include "run_process.hpp"
#include "util/rapidjson.hpp"
#include "window/event_window.hpp"

using namespace el2fx;
using el2fx::testing::env_dir;
using el2fx::testing::run_binary;

namespace {

std::string fixture(const std::string& name) { return env_dir("EL2FX_FIXTURES") + "/" + name; }

// What the tests need of a log, straight from the reader.
struct Plain {
    std::uint64_t time;
    std::uint16_t tag;
    std::optional<eventlog::CapNo> cap;
    eventlog::ThreadId thread = 0;  // RUN/STOP
    std::uint16_t status = 0;       // STOP
    std::uint64_t value = 0;        // HEAP_ALLOCATED
    std::string text;               // USER_MARKER
};

std::vector<Plain> read_all(const std::string& path) {
    eventlog::InputFile file(path);
    Diagnostics d;
    eventlog::TimeOrderedReader reader(file, d);
    std::vector<Plain> out;
    while (const eventlog::Event* e = reader.next()) {
        Plain p{e->time, e->tag, e->cap};
        if (const auto* r = e->as<eventlog::RunThread>()) p.thread = r->thread;
        if (const auto* s = e->as<eventlog::StopThread>()) {
            p.thread = s->thread;
            p.status = s->status;
        }
        if (const auto* a = e->as<eventlog::HeapAllocated>()) p.value = a->alloc_bytes;
        if (const auto* m = e->as<eventlog::UserMarker>()) p.text = std::string(m->marker.bytes);
        out.push_back(p);
    }
    return out;
}

// The thread running on each capability, and the stop status of each stopped thread, at `at`.
struct StateAt {
    std::map<eventlog::CapNo, eventlog::ThreadId> running;
    std::map<eventlog::ThreadId, std::uint16_t> stopped;
};
StateAt state_at(const std::vector<Plain>& events, std::uint64_t at) {
    StateAt s;
    for (const Plain& e : events) {
        if (e.time >= at) break;
        if (e.tag == eventlog::RunThread::tag) {
            s.running[*e.cap] = e.thread;
            s.stopped.erase(e.thread);
        } else if (e.tag == eventlog::StopThread::tag) {
            if (s.running.count(*e.cap) && s.running[*e.cap] == e.thread) s.running.erase(*e.cap);
            if (e.status == 5)
                s.stopped.erase(e.thread);
            else
                s.stopped[e.thread] = e.status;
        }
    }
    return s;
}

// A window's events as the analyses get them.
template <typename F>
void windowed(const std::string& path, const window::WindowSpec& spec, F&& f) {
    eventlog::InputFile file(path);
    Diagnostics d;
    eventlog::TimeOrderedReader reader(file, d);
    eventlog::EventPrefetcher events(reader, d);
    window::EventWindow w(spec);
    while (const eventlog::Event* e = w.next(events)) f(*e);
}

// The window's +RTS -s, as the summary command computes it.
gc::RtsSummary summary_of(const std::string& path, const window::WindowSpec& spec) {
    gc::GcAnalysis analysis(false);
    eventlog::InputFile file(path);
    Diagnostics d;
    eventlog::TimeOrderedReader reader(file, d);
    eventlog::EventPrefetcher events(reader, d);
    window::EventWindow w(spec);
    while (const eventlog::Event* e = w.next(events)) analysis.handle(*e);
    gc::SummaryEnd end;
    if (spec.active()) {
        end.window_start = w.bounds().from;
        if (w.bounds().cut) end.window_cut = w.bounds().to;
    }
    return analysis.finish(end).summary;
}

struct Span {
    std::uint64_t first, last;
};
Span span_of(const std::vector<Plain>& events) { return {events.front().time, events.back().time}; }

// A time between the first and last event, `share` of the way.
std::uint64_t between(const Span& s, double share) {
    return s.first + static_cast<std::uint64_t>(static_cast<double>(s.last - s.first) * share);
}

rapidjson::Document profile_json(const std::string& path, const window::WindowSpec& spec,
                                 convert::ConversionReport& report) {
    convert::ConvertOptions options;
    options.window.spec = spec;
    const std::string json = fxprof::profile_to_json(convert::build_profile(path, options, report));
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(window_convert)

BOOST_AUTO_TEST_CASE(profile_holds_nothing_outside_the_window) {
    const std::string path = fixture("concurrency.eventlog");
    const auto events = read_all(path);
    const Span all = span_of(events);
    const std::uint64_t from = between(all, 0.4), to = between(all, 0.6);
    convert::ConversionReport report;
    rapidjson::Document d = profile_json(path, {.from = from, .to = to}, report);
    const double from_ms = static_cast<double>(from) / 1e6, to_ms = static_cast<double>(to) / 1e6;
    const double slack = 1e-9;
    BOOST_TEST(d["meta"]["profilingStartTime"].GetDouble() == from_ms, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(d["meta"]["profilingEndTime"].GetDouble() == to_ms, boost::test_tools::tolerance(1e-9));
    std::size_t samples = 0, markers = 0;
    for (const auto& t : d["threads"].GetArray()) {
        const auto& s = t["samples"];
        double time = 0;
        for (rapidjson::SizeType i = 0; i < s["length"].GetUint(); ++i) {
            time = s.HasMember("timeDeltas") ? time + s["timeDeltas"][i].GetDouble() : s["time"][i].GetDouble();
            BOOST_TEST(time >= from_ms - slack);
            BOOST_TEST(time <= to_ms + slack);
            ++samples;
        }
        const auto& m = t["markers"];
        for (rapidjson::SizeType i = 0; i < m["length"].GetUint(); ++i) {
            for (const char* key : {"startTime", "endTime"}) {
                if (m[key][i].IsNull()) continue;
                BOOST_TEST(m[key][i].GetDouble() >= from_ms - slack,
                           t["name"].GetString() << ": " << d["shared"]["stringArray"][m["name"][i].GetUint()].GetString()
                                                << " " << key << " " << m[key][i].GetDouble() << " from " << from);
                BOOST_TEST(m[key][i].GetDouble() <= to_ms + slack);
            }
            ++markers;
        }
    }
    BOOST_TEST(samples > 0u);
    BOOST_TEST(markers > 0u);
    // The synthetic start states what the log knew: no thread "stopped before running".
    BOOST_TEST(report.diagnostics.count(Diagnostic::thread_stopped_before_running) == 0u);
    // And Profile Info says it is a window.
    bool section = false;
    for (const auto& x : d["meta"]["extra"].GetArray())
        if (std::string(x["label"].GetString()).find("Window") != std::string::npos) section = true;
    BOOST_TEST(section);
}

BOOST_AUTO_TEST_CASE(threads_running_and_stopped_at_the_start_are_so_from_the_start) {
    const std::string path = fixture("concurrency.eventlog");
    const auto events = read_all(path);
    const Span all = span_of(events);
    // Find a start where some thread runs and some other is stopped.
    std::optional<std::uint64_t> from;
    StateAt at;
    for (double share = 0.3; share < 0.9 && !from; share += 0.01) {
        at = state_at(events, between(all, share));
        if (!at.running.empty() && !at.stopped.empty()) from = between(all, share);
    }
    BOOST_REQUIRE(from.has_value());
    Diagnostics d;
    analysis::ThreadingAnalysis threading(d, {});
    windowed(path, {.from = *from}, [&](const eventlog::Event& e) { threading.handle(e); });
    analysis::ThreadingResult result = threading.finish();
    std::map<eventlog::ThreadId, const analysis::ThreadTimeline*> by_id;
    for (const auto& t : result.threads) by_id[t.thread] = &t;
    for (const auto& [cap, thread] : at.running) {
        BOOST_REQUIRE(by_id.count(thread));
        const analysis::ThreadStateSpan& first = by_id[thread]->spans.front();
        BOOST_TEST(first.start == *from);
        BOOST_TEST((first.activity == analysis::ThreadActivity::running(cap)));
    }
    for (const auto& [thread, status] : at.stopped) {
        BOOST_REQUIRE(by_id.count(thread));
        const analysis::ThreadStateSpan& first = by_id[thread]->spans.front();
        BOOST_TEST(first.start == *from);
        BOOST_TEST((first.activity.state == analysis::ThreadState::blocked));
        BOOST_TEST(first.activity.reason.status == status);
    }
    for (const auto& c : result.capabilities) BOOST_TEST(c.start == *from);
    BOOST_TEST(d.count(Diagnostic::thread_stopped_before_running) == 0u);
}

BOOST_AUTO_TEST_CASE(summary_figures_are_the_windows_own) {
    for (const char* name : {"alloc.eventlog", "concurrency.eventlog", "gc-n4.eventlog"}) {
        BOOST_TEST_CONTEXT(name) {
            const std::string path = fixture(name);
            const auto events = read_all(path);
            const Span all = span_of(events);
            const std::uint64_t from = between(all, 0.3), to = between(all, 0.7);
            // Expected: allocation since `from` up to `to`, and the collections that end inside.
            std::map<eventlog::CapNo, std::uint64_t> before, upto;
            std::uint64_t ends_in_window = 0;
            for (const Plain& e : events) {
                if (e.tag == eventlog::HeapAllocated::tag && e.time < from) before[e.cap.value_or(0)] = e.value;
                if (e.tag == eventlog::HeapAllocated::tag && e.time >= from && e.time <= to)
                    upto[e.cap.value_or(0)] = e.value;
                if (e.tag == eventlog::GCStatsGHC::tag && e.time >= from && e.time <= to) ++ends_in_window;
            }
            std::uint64_t expected_alloc = 0;
            for (const auto& [cap, v] : upto) expected_alloc += v - (before.count(cap) ? before[cap] : 0);

            const gc::RtsSummary whole = summary_of(path, {});
            const gc::RtsSummary window = summary_of(path, {.from = from, .to = to});
            BOOST_REQUIRE(window.bytes_allocated.value.has_value());
            BOOST_TEST(*window.bytes_allocated.value == expected_alloc);
            BOOST_TEST(*window.bytes_allocated.value < *whole.bytes_allocated.value);
            // Each collection with statistics in the window is one of the window's (GC_STATS_GHC
            // comes with the collection's end).
            std::uint64_t with_stats = 0;
            for (const auto& g : *window.generations_table.value) with_stats += g.collections;
            BOOST_TEST(with_stats == ends_in_window);
            BOOST_TEST(window.collections < whole.collections);
            BOOST_REQUIRE(window.total_elapsed.value.has_value());
            BOOST_TEST(*window.total_elapsed.value <= to - from);
        }
    }
}

// Windows cut right after GC events, so that they start and end inside collections at every
// stage (requested, stopping, collecting, synced, statistics posted with late GC_ENDs to come):
// every collection the window counts has its statistics, and nothing about the cuts is odd.
BOOST_AUTO_TEST_CASE(windows_cut_inside_collections_count_whole_collections_only) {
    for (const char* name : {"concurrency.eventlog", "gc-n4.eventlog", "alloc.eventlog"}) {
        BOOST_TEST_CONTEXT(name) {
            const std::string path = fixture(name);
            const auto events = read_all(path);
            const gc::RtsSummary whole = summary_of(path, {});
            BOOST_REQUIRE(whole.anomalies.total() == 0u);
            std::vector<std::uint64_t> cuts;
            for (const Plain& e : events) {
                switch (e.tag) {
                    case eventlog::RequestParGC::tag:
                    case eventlog::RequestSeqGC::tag:
                    case eventlog::StartGC::tag:
                    case eventlog::EndGC::tag:
                    case eventlog::GlobalSyncGC::tag:
                    case eventlog::GCStatsGHC::tag: cuts.push_back(e.time + 1); break;
                    default: break;
                }
            }
            BOOST_REQUIRE(cuts.size() > 40u);
            const std::size_t step = cuts.size() / 40;
            for (std::size_t i = 0; i + 9 < cuts.size(); i += step) {
                const std::uint64_t from = cuts[i], to = cuts[i + 3 + i % 7];
                if (to <= from) continue;
                BOOST_TEST_CONTEXT("window " << from << " to " << to) {
                    const gc::RtsSummary w = summary_of(path, {.from = from, .to = to});
                    BOOST_TEST(w.anomalies.total() == 0u);
                    std::uint64_t with_stats = 0, stats_in_window = 0;
                    for (const auto& g : *w.generations_table.value) with_stats += g.collections;
                    for (const Plain& e : events)
                        if (e.tag == eventlog::GCStatsGHC::tag && e.time >= from && e.time <= to) ++stats_in_window;
                    BOOST_TEST(w.collections == with_stats);  // none without its statistics
                    BOOST_TEST(with_stats <= stats_in_window);
                    BOOST_TEST(with_stats + 1 >= stats_in_window);  // at most one ended before the start
                }
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(markers_open_and_close_the_window) {
    const std::string path = fixture("userevents.eventlog");
    const auto events = read_all(path);
    std::vector<const Plain*> markers;
    for (const Plain& e : events)
        if (e.tag == eventlog::UserMarker::tag) markers.push_back(&e);
    BOOST_REQUIRE(markers.size() >= 3u);
    const Plain& first = *markers[1];
    // The first marker at or after `first` whose text starts as the third's, other than `first`.
    const std::string to_text = markers[2]->text;
    std::optional<std::uint64_t> expected_to;
    for (std::size_t i = 2; i < markers.size() && !expected_to; ++i)
        if (markers[i]->text.rfind(to_text, 0) == 0) expected_to = markers[i]->time;
    // The first marker in the log starting with `first`'s text opens the window.
    std::uint64_t expected_from = first.time;
    for (const Plain* m : markers)
        if (m->text.rfind(first.text, 0) == 0) {
            expected_from = m->time;
            break;
        }
    convert::ConversionReport report;
    rapidjson::Document d = profile_json(path, {.from_marker = first.text, .to_marker = to_text}, report);
    BOOST_TEST(d["meta"]["profilingStartTime"].GetDouble() == static_cast<double>(expected_from) / 1e6,
               boost::test_tools::tolerance(1e-9));
    BOOST_TEST(d["meta"]["profilingEndTime"].GetDouble() == static_cast<double>(*expected_to) / 1e6,
               boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(cli_refuses_impossible_windows_with_one_line) {
    const std::string path = fixture("userevents.eventlog");
    auto no_marker = run_binary({"convert", path, "-o", "/dev/null", "--from-marker", "no such marker"});
    BOOST_TEST(no_marker.status == 1);
    BOOST_TEST(no_marker.err.find("--from-marker \"no such marker\"") != std::string::npos);
    BOOST_TEST(std::count(no_marker.err.begin(), no_marker.err.end(), '\n') == 1);
    auto backwards = run_binary({"convert", path, "-o", "/dev/null", "--from", "2s", "--to", "1s"});
    BOOST_TEST(backwards.status == 2);
    BOOST_TEST(std::count(backwards.err.begin(), backwards.err.end(), '\n') == 1);
    auto beyond = run_binary({"convert", path, "-o", "/dev/null", "--from", "1000s"});
    BOOST_TEST(beyond.status == 1);
    BOOST_TEST(beyond.err.find("after the log's last event") != std::string::npos);
    auto summary = run_binary({"summary", path, "--to-marker", "no such marker"});
    BOOST_TEST(summary.status == 1);
}

BOOST_AUTO_TEST_SUITE_END()
