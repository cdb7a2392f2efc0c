// Cost-centre stacks and heap profiles in converted profiles: real fixtures (checked against the
// runtime's own .prof and .hp reports of the same run), upstream logs, and built eventlogs.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

#include "check/profile_check.hpp"
#include "temp_file.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "convert/converter.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "fxprof/profile_writer.hpp"
#include "run_process.hpp"
#include "upstream_data.hpp"

namespace fs = std::filesystem;
namespace ev = el2fx::eventlog;
using namespace el2fx;
using el2fx::testing::env_dir;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::upstream_data_dir;
using el2fx::testing::upstream_log;

namespace {

std::string fixture(const std::string& name) { return env_dir("EL2FX_FIXTURES") + "/" + name; }

std::string shared_log(const std::string& name) { return upstream_log(name + ".eventlog"); }

struct Converted {
    convert::ConversionReport report;
    fxprof::Profile profile;
};

Converted convert_file(const std::string& path, convert::ConvertOptions options = {}) {
    convert::ConversionReport report;
    fxprof::Profile profile = convert::build_profile(path, options, report);
    return Converted{std::move(report), std::move(profile)};
}

void expect_valid(const fxprof::Profile& profile, const std::string& what) {
    auto problems = check::validate_profile(fxprof::profile_to_json(profile));
    BOOST_TEST(problems.empty(), what << ": " << (problems.empty() ? "" : problems.front()));
}

// ---- reading the built profile ------------------------------------------------------------

std::string str(const fxprof::Profile& p, fxprof::StringHandle h) { return std::string(p.strings().get(h)); }

fxprof::FuncInfo func_of(const fxprof::Profile& p, fxprof::StackHandle s) {
    fxprof::FrameHandle f = p.stacks().frame(s);
    return p.funcs().rows()[p.frames().rows()[f.index()].func.index()];
}

std::string func_name(const fxprof::Profile& p, fxprof::StackHandle s) { return str(p, func_of(p, s).name); }

std::string resource_name(const fxprof::Profile& p, const fxprof::FuncInfo& f) {
    if (!f.resource) return "";
    return str(p, p.resources().rows()[f.resource->index()].name);
}

// Function names from the root to the leaf.
std::vector<std::string> stack_names(const fxprof::Profile& p, std::int32_t stack) {
    std::vector<std::string> out;
    if (stack < 0) return out;
    std::optional<fxprof::StackHandle> s = fxprof::StackHandle(static_cast<std::uint32_t>(stack));
    while (s) {
        out.push_back(func_name(p, *s));
        s = p.stacks().prefix(*s);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : "/") + n;
    return out;
}

const fxprof::Thread* track(const fxprof::Profile& p, const std::string& name) {
    for (const fxprof::Thread& t : p.threads())
        if (t.name == name) return &t;
    return nullptr;
}

const fxprof::Thread& must(const fxprof::Thread* t) {
    BOOST_REQUIRE(t);
    return *t;
}

bool is_capability(const fxprof::Thread& t) { return t.name.starts_with("Capability "); }

// Weighted sample counts per root-to-leaf path on one track.
std::map<std::string, std::int64_t> stacks_of(const fxprof::Profile& p, const fxprof::Thread& t) {
    std::map<std::string, std::int64_t> out;
    t.samples.for_each([&](const fxprof::SampleRow& s) { out[joined(stack_names(p, s.stack))] += s.weight; });
    return out;
}

std::uint64_t cpu_sum(const fxprof::Thread& t) {
    std::uint64_t sum = 0;
    t.samples.for_each([&](const fxprof::SampleRow& s) {
        if (s.cpu_delta > 0) sum += static_cast<std::uint64_t>(s.cpu_delta);
    });
    return sum;
}

std::vector<const fxprof::Counter*> heap_counters(const fxprof::Profile& p) {
    std::vector<const fxprof::Counter*> out;
    for (const fxprof::Counter& c : p.counters())
        if (c.name.starts_with("Heap: ")) out.push_back(&c);
    return out;
}

// The heap band chart's schema: its band fields' labels ("[blue] main/…"), bottom band first,
// then "other" when there is one.
const fxprof::MarkerSchema* chart_schema(const fxprof::Profile& p) {
    for (const fxprof::MarkerSchema& s : p.marker_schemas())
        if (s.name == "HeapBands") return &s;
    return nullptr;
}
std::vector<std::string> chart_labels(const fxprof::Profile& p) {
    std::vector<std::string> out;
    if (const fxprof::MarkerSchema* s = chart_schema(p))
        for (const fxprof::MarkerField& f : s->fields)
            if (!f.hidden && f.key != "total") out.push_back(f.label);
    return out;
}
bool chart_has_band(const fxprof::Profile& p, const std::string& name) {
    for (const std::string& l : chart_labels(p))
        if (l.ends_with("] " + name)) return true;
    return false;
}

struct MarkerView {
    std::string name;
    std::int64_t start = 0, end = 0;
    fxprof::MarkerPhase phase{};
    std::map<std::string, fxprof::FieldValue> fields;
};

std::vector<MarkerView> markers_of(const fxprof::Profile& p, const fxprof::Thread& t, const std::string& schema_name) {
    std::vector<MarkerView> out;
    t.markers.for_each([&](const fxprof::MarkerRow& m) {
        if (m.schema == fxprof::MarkerTable::kNoSchema || p.marker_schemas()[m.schema].name != schema_name) return;
        MarkerView v{str(p, fxprof::StringHandle(m.name)), m.start, m.end, m.phase, {}};
        for (std::size_t f = 0; f < m.values.size(); ++f)
            v.fields.emplace(p.marker_schemas()[m.schema].fields[f].key, m.values[f]);
        out.push_back(std::move(v));
    });
    return out;
}

std::string extra(const fxprof::Profile& p, const std::string& section, const std::string& label) {
    for (const auto& s : p.meta().extra)
        if (s.label == section)
            for (const auto& e : s.entries)
                if (e.label == label) {
                    if (const auto* text = std::get_if<std::string>(&e.value.value())) return *text;
                    if (const auto* i = std::get_if<std::int64_t>(&e.value.value())) return std::to_string(*i);
                    return "?";
                }
    return "";
}

using el2fx::testing::TempFile;

// The program's own cost centres: the `.prof` report leaves the runtime's out of its total.
bool is_program_cost_centre(const fxprof::Profile& p, const fxprof::FuncInfo& f) {
    static const std::set<std::string> kRuntimeModules = {"IDLE", "GC", "SYSTEM", "PROFILING", "MAIN"};
    std::string module = resource_name(p, f);
    return !module.empty() && !kRuntimeModules.count(module);
}

// Self samples per "name module" over the tracks `pick` selects (the inverted call tree's roots).
std::map<std::string, std::int64_t> self_samples(const fxprof::Profile& p, bool (*pick)(const fxprof::Thread&)) {
    std::map<std::string, std::int64_t> out;
    for (const fxprof::Thread& t : p.threads()) {
        if (!pick(t)) continue;
        t.samples.for_each([&](const fxprof::SampleRow& s) {
            if (s.stack < 0 || s.weight <= 0) return;
            const fxprof::FuncInfo& f = func_of(p, fxprof::StackHandle(static_cast<std::uint32_t>(s.stack)));
            if (is_program_cost_centre(p, f)) out[str(p, f.name) + " " + resource_name(p, f)] += s.weight;
        });
    }
    return out;
}

struct ReportLine {
    std::string key;  // "name module"
    double time = 0;  // %
};

// The summary table of a `.prof` report: COST CENTRE, MODULE, SRC, %time, %alloc.
std::vector<ReportLine> read_prof_summary(const std::string& path, long& total_ticks) {
    std::ifstream in(path);
    std::string line;
    std::vector<ReportLine> out;
    bool in_table = false;
    while (std::getline(in, line)) {
        // "total time  =        0.05 secs   (101 ticks @ 1000 us, 2 processors)"
        if (auto at = line.find(" ticks @"); at != std::string::npos) {
            auto open = line.rfind('(', at);
            if (open != std::string::npos) total_ticks = std::stol(line.substr(open + 1, at - open - 1));
        }
        if (!in_table) {
            in_table = line.starts_with("COST CENTRE") && line.find("%time") != std::string::npos;
            continue;
        }
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string x; words >> x;) w.push_back(x);
        if (w.empty() && out.empty()) continue;  // the blank line after the header
        if (w.size() < 5) break;                 // the blank line after the table
        out.push_back({w[0] + " " + w[1], std::stod(w[w.size() - 2])});
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cost_centre_profile)

BOOST_AUTO_TEST_CASE(cost_centres_become_functions_with_module_file_and_line) {
    Converted c = convert_file(fixture("profiled.eventlog"));
    const fxprof::Profile& p = c.profile;
    bool found_go = false;
    for (const fxprof::FuncInfo& f : p.funcs().rows()) {
        std::string name = str(p, f.name);
        if (name == "stageNumeric.go") {
            found_go = true;
            BOOST_TEST(resource_name(p, f) == "Main");
            BOOST_REQUIRE(f.source.has_value());
            BOOST_TEST(str(p, p.sources().filenames()[f.source->index()]) == "profiled.hs");
            BOOST_TEST(f.line.value_or(0) == 56u);  // profiled.hs:(56,9)-(57,73)
            BOOST_TEST(f.column.value_or(0) == 9u);
        }
    }
    BOOST_TEST(found_go);
    expect_valid(p, "profiled.eventlog");
}

BOOST_AUTO_TEST_CASE(ticks_are_stacks_root_first_on_the_running_thread_and_its_capability) {
    Converted c = convert_file(fixture("profiled.eventlog"));
    const fxprof::Profile& p = c.profile;
    const fxprof::Thread* cap0 = track(p, "Capability 0");
    const fxprof::Thread* cap1 = track(p, "Capability 1");
    const fxprof::Thread* main_thread = track(p, "thread 5");  // runs runAll
    const fxprof::Thread* forked = track(p, "thread 6");       // forkIO: stageNumeric
    BOOST_REQUIRE(cap0 && cap1 && main_thread && forked);

    auto on_cap0 = stacks_of(p, *cap0);
    // The capability: the thread's mutator frames, then the cost-centre stack from its root.
    BOOST_TEST(on_cap0["Mutator/thread 5/main/main.\\/runAll/runAll.m/stageBuild/mkItems"] > 5);
    BOOST_TEST(on_cap0["Mutator/thread 6/main/stageNumeric/inner-loop/stageNumeric.go"] > 5);
    // The thread: the same stacks, without the capability's frames.
    auto on_main = stacks_of(p, *main_thread);
    BOOST_TEST(on_main["main/main.\\/runAll/runAll.m/stageBuild/mkItems"] ==
               on_cap0["Mutator/thread 5/main/main.\\/runAll/runAll.m/stageBuild/mkItems"]);
    BOOST_TEST(on_main["main/main.\\/runAll/stageNumeric/inner-loop/stageNumeric.go"] > 5);
    auto on_forked = stacks_of(p, *forked);
    BOOST_TEST(on_forked["main/stageNumeric/inner-loop/stageNumeric.go"] ==
               on_cap0["Mutator/thread 6/main/stageNumeric/inner-loop/stageNumeric.go"]);
    // Ticks on an idle capability, or during a collection, say so.
    auto on_cap1 = stacks_of(p, *cap1);
    BOOST_TEST(on_cap1["GC"] >= 180);
    BOOST_TEST(on_cap1["Idle"] >= 100);
    BOOST_TEST(on_cap0["GC"] >= 180);
    // The runtime's own cost centres keep their names.
    BOOST_TEST(on_cap1["SYSTEM"] >= 1);
    BOOST_TEST(extra(p, "Time profile (cost centres)", "Ticks") == "586");
    BOOST_TEST(extra(p, "Time profile (cost centres)", "In the program's cost centres") == "101");
}

BOOST_AUTO_TEST_CASE(individual_time_matches_the_runtime_prof_report) {
    // The runtime counts a tick for its report and writes it to the eventlog in two reads of
    // the capability's current cost-centre stack (rts/Proftimer.c, handleProfTick), so the two
    // can differ by a tick here and there: shares must agree within 2 percentage points, and the
    // order wherever the report's shares are further apart than that.
    long report_ticks = 0;
    std::vector<ReportLine> report = read_prof_summary(fixture("profiled.prof"), report_ticks);
    BOOST_REQUIRE(report.size() >= 5u);
    BOOST_REQUIRE(report_ticks > 50);
    Converted c = convert_file(fixture("profiled.eventlog"));
    // Every tick is on its capability's track once: the inverted call tree of the capabilities.
    std::map<std::string, std::int64_t> self = self_samples(c.profile, is_capability);
    std::int64_t total = 0;
    for (const auto& [k, n] : self) total += n;
    BOOST_TEST(std::abs(total - report_ticks) <= report_ticks / 50 + 1, total << " ticks vs " << report_ticks);

    std::vector<std::pair<std::string, std::int64_t>> ranked(self.begin(), self.end());
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<double> share;
    for (std::size_t i = 0; i < report.size(); ++i) {
        share.push_back(100.0 * static_cast<double>(self[report[i].key]) / static_cast<double>(total));
        BOOST_TEST(std::abs(share[i] - report[i].time) <= 2.0,
                   report[i].key << ": " << share[i] << "% in the profile, " << report[i].time << "% in the report");
        // The same top entries: the profile's i-th is one of the report's.
        BOOST_REQUIRE(i < ranked.size());
        bool listed =
            std::any_of(report.begin(), report.end(), [&](const ReportLine& r) { return r.key == ranked[i].first; });
        BOOST_TEST(listed, ranked[i].first << " is in the profile's top " << report.size() << " but not the report's");
    }
    for (std::size_t i = 0; i < report.size(); ++i)
        for (std::size_t j = i + 1; j < report.size(); ++j)
            if (report[i].time - report[j].time > 2.0)
                BOOST_TEST(share[i] >= share[j], report[i].key << " before " << report[j].key);
    BOOST_TEST(ranked.front().first == "stageNumeric.go Main");
    BOOST_TEST(report.front().key == "stageNumeric.go Main");

    // The threads' tracks carry the same program ticks (each was charged to its running thread).
    std::map<std::string, std::int64_t> on_threads =
        self_samples(c.profile, [](const fxprof::Thread& t) { return !is_capability(t); });
    for (const ReportLine& r : report) BOOST_TEST(on_threads[r.key] == self[r.key], r.key);
}

BOOST_AUTO_TEST_CASE(cpu_deltas_still_add_up_to_the_run_stop_time) {
    const std::string path = fixture("profiled.eventlog");
    Converted c = convert_file(path);
    Diagnostics d;
    ev::InputFile input(path);
    ev::TimeOrderedReader reader(input, d);
    analysis::ThreadingResult r = analysis::analyse_threading(reader, d);
    std::size_t checked = 0;
    for (const analysis::CapabilityTimeline& cap : r.capabilities) {
        const fxprof::Thread* t = track(c.profile, "Capability " + std::to_string(cap.cap));
        BOOST_REQUIRE(t);
        std::uint64_t busy = 0;
        for (const auto& s : cap.spans)
            if (is_on_cpu(s.activity)) busy += s.end - s.start;
        BOOST_TEST(cpu_sum(*t) == busy, t->name);
        ++checked;
    }
    for (const analysis::ThreadTimeline& th : r.threads) {
        const fxprof::Thread* t = nullptr;
        for (const fxprof::Thread& x : c.profile.threads())
            if (x.tid == th.thread && !is_capability(x) && !x.is_main) t = &x;
        if (!t) continue;
        std::uint64_t running = 0;
        for (const auto& s : th.spans)
            if (is_on_cpu(s.activity)) running += s.end - s.start;
        BOOST_TEST(cpu_sum(*t) == running, t->name);
        ++checked;
    }
    BOOST_TEST(checked >= 8u);
}

BOOST_AUTO_TEST_CASE(ticks_replace_the_virtual_on_cpu_samples_where_they_cover) {
    Converted c = convert_file(fixture("profiled.eventlog"));
    const fxprof::Profile& p = c.profile;
    // The ticks run from about 4.9 ms to the end: inside, no thread has a virtual "Running"
    // sample and no capability a virtual mutator sample (a leaf naming the thread).
    for (const fxprof::Thread& t : p.threads()) {
        t.samples.for_each([&](const fxprof::SampleRow& s) {
            if (s.time < 6'000'000 || s.weight == 0) return;
            std::vector<std::string> names = stack_names(p, s.stack);
            BOOST_REQUIRE(!names.empty());
            BOOST_TEST(names.back() != "Running", t.name << " at " << s.time);
            if (is_capability(t)) BOOST_TEST((names[0] != "Mutator" || names.size() > 2), t.name << " at " << s.time);
        });
    }
    // Before the first tick the virtual timer still samples.
    BOOST_TEST(stacks_of(p, must(track(p, "thread 6")))["Running"] >= 1);
}

BOOST_AUTO_TEST_CASE(ticks_weigh_as_many_virtual_intervals_and_go_under_their_thread_on_the_shared_track) {
    convert::ConvertOptions options;
    options.sampling_interval_ns = 250'000;  // a 1 ms tick stands for 4 of these
    options.max_threads = 4;                 // the 3 labelled threads and the busiest, thread 5; thread 6 is folded
    Converted c = convert_file(fixture("profiled.eventlog"), options);
    const fxprof::Profile& p = c.profile;
    expect_valid(p, "profiled.eventlog, 250 us, 4 thread tracks");
    auto cap0 = stacks_of(p, must(track(p, "Capability 0")));
    BOOST_TEST(cap0["Mutator/thread 5/main/main.\\/runAll/runAll.m/stageBuild/mkItems"] == 4 * 17);
    const fxprof::Thread* shared = track(p, "other threads");
    BOOST_REQUIRE(shared);
    auto folded = stacks_of(p, *shared);
    BOOST_TEST(folded["thread 6/main/stageNumeric/inner-loop/stageNumeric.go"] == 4 * 16);
    BOOST_TEST(!shared->samples.has_cpu_delta());  // the shared track has weights, not activity
    BOOST_TEST(stacks_of(p, must(track(p, "thread 5")))["main/main.\\/runAll/stageSort"] == 4 * 11);
}

BOOST_AUTO_TEST_CASE(a_log_without_scheduler_events_still_shows_cpu_for_its_ticks, UPSTREAM_DATA) {
    // hs-speedscope's recipe, `+RTS -p -l-au`: ticks but no RUN/STOP to account CPU time by.
    std::string path = shared_log("time-prof");
    Converted c = convert_file(path);
    expect_valid(c.profile, path);
    const fxprof::Thread* cap0 = track(c.profile, "Capability 0");
    BOOST_REQUIRE(cap0);
    auto stacks = stacks_of(c.profile, *cap0);
    BOOST_TEST(stacks["CAF:Main/main/fib"] == 332);
    BOOST_TEST(stacks["GC"] == 3);
    BOOST_TEST(stacks["OVERHEAD_of"] == 5);
    BOOST_TEST(cpu_sum(*cap0) == 340u * 1'000'000u);  // one tick interval per busy tick
}

BOOST_AUTO_TEST_CASE(built_log_charges_ticks_to_the_running_thread_or_says_idle_or_gc) {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<ev::CreateThread>()
        .declare<ev::RunThread>()
        .declare<ev::StopThread>()
        .declare<ev::StartGC>()
        .declare<ev::EndGC>()
        .declare<ev::HeapProfCostCentre>()
        .declare<ev::ProfBegin>()
        .declare<ev::ProfSampleCostCentre>();
    constexpr std::uint16_t kYield = 3, kFinished = 5;
    // Cap 0 runs thread 1 (10k-40k), collects (40k-50k), runs thread 2 (50k-70k), idles to 100k.
    b.begin_block(1000, 0)
        .event(1000, ev::CreateThread{1})
        .event(1100, ev::CreateThread{2})
        .event(10'000, ev::RunThread{1})
        .event(40'000, ev::StopThread{1, kYield, 0})
        .event(40'000, ev::StartGC{})
        .event(50'000, ev::EndGC{})
        .event(50'000, ev::RunThread{2})
        .event(70'000, ev::StopThread{2, kFinished, 0})
        .end_block();
    b.begin_block(500, ev::kGlobalCap);
    b.event(600, ev::HeapProfCostCentre{1, {"main"}, {"Main"}, {"M.hs:(1,1)-(9,9)"}, 0});
    b.event(601, ev::HeapProfCostCentre{2, {"work"}, {"Main"}, {"M.hs:3:5-20"}, 0});
    b.event(602, ev::HeapProfCostCentre{3, {"other"}, {"Lib"}, {"src/Lib.hs:7:1-9"}, 0});
    b.event(603, ev::HeapProfCostCentre{8, {"GC"}, {"GC"}, {"<built-in>"}, 0});
    b.event(604, ev::HeapProfCostCentre{9, {"IDLE"}, {"IDLE"}, {"<built-in>"}, 0});
    b.event(700, ev::ProfBegin{5000});
    auto be = [](std::initializer_list<std::uint32_t> ids) {
        std::string s;
        for (std::uint32_t id : ids) ev::field_io::put_int(s, id);
        return s;
    };
    static const std::string work = be({2, 1}), other = be({3, 1}), gc = be({8}), idle = be({9});
    const std::pair<std::uint64_t, const std::string*> ticks[] = {
        {15'000, &work}, {20'000, &work},  {25'000, &work},  {30'000, &work},  {35'000, &work},
        {45'000, &gc},   {55'000, &other}, {60'000, &other}, {65'000, &other}, {75'000, &idle},
        {80'000, &idle}, {85'000, &idle},  {90'000, &idle}};
    for (const auto& [t, s] : ticks) b.event(t, ev::ProfSampleCostCentre{0, t / 5000, ev::CostCentreStack{*s}});
    b.end_block();
    TempFile file(b.finish());

    convert::ConvertOptions options;
    options.sampling_interval_ns = 5000;
    Converted c = convert_file(file.path, options);
    const fxprof::Profile& p = c.profile;
    expect_valid(p, "built log");
    auto cap = stacks_of(p, must(track(p, "Capability 0")));
    BOOST_TEST(cap["Mutator/thread 1/main/work"] == 5);
    BOOST_TEST(cap["Mutator/thread 2/main/other"] == 3);
    BOOST_TEST(cap["GC"] == 1);
    BOOST_TEST(cap["Idle"] >= 4);  // the ticks, and the virtual idle samples before the first one
    auto t1 = stacks_of(p, must(track(p, "thread 1")));
    BOOST_TEST(t1["main/work"] == 5);
    // Within the ticks' cover they are the on-CPU samples; the virtual sample at the switch-in
    // (10 us: one tick interval before the first tick) stands for the time before they cover.
    BOOST_TEST(t1["Running"] == 1);
    auto t2 = stacks_of(p, must(track(p, "thread 2")));
    BOOST_TEST(t2["main/other"] == 3);
    // CPU time: each thread's adds up to its running time, the capability's to its busy time.
    BOOST_TEST(cpu_sum(must(track(p, "thread 1"))) == 30'000u);
    BOOST_TEST(cpu_sum(must(track(p, "thread 2"))) == 20'000u);
    BOOST_TEST(cpu_sum(must(track(p, "Capability 0"))) == 60'000u);
    // Functions know their module and source line; the MAIN-less root is the program's "main".
    for (const fxprof::FuncInfo& f : p.funcs().rows())
        if (str(p, f.name) == "other") {
            BOOST_TEST(resource_name(p, f) == "Lib");
            BOOST_TEST(str(p, p.sources().filenames()[f.source->index()]) == "src/Lib.hs");
            BOOST_TEST(*f.line == 7u);
        }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(heap_profile_tracks)

BOOST_AUTO_TEST_CASE(hc_bands_make_one_chart_named_by_stack_and_censuses_are_markers) {
    Converted c = convert_file(fixture("profiled.eventlog"));
    const fxprof::Profile& p = c.profile;
    expect_valid(p, "profiled.eventlog");
    // No counter track per band (the profiler puts counters above the capabilities): one chart.
    BOOST_TEST(heap_counters(p).empty());
    std::vector<std::string> labels = chart_labels(p);
    BOOST_REQUIRE(labels.size() == 10u);  // 12 bands in this run: 9 in the chart, 3 in "other"
    // The largest over the run at the bottom, with its whole stack and its colour.
    BOOST_TEST(labels.front() == "[blue] main/main.\\/runAll/runAll.m/stageBuild/mkItems");
    BOOST_TEST(labels.back() == "[grey] other (3 smaller bands)");
    std::vector<MarkerView> chart = markers_of(p, p.threads().front(), "HeapBands");
    BOOST_REQUIRE(chart.size() == 13u);  // one per census
    double mk_peak = 0;
    for (const MarkerView& m : chart) {
        BOOST_TEST(m.name == "Heap profile (-hc, by cost-centre stack)");
        mk_peak = std::max(mk_peak, static_cast<double>(m.fields.at("b1").integer()));
    }
    BOOST_TEST(mk_peak > 1e6);
    BOOST_TEST(chart_has_band(p, "MAIN"));  // the empty stack

    // One marker per census on the process track, listing its largest bands; the totals are
    // those of the runtime's own .hp report of the same run, census by census.
    std::vector<double> hp_totals;
    {
        std::ifstream hp(fixture("profiled.hp"));
        double total = 0;
        int bands_in_sample = 0;
        for (std::string line; std::getline(hp, line);) {
            if (line.starts_with("BEGIN_SAMPLE"))
                total = 0, bands_in_sample = 0;
            else if (line.starts_with("END_SAMPLE")) {
                if (bands_in_sample) hp_totals.push_back(total);
            } else if (auto tab = line.rfind('\t'); tab != std::string::npos) {
                total += std::stod(line.substr(tab + 1));
                ++bands_in_sample;
            }
        }
    }
    std::vector<MarkerView> censuses = markers_of(p, p.threads().front(), "HeapCensus");
    BOOST_REQUIRE(censuses.size() == 13u);
    BOOST_REQUIRE(hp_totals.size() == censuses.size());
    for (std::size_t i = 0; i < censuses.size(); ++i) {
        BOOST_TEST(chart[i].start == censuses[i].start);
        BOOST_TEST(chart[i].fields.at("total").integer() == censuses[i].fields.at("total").integer());
        const MarkerView& m = censuses[i];
        BOOST_TEST(m.name == "Heap census");
        BOOST_TEST((m.phase == fxprof::MarkerPhase::interval));
        BOOST_TEST(m.end >= m.start);
        BOOST_TEST(static_cast<double>(m.fields.at("total").integer()) == hp_totals[i], "census " << i);
        BOOST_TEST(m.fields.at("band1Bytes").integer() >= m.fields.at("band2Bytes").integer());
    }
    // The census with the most: mkItems's band is its largest.
    auto big = std::max_element(censuses.begin(), censuses.end(), [](const MarkerView& a, const MarkerView& b) {
        return a.fields.at("total").integer() < b.fields.at("total").integer();
    });
    BOOST_TEST(str(p, big->fields.at("band1").string()) == "main/main.\\/runAll/runAll.m/stageBuild/mkItems");
    BOOST_TEST(extra(p, "Heap profile", "Breakdown") == "-hc, by cost-centre stack");
    BOOST_TEST(extra(p, "Heap profile", "Censuses") == "13");
    // Profile Info: each chart band's colour, what it is, and its peak.
    std::string band1 = extra(p, "Heap profile", "[blue] band 1");
    BOOST_TEST(band1.find("innermost cost centre mkItems") != std::string::npos, band1);
    BOOST_TEST(band1.find("; peak ") != std::string::npos, band1);
    BOOST_TEST(extra(p, "Heap profile", "[grey] other").starts_with("3 smaller bands added up; peak "));
}

BOOST_AUTO_TEST_CASE(hy_chart_bands_and_other_stack_up_to_each_census) {
    convert::ConvertOptions options;
    options.heap_bands = 5;
    Converted c = convert_file(fixture("profiled-hy.eventlog"), options);
    const fxprof::Profile& p = c.profile;
    expect_valid(p, "profiled-hy.eventlog");
    BOOST_TEST(heap_counters(p).empty());
    std::vector<std::string> labels = chart_labels(p);
    BOOST_REQUIRE(labels.size() == 6u);  // 5 and "other"
    BOOST_TEST(labels.back().starts_with("[grey] other ("));
    BOOST_TEST(chart_has_band(p, "Item"));
    BOOST_TEST(chart_has_band(p, "Double"));
    // The track draws the hidden cumulative levels as bars, the total first, band 1 last.
    const fxprof::MarkerSchema* schema = chart_schema(p);
    BOOST_REQUIRE(schema->graphs.size() == 6u);
    BOOST_TEST(schema->graphs.front().key == "c6");
    BOOST_TEST(schema->graphs.back().key == "c1");
    for (const fxprof::MarkerGraph& g : schema->graphs) BOOST_TEST((g.type == fxprof::MarkerGraphType::bar));
    std::vector<MarkerView> censuses = markers_of(p, p.threads().front(), "HeapCensus");
    std::vector<MarkerView> chart = markers_of(p, p.threads().front(), "HeapBands");
    BOOST_REQUIRE(censuses.size() == 18u);
    BOOST_REQUIRE(chart.size() == censuses.size());
    // Each census's bands and "other" add up to its total; the cumulative levels climb to it;
    // a census holds until the next one.
    for (std::size_t i = 0; i < censuses.size(); ++i) {
        const MarkerView& m = chart[i];
        std::int64_t sum = 0, previous = 0;
        for (int k = 1; k <= 6; ++k) {
            sum += m.fields.at(k < 6 ? "b" + std::to_string(k) : std::string("other")).integer();
            std::int64_t cumulative = m.fields.at("c" + std::to_string(k)).integer();
            BOOST_TEST(cumulative == sum, "census " << i << " c" << k);
            BOOST_TEST(cumulative >= previous);
            previous = cumulative;
        }
        BOOST_TEST(sum == censuses[i].fields.at("total").integer(), "census " << i);
        BOOST_TEST(m.start == censuses[i].start);
        if (i + 1 < censuses.size()) BOOST_TEST(m.end == censuses[i + 1].start);
    }
    BOOST_TEST(extra(p, "Heap profile", "Breakdown") == "-hy, by type");
    // No -p: no time profile, and the virtual timer samples as usual.
    BOOST_TEST(extra(p, "Time profile (cost centres)", "Ticks").empty());
    BOOST_TEST(stacks_of(p, must(track(p, "Capability 0")))["Idle"] > 0);

    options.heap_bands = 0;
    Converted none = convert_file(fixture("profiled-hy.eventlog"), options);
    BOOST_TEST((chart_labels(none.profile).size() == 1u));
    BOOST_TEST(chart_labels(none.profile).front().starts_with("[grey] other ("));
}

BOOST_AUTO_TEST_CASE(upstream_heap_profiles_of_every_breakdown, UPSTREAM_DATA) {
    const std::pair<const char*, const char*> logs[] = {{"sleep.h", "-hc, by cost-centre stack"},
                                                        {"sleep.hC", "-hc, by cost-centre stack"},
                                                        {"sleep.hd", "-hd, by closure description"},
                                                        {"sleep.hm", "-hm, by module"},
                                                        {"sleep.hy", "-hy, by type"},
                                                        {"stop.hT", "-hT, by closure type"},
                                                        {"biographical-samples", "-hb, by biography"}};
    for (const auto& [name, breakdown] : logs) {
        std::string path = shared_log(name);
        BOOST_REQUIRE(!path.empty());
        Converted c = convert_file(path);
        expect_valid(c.profile, path);
        BOOST_TEST(extra(c.profile, "Heap profile", "Breakdown") == breakdown, name);
        BOOST_TEST(heap_counters(c.profile).empty(), name);
        BOOST_TEST(!chart_labels(c.profile).empty(), name);
        BOOST_TEST(chart_labels(c.profile).size() <= 10u, name);
        BOOST_TEST(markers_of(c.profile, c.profile.threads().front(), "HeapBands").size() ==
                       markers_of(c.profile, c.profile.threads().front(), "HeapCensus").size(),
                   name);
    }
    // -hm names bands by module; GHC 8.4's -hT has no SAMPLE_END: instant census markers.
    BOOST_TEST(chart_has_band(convert_file(shared_log("sleep.hm")).profile, "GHC.IO.Encoding"));
    Converted t = convert_file(shared_log("stop.hT"));
    std::vector<MarkerView> hT = markers_of(t.profile, t.profile.threads().front(), "HeapCensus");
    BOOST_TEST(hT.size() == 14u);
    BOOST_TEST(
        std::all_of(hT.begin(), hT.end(), [](const MarkerView& m) { return m.phase == fxprof::MarkerPhase::instant; }));
    BOOST_TEST(chart_has_band(t.profile, "STACK"));
    // Biographical censuses are written at the end but belong at their own time field.
    Converted bio = convert_file(shared_log("biographical-samples"));
    std::vector<MarkerView> b = markers_of(bio.profile, bio.profile.threads().front(), "HeapCensus");
    BOOST_REQUIRE(b.size() == 6u);
    BOOST_TEST(b.front().name == "Heap census (biographical)");
    BOOST_TEST(b.front().start == 866'544'061);
    BOOST_TEST(b[1].start == 1'892'144'224);
    BOOST_TEST(chart_has_band(bio.profile, "LAG"));
    BOOST_TEST(chart_has_band(bio.profile, "VOID"));
    // IPE events alone (no -hi census) convert too.
    std::string ipe = shared_log("ghc-9.2-events");
    BOOST_REQUIRE(!ipe.empty());
    expect_valid(convert_file(ipe).profile, ipe);
}

BOOST_AUTO_TEST_CASE(hi_bands_are_named_by_their_info_tables) {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<ev::InfoProv>()
        .declare<ev::HeapProfBegin>()
        .declare<ev::HeapProfSampleBegin>()
        .declare<ev::HeapProfSampleString>()
        .declare<ev::HeapProfSampleEnd>();
    b.begin_block(100, ev::kGlobalCap);
    b.event(110, ev::InfoProv{0x409f78, {"sat_s154_info"}, {"21"}, {"[Int]"}, {""}, {"Main"}, {"Test.hs:5:1-30"}});
    b.event(111, ev::InfoProv{0x40a0f8, {"main_info"}, {"21"}, {"IO ()"}, {""}, {"Main"}, {"Test.hs:5:1-4"}});
    b.event(120, ev::HeapProfBegin{0, 1000, 8, {}, {}, {}, {}, {}, {}, {}});
    for (std::uint64_t t : {1000u, 2000u}) {
        b.event(t, ev::HeapProfSampleBegin{t / 1000});
        b.event(t + 1, ev::HeapProfSampleString{0, 4096 * t / 1000, {"0x409f78"}});
        b.event(t + 2, ev::HeapProfSampleString{0, 64, {"0x40a0f8"}});
        b.event(t + 3, ev::HeapProfSampleString{0, 32, {"0x123"}});
        b.event(t + 4, ev::HeapProfSampleEnd{t / 1000});
    }
    b.end_block();
    TempFile file(b.finish());
    Converted c = convert_file(file.path);
    expect_valid(c.profile, "built -hi log");
    std::vector<std::string> labels = chart_labels(c.profile);
    BOOST_REQUIRE(labels.size() == 3u);
    BOOST_TEST(labels[0] == "[blue] sat_s154_info :: [Int] (THUNK_STATIC) at Test.hs:5:1-30");
    std::vector<MarkerView> chart = markers_of(c.profile, c.profile.threads().front(), "HeapBands");
    BOOST_REQUIRE(chart.size() == 2u);
    BOOST_TEST(chart[0].fields.at("b1").integer() == 4096);
    BOOST_TEST(chart[1].fields.at("b1").integer() == 8192);
    BOOST_TEST(chart[0].end == chart[1].start);
    // The last one: as long as the gap before it at most, cut at the run's end (its last event).
    BOOST_TEST(chart[1].end > chart[1].start);
    BOOST_TEST(chart[1].end <= chart[1].start + 1000);
    BOOST_TEST(chart_has_band(c.profile, "main_info :: IO () (THUNK_STATIC) at Test.hs:5:1-4"));
    BOOST_TEST(extra(c.profile, "Heap profile", "[blue] band 1").find("type [Int]") != std::string::npos);
    BOOST_TEST(extra(c.profile, "Heap profile", "[blue] band 1").ends_with("; peak 8.19 kB"));
    BOOST_TEST(chart_has_band(c.profile, "0x123"));  // no IPE event: the address
    BOOST_TEST(extra(c.profile, "Heap profile", "Info tables with provenance (IPE)") == "2");
}

BOOST_AUTO_TEST_SUITE_END()
