// The conversion end to end: every real eventlog gives a profile the validator
// accepts; output is deterministic, private by default, bounded in tracks, atomic.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <unistd.h>

#include "check/profile_check.hpp"
#include "convert/converter.hpp"
#include "eventlog_builder.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/rapidjson.hpp"
#include "run_process.hpp"
#include "share_simulation.hpp"
#include "upstream_data.hpp"
#include "util/error.hpp"
#include "temp_file.hpp"

using el2fx::testing::slurp;
using el2fx::testing::TempDir;

namespace fs = std::filesystem;
using namespace el2fx;
using el2fx::testing::env_dir;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::upstream_data_dir;
using el2fx::testing::upstream_log;

namespace {

struct Converted {
    convert::ConversionReport report;
    std::string json;
};

Converted convert_to_json(const std::string& path, convert::ConvertOptions options = {}) {
    Converted c;
    fxprof::Profile profile = convert::build_profile(path, options, c.report);
    c.json = fxprof::profile_to_json(profile);
    return c;
}

std::vector<std::string> eventlogs_in(const std::string& dir) {
    std::vector<std::string> out;
    if (dir.empty() || !fs::is_directory(dir)) return out;
    // Recursive: the fixtures of every GHC (fixtures/ghc-VERSION/) too.
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.path().extension() == ".eventlog") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

rapidjson::Document parse(const std::string& json) {
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_fixture_converts_to_a_valid_profile) {
    auto logs = eventlogs_in(env_dir("EL2FX_FIXTURES"));
    BOOST_REQUIRE(logs.size() >= 8u);
    for (const std::string& log : logs) {
        Converted c = convert_to_json(log);
        auto problems = check::validate_profile(c.json);
        BOOST_TEST(problems.empty(), log << ": " << (problems.empty() ? "" : problems.front()));
    }
}

// Issue 19: the Share panel with "Include hidden threads" unticked keeps meta's thread lists as
// they are; they must still name the same threads. And the panel must not take our profiles for
// Firefox Nightly's.
BOOST_AUTO_TEST_CASE(every_fixture_shared_without_hidden_threads_keeps_its_first_view) {
    auto logs = eventlogs_in(env_dir("EL2FX_FIXTURES"));
    BOOST_REQUIRE(logs.size() >= 8u);
    for (const std::string& log : logs) {
        auto d = parse(convert_to_json(log).json);
        const auto shared = el2fx::testing::share_without_hidden_threads(d);
        BOOST_TEST(shared.problems.empty(), log << ": " << (shared.problems.empty() ? "" : shared.problems.front()));
        BOOST_TEST(d["meta"]["updateChannel"].GetString() == std::string("release"), log);
    }
}

BOOST_AUTO_TEST_CASE(every_upstream_eventlog_converts_to_a_valid_profile, UPSTREAM_DATA) {
    auto dir = upstream_data_dir();
    BOOST_REQUIRE(dir);
    auto logs = eventlogs_in(dir->string());
    BOOST_REQUIRE(!logs.empty());
    for (const std::string& log : logs) {
        Converted c = convert_to_json(log);
        auto problems = check::validate_profile(c.json);
        BOOST_TEST(problems.empty(), log << ": " << (problems.empty() ? "" : problems.front()));
    }
}

BOOST_AUTO_TEST_CASE(tracks_are_capabilities_then_labelled_threads_named_with_their_id) {
    Converted c = convert_to_json(env_dir("EL2FX_FIXTURES") + "/concurrency.eventlog");
    auto d = parse(c.json);
    const auto& threads = d["threads"];
    std::vector<std::string> names;
    for (const auto& t : threads.GetArray()) names.push_back(t["name"].GetString());
    BOOST_REQUIRE(names.size() > 4u);
    BOOST_TEST(names[0] == "concurrency");  // the process's own track
    BOOST_TEST(names[1] == "Capability 0");
    BOOST_TEST(names[2] == "Capability 1");
    BOOST_TEST((std::find(names.begin(), names.end(), "5 main") != names.end()));
    BOOST_TEST(d["meta"]["product"].GetString() == std::string("concurrency"));
    BOOST_TEST(d["meta"]["initialVisibleThreads"].Size() <= 15u);
    // The shared track's samples sit on the 1 ms grid of the virtual timer.
    for (const auto& th : d["threads"].GetArray()) {
        if (std::string(th["name"].GetString()) != "other threads") continue;
        const auto& deltas = th["samples"]["timeDeltas"];
        BOOST_TEST(deltas.Size() > 0u);
        double t = 0;
        for (const auto& delta : deltas.GetArray()) {
            t += delta.GetDouble();
            BOOST_TEST(std::abs(t - std::round(t)) < 1e-9, "sample at " << t << " ms");
        }
    }
    BOOST_TEST(d["meta"]["preprocessedProfileVersion"].GetInt() == 70);
}

BOOST_AUTO_TEST_CASE(same_input_gives_byte_identical_output) {
    TempDir dir;
    std::string a = (dir.path / "a.json.gz").string(), b = (dir.path / "b.json.gz").string();
    convert::convert_eventlog(env_dir("EL2FX_FIXTURES") + "/sparks.eventlog", a, {});
    convert::convert_eventlog(env_dir("EL2FX_FIXTURES") + "/sparks.eventlog", b, {});
    BOOST_TEST(slurp(a) == slurp(b));
    BOOST_TEST(check::validate_profile(fxprof::gunzip(slurp(a))).empty());
}

// Profiles get shared: the environment may hold secrets.
BOOST_AUTO_TEST_CASE(environment_is_written_only_when_asked_for) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker().declare<ProgramEnv>().declare<ProgramArgs>().declare<RunThread>().declare<StopThread>();
    b.begin_block(1, kGlobalCap);
    b.event(2, ProgramArgs{0, StringList{std::string_view("./prog\0--flag", 13)}});
    b.event(3, ProgramEnv{0, StringList{std::string_view("API_TOKEN=hunter2\0HOME=/root", 28)}});
    b.end_block();
    b.begin_block(5, 0).event(10, RunThread{1}).event(20, StopThread{1, 5, 0}).end_block();
    TempDir dir;
    std::string log = (dir.path / "env.eventlog").string();
    std::ofstream(log, std::ios::binary) << b.finish();

