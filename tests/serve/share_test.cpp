// Safe to share, and several runs in one profile: redaction is searched for in the written
// JSON; a two-run profile validates, has a process per run, each starting at 0.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>
#include <unistd.h>

#include "check/profile_check.hpp"
#include "convert/converter.hpp"
#include "redaction/event_rewriter.hpp"
#include "eventlog_builder.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/rapidjson.hpp"
#include "run_process.hpp"
#include "temp_file.hpp"

using el2fx::testing::slurp;
using el2fx::testing::TempDir;

namespace fs = std::filesystem;
using namespace el2fx;
using el2fx::testing::env_dir;
using el2fx::testing::EventlogBuilder;

namespace {

rapidjson::Document parse(const std::string& json) {
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    BOOST_REQUIRE(!d.HasParseError());
    return d;
}

// A run whose arguments, environment, thread label, messages and cost centre hold paths
// and secrets.
// The event types of the eventlogs below: every kind of text a profile takes from a log.
EventlogBuilder with_text_event_types() {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<RtsIdentifier>()
        .declare<ProgramArgs>()
        .declare<ProgramEnv>()
        .declare<ProgramInvocation>()
        .declare<CreateThread>()
        .declare<RunThread>()
        .declare<StopThread>()
        .declare<ThreadLabel>()
        .declare<UserMessage>()
        .declare<UserMarker>()
        .declare<HeapProfCostCentre>();
    return b;
}

std::string private_eventlog(const fs::path& dir) {
    using namespace eventlog;
    EventlogBuilder b = with_text_event_types();
    b.begin_block(1, kGlobalCap);
    b.event(2, ProgramArgs{0, StringList{std::string_view(
                                  "/home/alice/bin/prog\0--token=s3cret\0/home/alice/data/input.csv", 62)}});
    b.event(3, ProgramEnv{0, StringList{std::string_view("API_TOKEN=hunter2\0HOME=/home/alice", 34)}});
    b.event(3, ProgramInvocation{Text{"/home/alice/bin/prog --token=s3cret"}});
    b.event(4, HeapProfCostCentre{1, CString{"work"}, CString{"Main"}, CString{"/home/alice/src/Main.hs:12:3-20"}, 0});
    b.end_block();
    b.begin_block(5, 0);
    b.event(10, CreateThread{1});
    b.event(11, ThreadLabel{1, Text{"reader of /home/alice/data/input.csv"}});
    b.event(12, RunThread{1});
    b.event(13, UserMessage{Text{"opened /home/alice/data/input.csv"}});
    b.event(14, UserMarker{Text{"load (C:\\Users\\alice\\input.csv)"}});
    b.event(2'000'000, StopThread{1, 5, 0});
    b.end_block();
    fs::path log = dir / "private.eventlog";
    std::ofstream(log, std::ios::binary) << b.finish();
    return log.string();
}

std::string json_of(const std::string& log, convert::ConvertOptions options) {
    convert::ConversionReport report;
    return fxprof::profile_to_json(convert::build_profile(log, options, report));
}

// Per process (pid): the earliest time anything of it starts.
std::map<std::string, double> process_starts(const rapidjson::Document& d) {
    std::map<std::string, double> starts;
    for (const auto& t : d["threads"].GetArray()) {
        std::string pid = t["pid"].GetString();
        double start = t["processStartupTime"].GetDouble();
        start = std::min(start, t["registerTime"].GetDouble());
        const auto& times = t["samples"].HasMember("time") ? t["samples"]["time"] : t["samples"]["timeDeltas"];
        if (t["samples"].HasMember("time") && times.Size()) start = std::min(start, times[0].GetDouble());
        for (const auto& m : t["markers"]["startTime"].GetArray())
            if (m.IsNumber()) start = std::min(start, m.GetDouble());
        auto it = starts.find(pid);
        starts[pid] = it == starts.end() ? start : std::min(it->second, start);
    }
    return starts;
}

}  // namespace

// reduce_paths string by string: path_redaction_test.cpp.

