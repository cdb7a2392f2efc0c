// ghc-stack-profiler's samples in the profile, on the real fixture
// (fixtures/ghc-9.10.3/stack-profiler.eventlog, program fixtures/src/stack_profiler/Main.hs):
// each worker thread's track stands on its own functions with their source lines, the
// profiler's threads are named as such, the threading truth stays, and Profile Info counts it all.
#define BOOST_TEST_MODULE stack_samples
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "check/profile_check.hpp"
#include "eventlog_builder.hpp"
#include "convert/converter.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/rapidjson.hpp"

using namespace el2fx;

namespace {

std::string fixtures() {
    const char* p = std::getenv("EL2FX_FIXTURES");
    return p ? p : "";
}

struct Frame {
    std::string name, file;
    unsigned line = 0;
};

// The fixture converted once for every test case.
struct Converted {
    std::string json;
    rapidjson::Document doc;
    // By thread name: each sample's stack, root first, and its weight and CPU delta.
    std::map<std::string, std::vector<std::vector<Frame>>> stacks;
    std::map<std::string, double> cpu;
    std::map<std::string, std::string> info;  // "Stack samples" section: label → value as text
};

const Converted& converted() {
    static Converted c = [] {
        Converted c;
        convert::ConvertOptions options;
        options.source_dirs = {fixtures() + "/src/stack_profiler"};
        convert::ConversionReport report;
        c.json = fxprof::profile_to_json(
            convert::build_profile(fixtures() + "/ghc-9.10.3/stack-profiler.eventlog", options, report));
        c.doc.Parse(c.json.data(), c.json.size());
        const auto& shared = c.doc["shared"];
        const auto& strings = shared["stringArray"];
        const auto& funcs = shared["funcTable"];
        const auto& frames = shared["frameTable"];
        const auto& stacks = shared["stackTable"];
        const auto& sources = shared["sources"];
        auto frame = [&](unsigned f) {
            Frame out;
            const unsigned func = frames["func"][f].GetUint();
            out.name = strings[funcs["name"][func].GetUint()].GetString();
            if (!funcs["source"][func].IsNull())
                out.file = strings[sources["filename"][funcs["source"][func].GetUint()].GetUint()].GetString();
            if (!frames["line"][f].IsNull()) out.line = frames["line"][f].GetUint();
            return out;
        };
        for (const auto& t : c.doc["threads"].GetArray()) {
            const std::string name = t["name"].GetString();
            const auto& samples = t["samples"];
            auto& out = c.stacks[name];
            for (rapidjson::SizeType i = 0; i < samples["length"].GetUint(); ++i) {
                std::vector<Frame> stack;
                if (!samples["stack"][i].IsNull())
                    for (unsigned s = samples["stack"][i].GetUint();; s -= stacks["prefixOffset"][s].GetUint()) {
                        stack.push_back(frame(stacks["frame"][s].GetUint()));
                        if (stacks["prefixOffset"][s].GetUint() == 0) break;
                    }
                std::reverse(stack.begin(), stack.end());
                out.push_back(std::move(stack));
                if (samples.HasMember("threadCPUDelta") && samples["threadCPUDelta"][i].IsNumber())
                    c.cpu[name] += samples["threadCPUDelta"][i].GetDouble();
            }
        }
        for (const auto& s : c.doc["meta"]["extra"].GetArray()) {
            if (std::string(s["label"].GetString()) != "Stack samples (ghc-stack-profiler)") continue;
            for (const auto& e : s["entries"].GetArray()) {
                const auto& v = e["value"];
                c.info[e["label"].GetString()] = v.IsString() ? v.GetString() : std::to_string(v.GetDouble());
            }
        }
        return c;
    }();
    return c;
}

// Without the fixture (EL2FX_FIXTURES unset or elsewhere) the suite is skipped: exit 77.
bool has_fixture() {
    if (!std::filesystem::exists(fixtures() + "/ghc-9.10.3/stack-profiler.eventlog")) std::exit(77);
    return true;
}

// The names of every frame of a thread's samples.
std::set<std::string> names(const std::string& thread) {
    std::set<std::string> out;
    for (const auto& stack : converted().stacks.at(thread))
        for (const Frame& f : stack) out.insert(f.name);
    return out;
}

const Frame* find(const std::string& thread, const std::string& name) {
    for (const auto& stack : converted().stacks.at(thread))
        for (const Frame& f : stack)
            if (f.name == name) return &f;
    return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_profile_is_valid) {
    if (!has_fixture()) return;
    BOOST_TEST(check::validate_profile(converted().json).empty());
}

BOOST_AUTO_TEST_CASE(profile_info_counts_the_samples_and_what_could_not_be_resolved) {
    if (!has_fixture()) return;
    const auto& info = converted().info;
    BOOST_REQUIRE(!info.empty());
    BOOST_TEST(info.at("Samples") == "86.000000");
    BOOST_TEST(info.at("Samples by thread") == "6 main: 40, 11 collatz: 18, 13 courier: 15, 12 sieve: 12, thread 10: 1");
    BOOST_TEST(info.at("Stacks split over several messages") == "1.000000");
    BOOST_TEST(info.at("Frames without IPE entry (shown by address)") == "0.000000");
    BOOST_TEST(info.at("Empty stacks (no frame with an IPE entry)") == "1.000000");
    BOOST_TEST(info.at("IPE entries in the log") == "4867.000000");
    BOOST_TEST(info.at("The profiler's writer thread") == "thread 7");
    BOOST_TEST(info.at("The profiler's sampling thread") == "9 Sample Profiler Thread 9");
    BOOST_TEST(info.count("Sampling interval (median gap between a thread's samples)") == 1u);
    BOOST_TEST(info.at("Frame order on the wire").starts_with("outermost frame first (from the stacks"));
}

BOOST_AUTO_TEST_CASE(each_worker_thread_stands_on_its_own_functions_with_their_lines) {
    if (!has_fixture()) return;
    const Frame* is_prime = find("12 sieve", "Main.isPrime");
    BOOST_REQUIRE(is_prime);
    BOOST_TEST(is_prime->file == "Main.hs");
    BOOST_TEST(is_prime->line == 121u);
    const Frame* steps = find("11 collatz", "Main.collatzSteps");
    BOOST_REQUIRE(steps);
    BOOST_TEST(steps->file == "Main.hs");
    BOOST_TEST(steps->line >= 104u);
    BOOST_TEST(steps->line <= 110u);
    // The courier's loop (checksumParcel is a strict loop without frames): a return frame without
    // label or source, shown by its table's name with the module as its resource.
    BOOST_TEST(find("13 courier", "block_cyHP_info"));
    // Nobody else's work: the sieve's functions are not on the collatz thread and the other way.
    BOOST_TEST(!names("11 collatz").contains("Main.isPrime"));
    BOOST_TEST(!names("12 sieve").contains("Main.collatzSteps"));
    BOOST_TEST(!names("13 courier").contains("Main.isPrime"));
}

BOOST_AUTO_TEST_CASE(stacks_run_from_the_state_through_main_to_the_innermost_frame) {
    if (!has_fixture()) return;
    bool seen = false;
    for (const auto& stack : converted().stacks.at("12 sieve")) {
        if (stack.size() < 3 || stack.back().name != "Main.isPrime" || stack[0].name != "Running") continue;
        seen = true;
        BOOST_TEST(stack[1].name == "Main.main");  // the async action in main (line 52)
        BOOST_TEST(stack[1].line == 52u);
    }
    BOOST_TEST(seen);
}

BOOST_AUTO_TEST_CASE(the_deep_ping_pong_sample_is_joined_from_its_two_messages) {
    if (!has_fixture()) return;
    std::size_t deepest = 0;
    for (const auto& stack : converted().stacks.at("6 main"))
        if (!stack.empty() && stack[0].name == "Running") deepest = std::max(deepest, stack.size());
    BOOST_TEST(deepest == 7414u + 1u);  // under "Running"
    for (const auto& stack : converted().stacks.at("6 main")) {
        if (stack.size() != deepest || stack[0].name != "Running") continue;
        BOOST_TEST(stack[1].name == "block_cz5L_info");  // main's continuation: the outermost entry
        BOOST_TEST(stack[2].name == "Main.ping");
        BOOST_TEST(stack[2].line == 159u);
        BOOST_TEST(stack[7403].name == "Main.bottomSpin");
        BOOST_TEST(stack.back().name == "Main.collatzSteps");  // the innermost
    }
    BOOST_TEST(names("6 main").contains("Main.ping"));
    BOOST_TEST(names("6 main").contains("Main.pong"));
}

BOOST_AUTO_TEST_CASE(the_profilers_own_threads_are_named_as_such) {
    if (!has_fixture()) return;
    BOOST_TEST(names("thread 7").contains("ghc-stack-profiler: writing samples"));
    BOOST_TEST(names("9 Sample Profiler Thread 9").contains("ghc-stack-profiler: sampling stacks"));
    BOOST_TEST(!names("thread 7").contains("Main.main"));
}

BOOST_AUTO_TEST_CASE(blocked_samples_keep_their_state_at_the_root) {
    if (!has_fixture()) return;
    // The courier waits on an MVar between parcels: those samples stay "Blocked …" at the root.
    std::size_t blocked = 0, blocked_with_stack = 0;
    for (const auto& stack : converted().stacks.at("13 courier")) {
        if (stack.empty() || stack[0].name == "Running") continue;
        ++blocked;
        if (stack.size() > 2) ++blocked_with_stack;
    }
    BOOST_TEST(blocked > 0u);
    BOOST_TEST(blocked_with_stack > 0u);
}

namespace {

void put_be(std::string& out, std::uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
}

// A long run of one capability: thread 1 works in 2 ms slices, each followed by the writer
// (thread 2) writing a sample of it: 12 frames out of 1000 IPE entries, outermost first.
std::string synthetic_log(std::uint64_t samples) {
    using namespace el2fx::eventlog;
    el2fx::testing::EventlogBuilder b;
    b.declare_block_marker().declare<CreateThread>().declare<RunThread>().declare<StopThread>();
    b.declare<InfoProv>(std::optional<std::uint16_t>{}).declare<UserBinaryMessage>(std::optional<std::uint16_t>{});
    const std::uint64_t per_block = 10000, ms = 1'000'000;
    std::string names;
    for (std::uint64_t i = 0; i < samples; ++i) {
        const std::uint64_t t = 1000 + i * 2 * ms;
        if (i % per_block == 0) {
            if (i) b.end_block();
            b.begin_block(t, 0, t + per_block * 2 * ms);
        }
        if (i == 0) {
            b.event(t, CreateThread{1}).event(t, CreateThread{2});
            for (std::uint64_t k = 0; k < 1000; ++k) {
                names = "f" + std::to_string(k);
                const std::string src = "Synth.hs:" + std::to_string(k + 1) + ":1-9";
                InfoProv ipe;
                ipe.info = 0x400000 + 8 * k;
                ipe.table_name = {"t_info"};
                ipe.closure_desc = {"53"};
                ipe.ty_desc = {""};
                ipe.label = {names};
                ipe.module = {"Synth"};
                ipe.src_loc = {src};
                b.event(t, ipe);
            }
        }
        b.event(t + 10, RunThread{1}).event(t + 1'500'000, StopThread{1, 3, std::nullopt});
        b.event(t + 1'600'000, RunThread{2});
        std::string m;
        put_be(m, 0xFFCA, 2);
        put_be(m, 0, 4);
        put_be(m, 1, 4);
        put_be(m, 12, 2);
        for (std::uint64_t k = 0; k < 12; ++k) {
            put_be(m, 1, 1);
            put_be(m, 0x400000 + 8 * (k == 11 ? (i % 900) + 11 : k), 8);  // a fixed root, a moving leaf
        }
        b.event(t + 1'700'000, UserBinaryMessage{{m}});
        b.event(t + 1'800'000, StopThread{2, 3, std::nullopt});
    }
    b.end_block();
    return b.finish();
}

std::string write_temp(const std::string& bytes, const std::string& name) {
    const std::string path = (std::filesystem::temp_directory_path() / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_long_synthetic_run_shows_every_sample_under_its_slice) {
    const std::uint64_t n = 20000;
    const std::string path = write_temp(synthetic_log(n), "el2fx-stack-samples-synthetic.eventlog");
    convert::ConversionReport report;
    const std::string json = fxprof::profile_to_json(convert::build_profile(path, {}, report));
    std::filesystem::remove(path);
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    BOOST_REQUIRE(!doc.HasParseError());
    std::map<std::string, double> info;
    for (const auto& s : doc["meta"]["extra"].GetArray())
        if (std::string(s["label"].GetString()) == "Stack samples (ghc-stack-profiler)")
            for (const auto& e : s["entries"].GetArray())
                if (e["value"].IsNumber()) info[e["label"].GetString()] = e["value"].GetDouble();
    BOOST_TEST(info["Samples"] == double(n));
    BOOST_TEST(info["Frames without IPE entry (shown by address)"] == 0.0);
    // Every slice's virtual samples (1 ms timer) take the sample written right after it.
    BOOST_TEST(info["Samples shown (taken by the virtual samples near them)"] == double(n));
    BOOST_TEST(info["Virtual samples of sampled threads without one (no sample within 50 ms)"] == 0.0);
    BOOST_TEST(check::validate_profile(json).empty());
}

// Not in the suite: writes a log of a million samples for measuring the conversion
// (`stack_samples_tests --run_test=write_a_million_sample_log`, then convert $TMPDIR's file).
BOOST_AUTO_TEST_CASE(write_a_million_sample_log, *boost::unit_test::disabled()) {
    BOOST_TEST_MESSAGE(write_temp(synthetic_log(1'000'000), "el2fx-stack-samples-1M.eventlog"));
}