    Converted plain = convert_to_json(log);
    BOOST_TEST(plain.json.find("hunter2") == std::string::npos);
    BOOST_TEST(plain.json.find("API_TOKEN") == std::string::npos);
    BOOST_TEST(plain.json.find("--flag") != std::string::npos);  // arguments are kept

    convert::ConvertOptions with_env;
    with_env.include_env = true;
    Converted asked = convert_to_json(log, with_env);
    BOOST_TEST(asked.json.find("hunter2") != std::string::npos);
    BOOST_TEST(check::validate_profile(asked.json).empty());
}

BOOST_AUTO_TEST_CASE(upstream_log_with_environment_keeps_it_out, UPSTREAM_DATA) {
    std::string log = upstream_log("hello-ghc-8.6.5.eventlog");
    BOOST_TEST(convert_to_json(log).json.find("ALLUSERSPROFILE") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(many_short_lived_threads_fold_into_one_track) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker().declare<CreateThread>().declare<RunThread>().declare<StopThread>().declare<ThreadLabel>();
    b.begin_block(1, 0);
    std::uint64_t t = 10;
    const std::uint32_t n = 20000;
    for (std::uint32_t id = 1; id <= n; ++id) {
        b.event(t, CreateThread{id});
        if (id == 77) b.event(t, ThreadLabel{id, Text{"special"}});
        b.event(t + 1, RunThread{id});
        b.event(t + 2 + id % 50, StopThread{id, 5, 0});  // busier threads have larger id % 50
        t += 100;
    }
    b.end_block();
    TempDir dir;
    std::string log = (dir.path / "many.eventlog").string();
    std::ofstream(log, std::ios::binary) << b.finish();

    Converted c = convert_to_json(log);
    BOOST_TEST(check::validate_profile(c.json).empty());
    auto d = parse(c.json);
    std::set<std::string> names;
    for (const auto& th : d["threads"].GetArray()) names.insert(th["name"].GetString());
    // process track + 1 capability + 64 threads + "other threads"
    BOOST_TEST(d["threads"].Size() == 1u + 1u + 64u + 1u);
    BOOST_TEST(names.count("77 special") == 1u);  // labelled threads are kept
    BOOST_TEST(names.count("other threads") == 1u);
    BOOST_TEST(c.report.mapping.folded_threads == n - 64u);
    BOOST_TEST(d["meta"]["initialVisibleThreads"].Size() <= 15u);

    convert::ConvertOptions few;
    few.max_threads = 3;
    BOOST_TEST(parse(convert_to_json(log, few).json)["threads"].Size() == 1u + 1u + 3u + 1u);
}

// Folded threads without their names share their stacks: their samples of one tick and
// stack are one sample of the summed weight, the same call tree as one sample each.
BOOST_AUTO_TEST_CASE(folded_threads_without_names_share_samples_of_one_time_and_stack) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker().declare<CreateThread>().declare<RunThread>().declare<StopThread>();
    // 20,000 threads over 8 ms, each blocked for 2.5 ms of it: hundreds at each tick of the
    // 1 ms timer, in two states.
    struct Step {
        std::uint64_t time;
        std::uint32_t thread;
        int kind;  // 0 created, 1 runs, 2 blocked or yielding, 3 runs again, 4 finished
    };
    std::vector<Step> steps;
    for (std::uint32_t id = 1; id <= 20000; ++id) {
        const std::uint64_t t = 10 + 300 * std::uint64_t{id};
        for (int kind = 0; kind < 5; ++kind)
            steps.push_back({t + (kind < 3 ? kind * 20 : 2'500'000 + kind * 20), id, kind});
    }
    std::stable_sort(steps.begin(), steps.end(), [](const Step& x, const Step& y) { return x.time < y.time; });
    b.begin_block(1, 0);
    for (const Step& s : steps) {
        switch (s.kind) {
            case 0: b.event(s.time, CreateThread{s.thread}); break;
            case 1:
            case 3: b.event(s.time, RunThread{s.thread}); break;
            case 2: b.event(s.time, StopThread{s.thread, s.thread % 3 ? std::uint16_t{4} : std::uint16_t{3}, 0}); break;
            default: b.event(s.time, StopThread{s.thread, 5, 0}); break;
        }
    }
    b.end_block();
    TempDir dir;
    std::string log = (dir.path / "folded.eventlog").string();
    std::ofstream(log, std::ios::binary) << b.finish();

    // The shared track's samples: weight by (time, stack name), and how many there are.
    auto folded = [&](const convert::ConvertOptions& options) {
        Converted c = convert_to_json(log, options);
        BOOST_TEST(check::validate_profile(c.json).empty());
        auto d = parse(c.json);
        std::map<std::pair<double, std::string>, std::int64_t> weights;
        std::size_t samples = 0;
        const auto& shared = d["shared"];
        for (const auto& th : d["threads"].GetArray()) {
            if (std::string(th["name"].GetString()) != "other threads") continue;
            const auto& s = th["samples"];
            double time = 0;
            for (rapidjson::SizeType i = 0; i < s["length"].GetUint(); ++i) {
                time += s["timeDeltas"][i].GetDouble();
                // The leaf frame's name: the stacks of two profiles differ in index, not in name.
                const auto stack = s["stack"][i].GetUint();
                const auto frame = shared["stackTable"]["frame"][stack].GetUint();
                const auto func = shared["frameTable"]["func"][frame].GetUint();
                const std::string name = shared["stringArray"][shared["funcTable"]["name"][func].GetUint()].GetString();
                weights[{std::round(time * 1e6) / 1e6, name}] += s["weight"][i].GetInt64();
                ++samples;
            }
        }
        return std::pair(weights, samples);
    };
    convert::ConvertOptions small;
    small.max_profile_bytes = 400'000;  // too small for 20,000 names
    const auto [merged, merged_count] = folded(small);
    BOOST_TEST(merged_count > 0u);
    BOOST_TEST(merged_count < 200u);  // a few ticks times a few stacks, not 20,000 threads' samples
    std::int64_t total = 0;
    for (const auto& [key, weight] : merged) total += weight;
    BOOST_TEST(total > 0);

    // With their names each thread has stacks of its own: one sample or more each, and the
    // same weight at each time and leaf.
    const auto [named, named_count] = folded({});
    BOOST_TEST(named_count >= 20000u - 64u);  // but those on tracks of their own
    std::map<std::pair<double, std::string>, std::int64_t> leaves;
    for (const auto& [key, weight] : named) leaves[key] += weight;
    BOOST_TEST((leaves == merged));
}

