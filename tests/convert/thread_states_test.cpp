// Why a Haskell thread is not running, as the profile shows it: a stop for a GC, a preemption
// or a foreign call is not "Blocked" (analysis/off_cpu_state.hpp). Stacks, categories, marker
// names and merged markers, on a built eventlog and on the real profiled fixture.
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>
#include <string>

#include "convert/converter.hpp"
#include "eventlog_builder.hpp"
#include "fxprof/profile_writer.hpp"
#include "run_process.hpp"
#include "temp_file.hpp"
#include "util/rapidjson.hpp"

using namespace el2fx;
using el2fx::testing::env_dir;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::TempFile;

namespace {

struct View {
    rapidjson::Document d;
    explicit View(const std::string& path) {
        convert::ConversionReport report;
        const std::string json = fxprof::profile_to_json(convert::build_profile(path, {}, report));
        d.Parse(json.data(), json.size());
        BOOST_REQUIRE(!d.HasParseError());
    }
    std::string str(const rapidjson::Value& index) const {
        return d["shared"]["stringArray"][index.GetUint()].GetString();
    }
    const rapidjson::Value& track(const std::string& name) const {
        for (const auto& t : d["threads"].GetArray())
            if (name == t["name"].GetString()) return t;
        BOOST_FAIL("no track " << name);
        return d["threads"][0];
    }
    std::string func_of_frame(unsigned frame) const {
        const auto& sh = d["shared"];
        return str(sh["funcTable"]["name"][sh["frameTable"]["func"][frame].GetUint()]);
    }
    std::string category_of_frame(unsigned frame) const {
        return d["meta"]["categories"][d["shared"]["frameTable"]["category"][frame].GetUint()]["name"].GetString();
    }
    // "Root/child" of every sample's stack on a track, with its weight.
    std::map<std::string, double> stacks(const std::string& name) const {
        std::map<std::string, double> out;
        const auto& st = d["shared"]["stackTable"];
        const auto& s = track(name)["samples"];
        for (rapidjson::SizeType i = 0; i < s["length"].GetUint(); ++i) {
            if (s["stack"][i].IsNull()) continue;
            std::string path;
            for (unsigned k = s["stack"][i].GetUint();; k -= st["prefixOffset"][k].GetUint()) {
                path = func_of_frame(st["frame"][k].GetUint()) + (path.empty() ? "" : "/" + path);
                if (st["prefixOffset"][k].GetUint() == 0) break;
            }
            out[path] += s["weight"].IsArray() ? s["weight"][i].GetDouble() : 1.0;
        }
        return out;
    }
    std::string category_of_func(const std::string& func) const {
        const auto& ft = d["shared"]["frameTable"];
        for (rapidjson::SizeType f = 0; f < ft["length"].GetUint(); ++f)
            if (func_of_frame(f) == func) return category_of_frame(f);
        return "";
    }
    struct Marker {
        std::string name, type;
        std::uint64_t count = 0;
    };
    std::vector<Marker> markers(const std::string& name) const {
        std::vector<Marker> out;
        const auto& m = track(name)["markers"];
        for (rapidjson::SizeType i = 0; i < m["length"].GetUint(); ++i) {
            Marker k{str(m["name"][i]), "", 0};
            if (m["data"][i].IsObject()) {
                k.type = m["data"][i]["type"].GetString();
                if (m["data"][i].HasMember("count")) k.count = m["data"][i]["count"].GetUint64();
            }
            out.push_back(k);
        }
        return out;
    }
};

constexpr std::uint64_t ms = 1'000'000;

}  // namespace

BOOST_AUTO_TEST_SUITE(thread_states)

BOOST_AUTO_TEST_CASE(each_kind_of_stop_has_its_root_frame_category_and_marker_name) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker().declare<CreateThread>().declare<RunThread>().declare<StopThread>();
    b.begin_block(1, 0);
    b.event(1, CreateThread{1});
    const std::uint16_t statuses[] = {1 /*heap overflow*/, 3 /*yielding*/, 6 /*foreign call*/, 7 /*MVar*/};
    std::uint64_t t = 2;
    for (std::uint16_t status : statuses) {
        b.event(t, RunThread{1}).event(t + 1 * ms, StopThread{1, status, 0});
        t += 4 * ms;  // stopped for 3 ms: a sample group and a marker of its own
    }
    b.event(t, RunThread{1}).event(t + ms, StopThread{1, 5, 0});
    b.end_block();
    TempFile log(b.finish());
    View v(log.path);

    auto stacks = v.stacks("thread 1");
    BOOST_TEST(stacks.count("Waiting for GC/heap overflow") == 1u);
    BOOST_TEST(stacks.count("Runnable/thread yielding") == 1u);
    BOOST_TEST(stacks.count("In foreign call/making a foreign call") == 1u);
    BOOST_TEST(stacks.count("Blocked/blocked on an MVar") == 1u);
    for (const auto& [path, weight] : stacks)  // only the MVar wait is "Blocked"
        BOOST_TEST((path.rfind("Blocked", 0) != 0 || path == "Blocked/blocked on an MVar"), path);
    BOOST_TEST(v.category_of_func("Waiting for GC") == "Waiting for GC");
    BOOST_TEST(v.category_of_func("heap overflow") == "Waiting for GC");
    BOOST_TEST(v.category_of_func("Runnable") == "Runnable");
    BOOST_TEST(v.category_of_func("In foreign call") == "Foreign call");
    BOOST_TEST(v.category_of_func("Blocked") == "Blocked");

    std::multiset<std::string> names;
    for (const auto& m : v.markers("thread 1"))
        if (m.type == "ThreadStopped") names.insert(m.name);
    BOOST_TEST(
        (names == std::multiset<std::string>{"Waiting for GC", "Runnable", "In foreign call", "Blocked on an MVar"}));
}