BOOST_AUTO_TEST_CASE(by_default_arguments_stay_and_the_environment_does_not) {
    TempDir dir;
    std::string json = json_of(private_eventlog(dir.path), {});
    BOOST_TEST(json.find("hunter2") == std::string::npos);
    BOOST_TEST(json.find("API_TOKEN") == std::string::npos);
    BOOST_TEST(json.find("--token=s3cret") != std::string::npos);
    BOOST_TEST(json.find("/home/alice/data/input.csv") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(redact_args_replaces_every_argument_but_argv0s_file_name) {
    TempDir dir;
    convert::ConvertOptions options;
    options.redact_args = true;
    std::string json = json_of(private_eventlog(dir.path), options);
    BOOST_TEST(check::validate_profile(json).empty());
    BOOST_TEST(json.find("s3cret") == std::string::npos);
    BOOST_TEST(json.find("--token") == std::string::npos);
    BOOST_TEST(json.find("/home/alice/bin") == std::string::npos);  // argv[0]'s directory
    BOOST_TEST(json.find("[redacted]") != std::string::npos);
    auto d = parse(json);
    BOOST_TEST(d["meta"]["arguments"].GetString() == std::string("prog [redacted]"));
    bool extra_entry = false, program_entry = false;
    for (const auto& section : d["meta"]["extra"].GetArray())
        for (const auto& entry : section["entries"].GetArray()) {
            if (entry["label"].GetString() == std::string("Arguments"))
                extra_entry = entry["value"].GetString() == std::string("prog [redacted]");
            if (entry["label"].GetString() == std::string("Program"))
                program_entry = entry["value"].GetString() == std::string("prog");
        }
    BOOST_TEST(extra_entry);
    BOOST_TEST(program_entry);
}

BOOST_AUTO_TEST_CASE(redact_paths_leaves_no_directory_anywhere) {
    TempDir dir;
    convert::ConvertOptions options;
    options.redact_paths = true;
    options.include_env = true;  // even the environment, when included, loses its paths
    options.input_name = "/home/alice/logs/private.eventlog";
    std::string json = json_of(private_eventlog(dir.path), options);
    BOOST_TEST(check::validate_profile(json).empty());
    BOOST_TEST(json.find("/home") == std::string::npos, json.substr(0, 2000));
    BOOST_TEST(json.find("alice/") == std::string::npos);
    BOOST_TEST(json.find("Users") == std::string::npos);
    BOOST_TEST(json.find("HOME=alice") == std::string::npos);                // the environment's own entries:
    BOOST_TEST(json.find("\"alice\"") != std::string::npos);                 // HOME's value is its last component
    BOOST_TEST(json.find("--token=s3cret input.csv") != std::string::npos);  // arguments stay, paths go
    BOOST_TEST(json.find("1 reader of input.csv") != std::string::npos);     // the thread's track
}

BOOST_AUTO_TEST_CASE(the_cli_redacts_into_the_written_file) {
    TempDir dir;
    std::string log = private_eventlog(dir.path);
    fs::path out = dir.path / "shared.json.gz";
    auto r = el2fx::testing::run_binary({log, "--redact-args", "--redact-paths", "--include-env", "-o", out.string()});
    BOOST_REQUIRE(r.status == 0);
    std::string json = fxprof::gunzip(slurp(out));
    for (const char* secret : {"s3cret", "alice/", "/home", "--token", "Users"})
        BOOST_TEST(json.find(secret) == std::string::npos, secret);
    BOOST_TEST(json.find("hunter2") != std::string::npos);  // --include-env was asked for
    BOOST_TEST(check::validate_profile(json).empty());
}

BOOST_AUTO_TEST_CASE(two_runs_make_two_processes_each_starting_at_zero) {
    std::string a = env_dir("EL2FX_FIXTURES") + "/concurrency.eventlog";
    std::string b = env_dir("EL2FX_FIXTURES") + "/sparks.eventlog";
    std::vector<convert::ConversionReport> reports;
    fxprof::Profile profile = convert::build_profile({{a, "before"}, {b, "after"}}, {}, reports);
    std::string json = fxprof::profile_to_json(profile);
    auto problems = check::validate_profile(json);
    BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
    BOOST_REQUIRE(reports.size() == 2u);
    auto d = parse(json);
    std::map<std::string, std::string> names;  // pid → process name, the runs' (not the comparison's)
    for (const auto& t : d["threads"].GetArray())
        if (std::string(t["pid"].GetString()) != "compared") names[t["pid"].GetString()] = t["processName"].GetString();
    BOOST_REQUIRE(names.size() == 2u);
    std::set<std::string> process_names;
    for (const auto& [pid, name] : names) process_names.insert(name);
    BOOST_TEST((process_names == std::set<std::string>{"before", "after"}));
    BOOST_TEST(d["threads"][0]["name"].GetString() == std::string("before"));  // runs in order
    for (const auto& [pid, start] : process_starts(d)) BOOST_TEST(start == 0.0, pid << " starts at " << start);
    BOOST_TEST(d["meta"]["profilingStartTime"].GetDouble() == 0.0);
    BOOST_TEST(d["meta"]["product"].GetString() == std::string("before vs after"));

    // meta.startTime is the first run's: its wall clock at its first event.
    convert::ConversionReport single;
    auto alone = parse(fxprof::profile_to_json(convert::build_profile(a, {}, single)));
    double first_event_ms = static_cast<double>(single.run.first_time) / 1e6;
    BOOST_TEST(d["meta"]["startTime"].GetDouble() == alone["meta"]["startTime"].GetDouble() + first_event_ms,
               boost::test_tools::tolerance(1e-9));
    // Thread and capability numbering stays per run.
    std::set<std::string> caps;
    for (const auto& t : d["threads"].GetArray())
        if (std::string(t["name"].GetString()) == "Capability 0") caps.insert(t["pid"].GetString());
    BOOST_TEST(caps.size() == 2u);
}

BOOST_AUTO_TEST_CASE(the_same_program_twice_shares_every_function_and_gets_distinct_pids) {
    std::string a = env_dir("EL2FX_FIXTURES") + "/concurrency.eventlog";
    std::vector<convert::ConversionReport> reports;
    auto twice = parse(fxprof::profile_to_json(convert::build_profile({{a, {}}, {a, {}}}, {}, reports)));
    convert::ConversionReport single;
    auto once = parse(fxprof::profile_to_json(convert::build_profile(a, {}, single)));
    // Same names, resources and files: the compare view and a selection of both runs match them
    // (the comparison of the runs adds one string of its own: its chart's marker name).
    std::set<std::string> twice_strings;
    for (const auto& s : twice["shared"]["stringArray"].GetArray()) twice_strings.insert(s.GetString());
    BOOST_TEST(twice_strings.count("Heap, runs on one scale") == 1u);
    BOOST_TEST(twice["shared"]["stringArray"].Size() == once["shared"]["stringArray"].Size() + 1);
    // Every function once, whichever run it came from (thread names included, folded or not).
    auto functions_are_shared = [](const rapidjson::Document& d) {
        const auto& names = d["shared"]["funcTable"]["name"];
        std::multiset<std::string> seen;
        for (const auto& n : names.GetArray()) seen.insert(d["shared"]["stringArray"][n.GetUint()].GetString());
        for (const std::string& name : seen)
            if (seen.count(name) > 1) return "twice: " + name;
        return std::string();
    };
    BOOST_TEST(functions_are_shared(twice) == "");
    convert::ConvertOptions folding;
    folding.max_threads = 1;
    BOOST_TEST(functions_are_shared(
                   parse(fxprof::profile_to_json(convert::build_profile({{a, {}}, {a, {}}}, folding, reports)))) == "");
    std::set<std::string> pids, process_names;
    for (const auto& t : twice["threads"].GetArray()) {
        if (std::string(t["pid"].GetString()) == "compared") continue;  // the runs' comparison
        pids.insert(t["pid"].GetString());
        process_names.insert(t["processName"].GetString());
    }
    BOOST_TEST(
        (pids == std::set<std::string>{std::to_string(*single.run.pid), std::to_string(*single.run.pid) + ".1"}));
    BOOST_TEST((process_names == std::set<std::string>{"concurrency", "concurrency (2)"}));
}

BOOST_AUTO_TEST_CASE(the_cli_compares_runs) {
    TempDir dir;
    fs::copy_file(env_dir("EL2FX_FIXTURES") + "/sparks.eventlog", dir.path / "a.eventlog");
    fs::copy_file(env_dir("EL2FX_FIXTURES") + "/userevents.eventlog", dir.path / "b.eventlog");
    auto r = el2fx::testing::run_binary({(dir.path / "a.eventlog").string(), (dir.path / "b.eventlog").string()});
    BOOST_TEST(r.status == 0, r.err);
    fs::path out = dir.path / "a-vs-b.json.gz";
    BOOST_REQUIRE(fs::exists(out));
    auto d = parse(fxprof::gunzip(slurp(out)));
    std::set<std::string> names;
    for (const auto& t : d["threads"].GetArray()) names.insert(t["processName"].GetString());
    BOOST_TEST((names == std::set<std::string>{"a", "b", "Runs compared"}));
    BOOST_TEST(check::validate_profile_file(out.string()).empty());

    auto named = el2fx::testing::run_binary({(dir.path / "a.eventlog").string(), (dir.path / "b.eventlog").string(),
                                             "--names", "before,after", "-o", (dir.path / "both.json.gz").string()});
    BOOST_TEST(named.status == 0, named.err);
    BOOST_TEST(fxprof::gunzip(slurp(dir.path / "both.json.gz")).find("\"processName\":\"after\"") != std::string::npos);
    auto wrong = el2fx::testing::run_binary(
        {(dir.path / "a.eventlog").string(), (dir.path / "b.eventlog").string(), "--names", "only-one"});
    BOOST_TEST(wrong.status == 2);
}

// ---- Times of a run in a several-run profile ----------------------------------------

namespace {

template <typename T>
eventlog::Event event_at(std::uint64_t time, T payload) {
    eventlog::Event e;
    e.time = time;
    e.tag = T::tag;
    e.payload = std::move(payload);
    return e;
}

// A heap profile by biography (-hb): its censuses are written when the program ends, each
// with the time it belongs at in its payload. The run's first event is at 1 ms.
std::string biographical_eventlog(const fs::path& dir) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<HeapProfBegin>()
        .declare<HeapBioProfSampleBegin>()
        .declare<HeapProfSampleString>()
        .declare<HeapProfSampleEnd>();
    b.begin_block(1'000'000, kGlobalCap);
    b.event(1'000'000, HeapProfBegin{0, 1'000'000, 6, {}, {}, {}, {}, {}, {}, {}});
    b.event(9'000'000, HeapBioProfSampleBegin{1, 3'000'000});  // belongs at 3 ms
    b.event(9'000'001, HeapProfSampleString{0, 4096, CString{"LAG"}});
    b.event(9'000'002, HeapProfSampleEnd{1});
    b.event(9'000'003, HeapBioProfSampleBegin{2, 5'500'000});  // belongs at 5.5 ms
    b.event(9'000'004, HeapProfSampleString{0, 8192, CString{"VOID"}});
    b.event(9'000'005, HeapProfSampleEnd{2});
    b.end_block();
    fs::path log = dir / "bio.eventlog";
    std::ofstream(log, std::ios::binary) << b.finish();
    return log.string();
}

// The start times (ms) of the markers called `name` on the tracks of process `process`.
std::vector<double> marker_times(const rapidjson::Document& d, const std::string& process, const std::string& name) {
    std::vector<double> times;
    const auto& strings = d["shared"]["stringArray"];
    for (const auto& t : d["threads"].GetArray()) {
        if (t["processName"].GetString() != process) continue;
        const auto& m = t["markers"];
        for (rapidjson::SizeType i = 0; i < m["name"].Size(); ++i)
            if (strings[m["name"][i].GetUint()].GetString() == name) times.push_back(m["startTime"][i].GetDouble());
    }
    std::sort(times.begin(), times.end());
    return times;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_shift_moves_every_time_on_the_event_clock_and_no_wall_clock) {
    using namespace eventlog;
    redaction::EventRewriter rewriter({.shift_to_zero = true});
    Event first = rewriter.apply(event_at(1'000'000, BlockMarker{100, 9'000'000, 0}));
    BOOST_TEST(rewriter.shift() == 1'000'000u);
    BOOST_TEST(first.time == 0u);
    BOOST_TEST(first.as<BlockMarker>()->end_time == 8'000'000u);
    // A biographical census: the event is written at the end, its own time places it.
    Event bio = rewriter.apply(event_at(9'500'000, HeapBioProfSampleBegin{4, 3'500'000}));
    BOOST_TEST(bio.time == 8'500'000u);
    BOOST_REQUIRE(bio.as<HeapBioProfSampleBegin>());
    BOOST_TEST(bio.as<HeapBioProfSampleBegin>()->time == 2'500'000u);
    BOOST_TEST(bio.as<HeapBioProfSampleBegin>()->era == 4u);
    // Before the first event (cannot be placed earlier than the run's start): 0.
    Event early = rewriter.apply(event_at(9'600'000, HeapBioProfSampleBegin{5, 10}));
    BOOST_TEST(early.as<HeapBioProfSampleBegin>()->time == 0u);
    // Wall-clock times are not on the event clock: they stay.
    Event wall = rewriter.apply(event_at(1'200'000, WallClockTime{0, 1'700'000'000, 5}));
    BOOST_TEST(wall.time == 200'000u);
    BOOST_TEST(wall.as<WallClockTime>()->sec == 1'700'000'000u);
    BOOST_TEST(wall.as<WallClockTime>()->nsec == 5u);
    Event machine = rewriter.apply(event_at(1'300'000, CreateMachine{2, 143'714'457'434'916'300}));
    BOOST_TEST(machine.as<CreateMachine>()->realtime == 143'714'457'434'916'300u);

    // One run alone is not shifted: the event itself comes back.
    redaction::EventRewriter identity({});
    Event in = event_at(9'500'000, HeapBioProfSampleBegin{4, 3'500'000});
    BOOST_TEST(&identity.apply(in) == &in);
}

BOOST_AUTO_TEST_CASE(a_later_runs_biographical_censuses_are_at_their_time_from_its_start) {
    TempDir dir;
    std::string bio = biographical_eventlog(dir.path);
    const std::string census = "Heap census (biographical)";
    convert::ConversionReport single;
    auto alone = parse(fxprof::profile_to_json(convert::build_profile(bio, {}, single)));
    BOOST_TEST(single.run.first_time == 1'000'000u);
    // Alone: times since the runtime started.
    BOOST_TEST(
        (marker_times(alone, alone["threads"][0]["processName"].GetString(), census) == std::vector<double>{3.0, 5.5}));

    // With another run before it: since its own first event, like every other time of the run.
    std::string a = env_dir("EL2FX_FIXTURES") + "/userevents.eventlog";
    std::vector<convert::ConversionReport> reports;
    std::string json = fxprof::profile_to_json(convert::build_profile({{a, "first"}, {bio, "bio"}}, {}, reports));
    BOOST_TEST(check::validate_profile(json).empty());
    auto both = parse(json);
    BOOST_TEST((marker_times(both, "bio", census) == std::vector<double>{2.0, 4.5}));
    BOOST_TEST(marker_times(both, "first", census).empty());
}

// ---- --stats with several runs -----------------------------------------------------

BOOST_AUTO_TEST_CASE(stats_list_every_runs_event_types_in_order) {
    TempDir dir;
    std::string a = env_dir("EL2FX_FIXTURES") + "/userevents.eventlog";
    std::string b = env_dir("EL2FX_FIXTURES") + "/sparks.eventlog";
    const std::string table_head = "Event types in the eventlog and where the profile shows them:";
    auto table_of = [&](const std::string& log) {
        auto r = el2fx::testing::run_binary({log, "--stats", "-q", "-o", (dir.path / "one.json.gz").string()});
        BOOST_REQUIRE(r.status == 0);
        BOOST_REQUIRE(r.out.find(table_head) == 0u);
        return r.out;
    };
    std::string table_a = table_of(a), table_b = table_of(b);

    auto r = el2fx::testing::run_binary(
        {a, b, "--names", "before,after", "--stats", "-o", (dir.path / "both.json.gz").string()});
    BOOST_REQUIRE(r.status == 0);
    BOOST_TEST(r.out.find("2 runs side by side") != std::string::npos, r.out);
    std::string run1 = "Run 1 of 2: before, " + a + "\n", run2 = "\nRun 2 of 2: after, " + b + "\n";
    std::size_t at1 = r.out.find(run1), at2 = r.out.find(run2);
    BOOST_REQUIRE(at1 != std::string::npos);
    BOOST_REQUIRE(at2 != std::string::npos);
    BOOST_REQUIRE(at1 < at2);
    // Each run's table is the one its eventlog alone gets.
    BOOST_TEST(r.out.substr(at1 + run1.size(), at2 - at1 - run1.size()) == table_a);
    BOOST_TEST(r.out.substr(at2 + run2.size()) == table_b);
    BOOST_TEST(table_a.find("USER_MSG") != std::string::npos);
    BOOST_TEST(table_b.find("SPARK_CREATE") != std::string::npos);

    // Unnamed runs; the profile on standard output: the tables go to standard error.
    auto piped = el2fx::testing::run_binary({a, b, "--stats", "-o", "-"});
    BOOST_REQUIRE(piped.status == 0);
    BOOST_TEST(piped.err.find("Run 1 of 2: " + a + "\n" + table_a) != std::string::npos, piped.err);
    BOOST_TEST(piped.err.find("\nRun 2 of 2: " + b + "\n" + table_b) != std::string::npos);
    BOOST_TEST(piped.out.find(table_head) == std::string::npos);
    BOOST_TEST(check::validate_profile(fxprof::gunzip(piped.out)).empty());

    // Without --stats: no table.
    auto quiet = el2fx::testing::run_binary({a, b, "-o", (dir.path / "both.json.gz").string()});
    BOOST_TEST(quiet.out.find(table_head) == std::string::npos);
    BOOST_TEST(quiet.err.find(table_head) == std::string::npos);
}

// ---- Nothing private in the written file ---------------------------------------------

BOOST_AUTO_TEST_CASE(the_written_file_holds_no_environment_without_include_env) {
    TempDir dir;
    std::string log = private_eventlog(dir.path);
    fs::path out = dir.path / "out.json.gz";
    const std::vector<std::vector<std::string>> option_sets = {
        {}, {"--redact-args"}, {"--redact-paths"}, {"--redact-args", "--redact-paths"}, {"--stats"}};
    for (const auto& options : option_sets) {
        for (bool two_runs : {false, true}) {
            std::vector<std::string> args = {log};
            if (two_runs) args.push_back(log);
            args.insert(args.end(), options.begin(), options.end());
            args.insert(args.end(), {"-o", out.string()});
            auto r = el2fx::testing::run_binary(args);
            BOOST_REQUIRE(r.status == 0);
            std::string json = fxprof::gunzip(slurp(out));
            std::string what = (two_runs ? "two runs," : "one run,") + [&] {
                std::string s;
                for (const auto& o : options) s += " " + o;
                return s;
            }();
            for (const char* env : {"hunter2", "API_TOKEN", "HOME=", "Environment"})
                BOOST_TEST(json.find(env) == std::string::npos, what << ": " << env);
            BOOST_TEST(r.out.find("hunter2") == std::string::npos, what);
            BOOST_TEST(check::validate_profile(json).empty(), what);
        }
    }
    // The control: asked for, the environment is there.
    auto r = el2fx::testing::run_binary({log, "--include-env", "-o", out.string()});
    BOOST_REQUIRE(r.status == 0);
    std::string json = fxprof::gunzip(slurp(out));
    BOOST_TEST(json.find("API_TOKEN") != std::string::npos);
    BOOST_TEST(json.find("hunter2") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(several_runs_are_redacted_too) {
    TempDir dir;
    std::string log = private_eventlog(dir.path);
    fs::path out = dir.path / "both.json.gz";
    auto r = el2fx::testing::run_binary(
        {log, log, "--names", "mine,yours", "--redact-args", "--redact-paths", "-o", out.string()});
    BOOST_REQUIRE(r.status == 0);
    std::string json = fxprof::gunzip(slurp(out));
    BOOST_TEST(check::validate_profile(json).empty());
    for (const char* secret :
         {"s3cret", "--token", "/home", "alice/", "Users", "input.csv\\u0000", "hunter2", "API_TOKEN"})
        BOOST_TEST(json.find(secret) == std::string::npos, secret);
    BOOST_TEST(json.find(dir.path.string()) == std::string::npos);  // not even the eventlog's own path
    auto d = parse(json);
    BOOST_TEST(d["meta"]["arguments"].GetString() == std::string("mine: prog [redacted]; yours: prog [redacted]"));
    // Each run's "GHC run" section says the arguments redacted.
    int redacted_sections = 0;
    for (const auto& section : d["meta"]["extra"].GetArray())
        for (const auto& entry : section["entries"].GetArray())
            if (entry["label"].GetString() == std::string("Arguments"))
                redacted_sections += entry["value"].GetString() == std::string("prog [redacted]");
    BOOST_TEST(redacted_sections == 2);
    BOOST_TEST(json.find("1 reader of input.csv") != std::string::npos);  // thread tracks: paths reduced
}

// ---- No absolute path in a profile written with --redact-paths ------------------------

namespace {

// Texts that hide paths in every way found so far; each names the directory "ann".
const std::vector<std::string> kHostileTexts = {"/home/ann/src/Main.hs:12:3-20",
                                                "-ol/home/ann/out.eventlog",
                                                "-po/home/ann/prof/prog",
                                                "-S/home/ann/s.txt",
                                                "-hi/home/ann/x",
                                                "x|/home/ann/f",
                                                "a&/home/ann/f",
                                                "u@/home/ann/f",
                                                "$/home/ann/f",
                                                "*/home/ann/f",
                                                "!/home/ann/f",
                                                "#/home/ann/f",
                                                "+/home/ann/f",
                                                "?/home/ann/f",
                                                "../../home/ann/f",
                                                "%2Fhome%2Fann%2Ff",
                                                "%252Fhome%252Fann%252Ff",
                                                "C:\\Users\\ann\\f.txt",
                                                "\\\\server\\ann\\f.txt",
                                                "file:///home/ann/f",
                                                "--out=/home/ann/f",
                                                "PATH=/usr/bin:/home/ann/bin",
                                                "ann@host:/home/ann/f",
                                                "/home/ann/a:b/ann/f",
                                                "(/home/ann/f)",
                                                "~/ann/f",
                                                "~ann/x/f"};

std::string hostile_eventlog(const fs::path& dir) {
    using namespace eventlog;
    EventlogBuilder b = with_text_event_types();
    std::string list = "/home/ann/bin/prog";
    for (const std::string& text : kHostileTexts) list += '\0' + text;
    std::string env = "HOME=/home/ann";
    for (const std::string& text : kHostileTexts) env += std::string("\0V=", 3) + text;
    std::string line;
    for (const std::string& text : kHostileTexts) line += (line.empty() ? "" : " ") + text;
    b.begin_block(1, kGlobalCap);
    b.event(2, RtsIdentifier{0, Text{"GHC-9.0.2 rts_thr " + kHostileTexts[1]}});
    b.event(2, ProgramArgs{0, StringList{list}});
    b.event(3, ProgramEnv{0, StringList{env}});
    b.event(3, ProgramInvocation{Text{line}});
    std::uint32_t cc = 1;
    for (const std::string& text : kHostileTexts)
        b.event(4, HeapProfCostCentre{cc++, CString{text}, CString{text}, CString{text}, 0});
    b.end_block();
    b.begin_block(5, 0);
    std::uint64_t t = 10;
    std::uint32_t thread = 1;
    for (const std::string& text : kHostileTexts) {
        b.event(t++, CreateThread{thread});
        b.event(t++, ThreadLabel{thread, Text{text}});
        b.event(t++, RunThread{thread});
        b.event(t++, UserMessage{Text{text}});
        b.event(t++, UserMarker{Text{text}});
        b.event(t += 1000, StopThread{thread, 5, 0});
        ++thread;
    }
    b.end_block();
    fs::path log = dir / "hostile.eventlog";
    std::ofstream(log, std::ios::binary) << b.finish();
    return log.string();
}

std::string percent_decoded(std::string s) {
    for (int level = 0; level < 3; ++level) {
        std::string out;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
                out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
                i += 2;
            } else {
                out += s[i];
            }
        }
        s = out;
    }
    return s;
}

// The absolute path in `text` (decoded), if any: a slash or backslash, not after a letter,
// digit or slash, followed by two components; an option's path (-ol/a/b); a climbing
// relative path; a drive letter. URLs other than file: ones are no paths.
std::string absolute_path_in(const std::string& text) {
    static const std::regex url(R"([A-Za-z][A-Za-z0-9+.-]*://\S*)", std::regex::icase);
    static const std::regex path(
        R"(((^|[^A-Za-z0-9_.\-/\\])[/\\]+[^/\\\s:]+[/\\]+[^/\\\s:]+)|(~[^/\s]*/[^/\s])|)"
        R"(((^|\s)--?[A-Za-z]+[/\\][^/\\\s]+[/\\])|(\.\.[/\\][^/\\\s]+)|([A-Za-z]:[/\\][^/\\\s]))");
    std::string decoded = percent_decoded(text);
    std::string without_urls;
    std::regex_replace(std::back_inserter(without_urls), decoded.begin(), decoded.end(), url, "");
    if (decoded.find("file:") != std::string::npos) without_urls = decoded;
    std::smatch m;
    return std::regex_search(without_urls, m, path) ? m.str() : std::string();
}

void collect_strings(const rapidjson::Value& v, std::vector<std::string>& out) {
    if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
    if (v.IsArray())
        for (const auto& e : v.GetArray()) collect_strings(e, out);
    if (v.IsObject())
        for (const auto& m : v.GetObject()) {
            out.emplace_back(m.name.GetString(), m.name.GetStringLength());
            collect_strings(m.value, out);
        }
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_path_detector_finds_what_it_must) {
    for (const std::string& text : kHostileTexts) BOOST_TEST(!absolute_path_in(text).empty(), text);
    for (const char* text : {"src/Main.hs", "https://example.org/a/b", "a/b", "1/2", "Main.hs:12:3", "x /= y"})
        BOOST_TEST(absolute_path_in(text).empty(), text);
}

BOOST_AUTO_TEST_CASE(redact_paths_writes_no_absolute_path_anywhere) {
    TempDir dir;
    const std::string log = hostile_eventlog(dir.path);
    const fs::path out = dir.path / "shared.json.gz";
    // The control: without --redact-paths, the paths are there to be found.
    auto plain = el2fx::testing::run_binary({log, "--include-env", "-o", out.string()});
    BOOST_REQUIRE(plain.status == 0);
    {
        std::vector<std::string> strings;
        collect_strings(parse(fxprof::gunzip(slurp(out))), strings);
        std::size_t with_paths = 0;
        for (const std::string& s : strings) with_paths += !absolute_path_in(s).empty();
        BOOST_TEST(with_paths > kHostileTexts.size());
    }
    auto r = el2fx::testing::run_binary({log, "--redact-paths", "--include-env", "-o", out.string()});
    BOOST_REQUIRE(r.status == 0);
    const std::string json = fxprof::gunzip(slurp(out));
    BOOST_TEST(check::validate_profile(json).empty());
    std::vector<std::string> strings;
    collect_strings(parse(json), strings);
    BOOST_TEST(strings.size() > 100u);
    for (const std::string& s : strings) {
        BOOST_TEST(absolute_path_in(s).empty(), "path " << absolute_path_in(s) << " in: " << s.substr(0, 300));
        for (const char* name : {"home", "ann/", "ann\\", "Users"})
            BOOST_TEST(s.find(name) == std::string::npos, name << " in: " << s.substr(0, 300));
    }
    BOOST_TEST(json.find("-olout.eventlog") != std::string::npos);  // the flag stays, its path goes
}

// Real eventlogs hold no machine's paths (they were made in a temporary directory): with
// --redact-paths their profiles lose nothing (relative source locations, messages, labels
// stay), except the eventlog's own path where it names the profile.
BOOST_AUTO_TEST_CASE(real_eventlogs_lose_nothing_but_the_eventlogs_own_path) {
    TempDir dir;
    for (const char* name :
         {"alloc", "concurrency", "killed", "nonmoving", "profiled", "profiled-hy", "sparks", "userevents"}) {
        const std::string log = env_dir("EL2FX_FIXTURES") + "/" + name + ".eventlog";
        convert::ConvertOptions options;
        options.input_name = std::string(name) + ".eventlog";
        const std::string plain = json_of(log, options);
        options.redact_paths = true;
        BOOST_TEST((json_of(log, options) == plain), name);
        // Through the CLI, with the eventlog's absolute path: no absolute path is written.
        const fs::path out = dir.path / "out.json.gz";
        auto r = el2fx::testing::run_binary({log, "--redact-paths", "-q", "-o", out.string()});
        BOOST_REQUIRE(r.status == 0);
        std::vector<std::string> strings;
        collect_strings(parse(fxprof::gunzip(slurp(out))), strings);
        for (const std::string& s : strings) BOOST_TEST(absolute_path_in(s).empty(), name << ": " << s.substr(0, 300));
    }
}

// ---- Functions stay the same from run to run -------------------------------------------

namespace {

// Every function as the compare view matches it: name, resource, file, line, column.
std::set<std::string> functions(const rapidjson::Document& d) {
    const auto& s = d["shared"];
    const auto& strings = s["stringArray"];
    const auto& f = s["funcTable"];
    auto str = [&](const rapidjson::Value& v) {
        return v.IsNull() ? std::string("-") : std::string(strings[v.GetUint()].GetString());
    };
    auto num = [](const rapidjson::Value& v) { return v.IsNull() ? std::string("-") : std::to_string(v.GetInt64()); };
    std::set<std::string> out;
    for (rapidjson::SizeType i = 0; i < f["length"].GetUint(); ++i) {
        std::string resource = "-", file = "-";
        if (f["resource"][i].IsInt() && f["resource"][i].GetInt() >= 0)
            resource = str(s["resourceTable"]["name"][f["resource"][i].GetUint()]);
        if (!f["source"][i].IsNull()) file = str(s["sources"]["filename"][f["source"][i].GetUint()]);
        out.insert(str(f["name"][i]) + " | " + resource + " | " + file + ":" + num(f["lineNumber"][i]) + ":" +
                   num(f["columnNumber"][i]));
    }
    return out;
}

// A run of one time-profiled program (+RTS -p -l). Two runs of the same binary differ in
// their pid, when they start, and the order in which the runtime defines the cost
// centres; `shift` moves every time.
std::string profiled_run(const fs::path& path, std::uint64_t shift, std::uint32_t pid, bool reverse_definitions) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<OsProcessPid>()
        .declare<CreateThread>()
        .declare<RunThread>()
        .declare<StopThread>()
        .declare<ThreadLabel>()
        .declare<HeapProfCostCentre>()
        .declare<ProfBegin>()
        .declare<ProfSampleCostCentre>();
    b.begin_block(shift + 1000, 0)
        .event(shift + 1000, CreateThread{1})
        .event(shift + 1100, ThreadLabel{1, Text{"worker"}})
        .event(shift + 10'000, RunThread{1})
        .event(shift + 70'000, StopThread{1, 5, 0})
        .end_block();
    b.begin_block(shift + 500, kGlobalCap);
    b.event(shift + 500, OsProcessPid{0, pid});
    const HeapProfCostCentre centres[] = {
        {1, {"main"}, {"Main"}, {"src/Main.hs:(1,1)-(9,9)"}, 0},
        {2, {"work"}, {"Main"}, {"src/Main.hs:3:5-20"}, 0},
        {3, {"step"}, {"Data.Lib"}, {"src/Data/Lib.hs:7:1-9"}, 0},
        {4, {"CAF"}, {"Data.Lib"}, {"<entire-module>"}, 1},
    };
    for (std::size_t i = 0; i < std::size(centres); ++i)
        b.event(shift + 600 + i, centres[reverse_definitions ? std::size(centres) - 1 - i : i]);
    b.event(shift + 700, ProfBegin{5000});
    auto stack = [](std::initializer_list<std::uint32_t> innermost_first) {
        std::string s;
        for (std::uint32_t id : innermost_first) field_io::put_int(s, id);
        return s;
    };
    static const std::string work = stack({2, 1}), step = stack({3, 2, 1}), caf = stack({4});
    const std::pair<std::uint64_t, const std::string*> ticks[] = {{15'000, &work}, {20'000, &step}, {25'000, &step},
                                                                  {30'000, &caf},  {35'000, &work}, {40'000, &step}};
    for (const auto& [t, s] : ticks) b.event(shift + t, ProfSampleCostCentre{0, t / 5000, CostCentreStack{*s}});
    b.end_block();
    std::ofstream(path, std::ios::binary) << b.finish();
    return path.string();
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_same_program_converted_twice_has_the_same_functions) {
    TempDir dir;
    std::string log = env_dir("EL2FX_FIXTURES") + "/profiled.eventlog";  // cost centres with modules and files
    fs::path one = dir.path / "one.json.gz", two = dir.path / "two.json.gz";
    BOOST_REQUIRE(el2fx::testing::run_binary({log, "-o", one.string()}).status == 0);
    BOOST_REQUIRE(el2fx::testing::run_binary({log, "-o", two.string()}).status == 0);
    auto a = parse(fxprof::gunzip(slurp(one))), b = parse(fxprof::gunzip(slurp(two)));
    std::set<std::string> fa = functions(a);
    BOOST_TEST(fa == functions(b));
    BOOST_TEST(std::count_if(
                   fa.begin(), fa.end(),
                   [](const std::string& f) { return f.starts_with("stageNumeric.go | Main | profiled.hs:56:"); }) == 1,
               "cost-centre functions have their module and file");
    std::string pid = a["threads"][0]["pid"].GetString();
    for (const std::string& f : fa) {
        // Never named by something that changes from run to run: a pid, an address.
        BOOST_TEST(f.find(pid) == std::string::npos, f);
        BOOST_TEST(f.find("0x") == std::string::npos, f);
    }
}

BOOST_AUTO_TEST_CASE(two_runs_of_one_program_have_the_same_functions) {
    TempDir dir;
    // Different pids, start times and order of the cost centres' definitions.
    std::string first = profiled_run(dir.path / "first.eventlog", 0, 1111, false);
    std::string second = profiled_run(dir.path / "second.eventlog", 7'777'777, 2222, true);
    convert::ConversionReport ra, rb;
    auto a = parse(fxprof::profile_to_json(convert::build_profile(first, {}, ra)));
    auto b = parse(fxprof::profile_to_json(convert::build_profile(second, {}, rb)));
    std::set<std::string> fa = functions(a);
    BOOST_TEST(fa == functions(b));
    for (const char* expected : {"work | Main | src/Main.hs:3:5", "step | Data.Lib | src/Data/Lib.hs:7:1",
                                 "CAF:Data.Lib | Data.Lib | -:-:-", "1 worker | - | -:-:-", "Mutator | - | -:-:-"})
        BOOST_TEST(
            fa.count(expected) == 1u, expected << " in " << [&] {
                std::string s;
                for (const auto& f : fa) s += "\n  " + f;
                return s;
            }());
    // One profile of both runs: each function once, shared by the two processes, so a
    // selection of both tracks merges their call trees.
    std::vector<convert::ConversionReport> reports;
    auto both = parse(fxprof::profile_to_json(convert::build_profile({{first, "a"}, {second, "b"}}, {}, reports)));
    BOOST_TEST(functions(both) == fa);
    BOOST_TEST(both["shared"]["funcTable"]["length"].GetUint() == a["shared"]["funcTable"]["length"].GetUint());
}

// Real runs of one program (alloc.hs, two runs with different RTS options): the functions
// both have are alike in every respect.
BOOST_AUTO_TEST_CASE(real_runs_of_one_program_share_their_functions) {
    convert::ConversionReport ra, rb;
    auto a =
        parse(fxprof::profile_to_json(convert::build_profile(env_dir("EL2FX_FIXTURES") + "/alloc.eventlog", {}, ra)));
    auto b = parse(
        fxprof::profile_to_json(convert::build_profile(env_dir("EL2FX_FIXTURES") + "/nonmoving.eventlog", {}, rb)));
    BOOST_TEST(*ra.run.pid != *rb.run.pid);
    std::set<std::string> fa = functions(a), fb = functions(b);
    for (const char* name : {"Mutator | - | -:-:-", "GC | - | -:-:-", "Idle | - | -:-:-", "6 allocator-1 | - | -:-:-",
                             "7 allocator-2 | - | -:-:-", "Running | - | -:-:-"}) {
        BOOST_TEST(fa.count(name) == 1u, name);
        BOOST_TEST(fb.count(name) == 1u, name);
    }
}