BOOST_AUTO_TEST_CASE(failed_conversion_leaves_no_output_file) {
    TempDir dir;
    std::string bad = (dir.path / "bad.eventlog").string();
    std::ofstream(bad, std::ios::binary) << "not an eventlog at all";
    std::string out = (dir.path / "bad.json.gz").string();
    BOOST_CHECK_THROW(convert::convert_eventlog(bad, out, {}), Error);
    BOOST_TEST(!fs::exists(out));
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++files;
    BOOST_TEST(files == 1u);  // no temporary file left behind either
}

BOOST_AUTO_TEST_CASE(cli_writes_beside_the_input_and_to_stdout) {
    TempDir dir;
    std::string log = (dir.path / "prog.eventlog").string();
    fs::copy_file(env_dir("EL2FX_FIXTURES") + "/userevents.eventlog", log);
    auto r = el2fx::testing::run_binary({log});
    BOOST_TEST(r.status == 0, r.err);
    BOOST_TEST(fs::exists(dir.path / "prog.json.gz"));
    BOOST_TEST(r.out.find("prog.json.gz") != std::string::npos);
    auto to_stdout = el2fx::testing::run_binary({"convert", log, "-o", "-"});
    BOOST_TEST(to_stdout.status == 0);
    BOOST_TEST(to_stdout.out == slurp((dir.path / "prog.json.gz").string()));
}