BOOST_AUTO_TEST_CASE(a_merged_marker_is_named_by_the_reason_that_took_most_of_its_time) {
    using namespace eventlog;
    EventlogBuilder b;
    b.declare_block_marker().declare<CreateThread>().declare<RunThread>().declare<StopThread>();
    b.begin_block(1, 0);
    b.event(1, CreateThread{1});
    // Short stops (below the 1 ms marker resolution): seven on an MVar (0.1 ms each), one on a
    // black hole (0.3 ms), one heap overflow (its own row: another kind).
    std::uint64_t t = 10;
    auto stop = [&](std::uint16_t status, std::uint64_t length) {
        b.event(t, RunThread{1}).event(t + 10'000, StopThread{1, status, status == 8 ? 2u : 0u});
        t += 10'000 + length;
    };
    stop(8, 3 * ms / 10);  // first: the group is not named by its first span
    for (int i = 0; i < 7; ++i) stop(7, ms / 10);
    stop(1, ms / 10);
    b.event(t, RunThread{1}).event(t + 10'000, StopThread{1, 5, 0});
    b.end_block();
    TempFile log(b.finish());
    View v(log.path);

    std::map<std::string, std::uint64_t> merged;
    std::set<std::string> kept;
    for (const auto& m : v.markers("thread 1")) {
        if (m.type == "MergedSpans") merged[m.name] += m.count;
        if (m.type == "ThreadStopped") kept.insert(m.name);
    }
    BOOST_TEST(merged["Blocked on an MVar"] == 8u);  // 0.7 ms on the MVar outweighs 0.3 ms
    BOOST_TEST(merged.count("Blocked on black hole") == 0u);
    BOOST_TEST(kept.count("Waiting for GC") == 1u);  // a group of one stays itself
}

BOOST_AUTO_TEST_CASE(a_profiled_programs_main_thread_waits_for_gc_rather_than_blocks) {
    View v(env_dir("EL2FX_FIXTURES") + "/profiled-hy.eventlog");
    double waiting = 0, blocked = 0;
    for (const auto& [path, weight] : v.stacks("thread 5")) {
        if (path.rfind("Waiting for GC/", 0) == 0) waiting += weight;
        if (path.rfind("Blocked/", 0) == 0) blocked += weight;
    }
    BOOST_TEST(waiting > 0);
    BOOST_TEST(blocked == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(capability_gc_phases)

// More capabilities than cores: "GC" is the time spent collecting; waiting for the other GC
// threads or to be released are roots of their own, in the "GC wait" category.
BOOST_AUTO_TEST_CASE(waits_in_a_parallel_gc_are_not_collecting) {
    View v(env_dir("EL2FX_FIXTURES") + "/gc-n4.eventlog");
    double gc = 0, waiting = 0;
    for (const auto& [path, weight] : v.stacks("Capability 0")) {
        if (path == "GC" || path == "GC/working") gc += weight;
        if (path == "GC idle: waiting for other GC threads" || path == "GC done: waiting to be released")
            waiting += weight;
    }
    BOOST_TEST(gc > 0);
    BOOST_TEST(waiting > 0);
    BOOST_TEST(v.category_of_func("working") == "GC");
    BOOST_TEST(v.category_of_func("GC done: waiting to be released") == "GC wait");
    BOOST_TEST(v.category_of_func("GC idle: waiting for other GC threads") == "GC wait");
}

BOOST_AUTO_TEST_CASE(heap_census_time_is_its_own_root) {
    View v(env_dir("EL2FX_FIXTURES") + "/census-hy.eventlog");
    double census = 0;
    for (const char* cap : {"Capability 0", "Capability 1"})
        for (const auto& [path, weight] : v.stacks(cap))
            if (path == "Heap census") census += weight;
    BOOST_TEST(census > 0);
    BOOST_TEST(v.category_of_func("Heap census") == "Memory");
}

BOOST_AUTO_TEST_SUITE_END()