BOOST_AUTO_TEST_CASE(truncated_log_converts_with_a_warning) {
    auto r = el2fx::testing::run_binary({"convert", env_dir("EL2FX_FIXTURES") + "/killed.eventlog", "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.find("truncated at byte") != std::string::npos);
    BOOST_TEST(check::validate_profile(fxprof::gunzip(r.out)).empty());
    auto strict =
        el2fx::testing::run_binary({"convert", "--strict", env_dir("EL2FX_FIXTURES") + "/killed.eventlog", "-o", "-"});
    BOOST_TEST(strict.status == 3);
}

BOOST_AUTO_TEST_CASE(timings_name_each_phase_on_standard_error) {
    const std::string log = env_dir("EL2FX_FIXTURES") + "/concurrency.eventlog";
    auto r = el2fx::testing::run_binary({"convert", "--timings", log, "-o", "-"});
    BOOST_TEST(r.status == 0, r.err);
    for (const char* phase : {"index ", "census ", "events ", "write ", "total "})
        BOOST_TEST(r.err.find(phase) != std::string::npos, phase << " in: " << r.err);
    // Both passes with their two threads' CPU time: which one bounds the pass.
    const auto at = [&](const std::string& s) { return r.err.find(s); };
    BOOST_TEST(at("census ") < at("(CPU: reader "), r.err);
    BOOST_TEST(at("events ") < r.err.find("(CPU: reader ", at("events ")), r.err);
    BOOST_TEST(r.err.find("analyses ", at("events ")) != std::string::npos, r.err);
    BOOST_TEST(check::validate_profile(fxprof::gunzip(r.out)).empty());  // the profile untouched
    // Where the census came from (run/block_census.hpp): this log's blocks tell it; a log with
    // time-profile ticks needs the census pass, and says why.
    BOOST_TEST(r.err.find("; from the blocks)") != std::string::npos, r.err);
    auto ticks = el2fx::testing::run_binary(
        {"convert", "--timings", env_dir("EL2FX_FIXTURES") + "/profiled.eventlog", "-o", "-"});
    BOOST_TEST(ticks.status == 0, ticks.err);
    BOOST_TEST(ticks.err.find("; a pass, as the blocks cannot tell it: time-profile ticks)") != std::string::npos,
               ticks.err);
    BOOST_TEST(ticks.err.find("from the blocks") == std::string::npos, ticks.err);
    auto two = el2fx::testing::run_binary({"convert", "--timings", log, log, "-o", "-"});
    BOOST_TEST(two.status == 0, two.err);
    BOOST_TEST(two.err.find("profile written in") != std::string::npos, two.err);
    auto quiet = el2fx::testing::run_binary({"convert", log, "-o", "-"});
    BOOST_TEST(quiet.err.find("census") == std::string::npos);  // only when asked for
}

// Level of detail (span_detail.hpp): a second of 100 µs collections every 200 µs, and three
// long ones. By default (resolution = the 1 ms interval) each capability keeps the long pauses
// as markers and merges the short ones; --marker-resolution 0 keeps them all.
BOOST_AUTO_TEST_CASE(short_spans_merge_into_counted_markers_unless_asked_for_all) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker().declare<StartGC>().declare<EndGC>();
    b.begin_block(1, 0);
    std::uint64_t t = 1000;
    std::uint64_t shorts = 0, longs = 0;
    for (int i = 0; i < 5000; ++i) {
        const bool is_long = i % 2000 == 1000;
        b.event(t, StartGC{});
        b.event(t + (is_long ? 3'000'000 : 100'000), EndGC{});
        t += is_long ? 3'200'000 : 200'000;
        (is_long ? longs : shorts) += 1;
    }
    b.end_block();
    TempDir dir;
    std::string log = (dir.path / "gcs.eventlog").string();
    std::ofstream(log, std::ios::binary) << b.finish();

    auto count_pauses = [](const std::string& json, std::uint64_t& merged_spans, std::uint64_t& kept) {
        auto d = parse(json);
        const auto& strings = d["shared"]["stringArray"];
        merged_spans = 0, kept = 0;
        for (const auto& th : d["threads"].GetArray()) {
            const auto& m = th["markers"];
            for (rapidjson::SizeType i = 0; i < m["length"].GetUint(); ++i) {
                if (std::string(strings[m["name"][i].GetUint()].GetString()) != "GC pause") continue;
                const auto& data = m["data"][i];
                if (std::string(data["type"].GetString()) == "MergedSpans")
                    merged_spans += data["count"].GetUint64();
                else
                    ++kept;
            }
        }
    };
    Converted c = convert_to_json(log);
    BOOST_TEST(check::validate_profile(c.json).empty());
    std::uint64_t merged = 0, kept = 0;
    count_pauses(c.json, merged, kept);
    BOOST_TEST(kept + merged == shorts + longs);
    BOOST_TEST(kept >= longs);
    BOOST_TEST(kept < longs + 10);  // short pauses kept alone only beside a long one

    convert::ConvertOptions all;
    all.marker_resolution_ns = 0;
    Converted every = convert_to_json(log, all);
    BOOST_TEST(check::validate_profile(every.json).empty());
    count_pauses(every.json, merged, kept);
    BOOST_TEST(merged == 0u);
    BOOST_TEST(kept == shorts + longs);
}

namespace {

// Each capability track's CPU time (the sum of its samples' CPU deltas), by track name.
std::map<std::string, double> capability_cpu(const rapidjson::Document& d) {
    std::map<std::string, double> cpu;
    for (const auto& t : d["threads"].GetArray()) {
        const std::string name = t["name"].GetString();
        if (name.rfind("Capability", 0) != 0 || !t["samples"].HasMember("threadCPUDelta")) continue;
        double sum = 0;
        for (const auto& v : t["samples"]["threadCPUDelta"].GetArray())
            if (v.IsNumber()) sum += v.GetDouble();
        cpu[name] = sum;
    }
    return cpu;
}

std::string profile_info(const rapidjson::Document& d, const std::string& label) {
    for (const auto& section : d["meta"]["extra"].GetArray())
        for (const auto& e : section["entries"].GetArray())
            if (label == e["label"].GetString() && e["value"].IsString()) return e["value"].GetString();
    return {};
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_output_budget_coarsens_the_detail_keeps_totals_and_says_so) {
    const std::string log = env_dir("EL2FX_FIXTURES") + "/gc-n4.eventlog";
    convert::ConvertOptions unlimited;
    unlimited.max_profile_bytes = 0;
    const Converted full = convert_to_json(log, unlimited);
    BOOST_TEST(!full.report.detail.coarsened);
    convert::ConvertOptions limited;
    limited.max_profile_bytes = full.json.size() / 3;
    const Converted small = convert_to_json(log, limited);
    BOOST_TEST(small.report.detail.coarsened);
    BOOST_TEST(!small.report.detail.over_budget);
    BOOST_TEST(small.json.size() <= limited.max_profile_bytes);
    BOOST_TEST(small.json.size() < full.json.size());
    const rapidjson::Document a = parse(full.json), b = parse(small.json);
    BOOST_TEST(check::validate_profile(small.json).empty());
    // Totals stay exact: the CPU time of every capability.
    const auto cpu_full = capability_cpu(a), cpu_small = capability_cpu(b);
    BOOST_TEST(cpu_full.size() == 4u);
    for (const auto& [name, cpu] : cpu_full) BOOST_TEST(cpu_small.at(name) == cpu);
    // Profile Info says what was coarsened, and the profile holds that detail.
    const std::string said = profile_info(b, "Output budget");
    BOOST_TEST(said.find("so ") != std::string::npos, said);
    BOOST_TEST(said.find(convert::describe_coarsening(small.report.detail, small.report.wanted_detail)) !=
               std::string::npos);
    BOOST_TEST(b["meta"]["interval"].GetDouble() * 1e6 ==
               static_cast<double>(small.report.detail.detail.sampling_interval_ns));
}

BOOST_AUTO_TEST_CASE(options_the_user_set_are_kept_under_a_budget) {
    const std::string log = env_dir("EL2FX_FIXTURES") + "/gc-n4.eventlog";
    convert::ConvertOptions o;
    o.max_profile_bytes = 100'000;
    o.sampling_interval_ns = 200'000;
    o.sampling_interval_fixed = true;
    o.marker_resolution_ns = 0;
    o.all_threads = true;
    const Converted c = convert_to_json(log, o);
    BOOST_TEST(c.report.detail.over_budget);
    BOOST_TEST(c.report.detail.detail.sampling_interval_ns == 200'000u);
    BOOST_TEST(c.report.detail.detail.spans.resolution == 0u);
    BOOST_TEST(profile_info(parse(c.json), "Output budget").find("still over") != std::string::npos);
}
