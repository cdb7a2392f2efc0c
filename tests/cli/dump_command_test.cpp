// End-to-end: the binary's output, messages and exit codes.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <thread>

#include "cli/event_filter.hpp"
#include "run_process.hpp"
#include "util/error.hpp"
#include "temp_file.hpp"

using el2fx::testing::slurp;

namespace fs = std::filesystem;
using el2fx::testing::env_dir;
using el2fx::testing::run_binary;

namespace {

std::string fixture(const std::string& name) { return env_dir("EL2FX_FIXTURES") + "/" + name; }

std::string write_temp(const std::string& bytes) {
    std::string path = (fs::temp_directory_path() / ("el2fx-cli-" + std::to_string(::getpid()) + "-" +
                                                     std::to_string(std::hash<std::string>{}(bytes))))
                           .string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

std::size_t count_lines_containing(const std::string& text, const std::string& needle) {
    std::size_t n = 0, pos = 0;
    while ((pos = text.find(needle, pos)) != std::string::npos) ++n, ++pos;
    return n;
}

}  // namespace

BOOST_AUTO_TEST_CASE(dump_prints_types_then_events_and_exits_0) {
    auto r = run_binary({"dump", fixture("concurrency.eventlog")});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.out.rfind("Event Types:\n", 0) == 0u);
    BOOST_TEST(r.out.find("\nEvents:\n") != std::string::npos);
    BOOST_TEST(r.err.empty());
}

BOOST_AUTO_TEST_CASE(missing_file_is_a_one_line_error_with_exit_1) {
    auto r = run_binary({"dump", "/nonexistent/prog.eventlog"});
    BOOST_TEST(r.status == 1);
    BOOST_TEST(r.err.find("/nonexistent/prog.eventlog") != std::string::npos);
    BOOST_TEST(count_lines_containing(r.err, "\n") == 1u);
}

BOOST_AUTO_TEST_CASE(corrupt_file_names_file_and_byte_offset) {
    std::string bytes = slurp(fixture("userevents.eventlog"));
    bytes[0] = 'X';
    std::string path = write_temp(bytes);
    auto r = run_binary({"dump", path});
    BOOST_TEST(r.status == 1);
    BOOST_TEST(r.err.find(path + ": byte 0: not a GHC eventlog") != std::string::npos, r.err);
    fs::remove(path);
}

BOOST_AUTO_TEST_CASE(undeclared_event_tag_names_offset_and_tag) {
    std::string bytes = slurp(fixture("userevents.eventlog"));
    std::size_t datb = bytes.find("datb") + 4;
    bytes[datb] = '\x00';
    bytes[datb + 1] = '\x63';  // tag 99: declared by no GHC
    std::string path = write_temp(bytes);
    auto r = run_binary({"dump", path});
    BOOST_TEST(r.status == 1);
    BOOST_TEST(
        r.err.find("byte " + std::to_string(datb) + " (tag 99): event type 99 is not declared") != std::string::npos,
        r.err);
    fs::remove(path);
}

BOOST_AUTO_TEST_CASE(truncated_log_warns_and_exits_0_or_3_with_strict) {
    auto r = run_binary({"dump", fixture("killed.eventlog")});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.find("warning: ") != std::string::npos);
    BOOST_TEST(r.err.find("truncated at byte ") != std::string::npos);
    BOOST_TEST(r.out.find("Events:\n") != std::string::npos);
    auto strict = run_binary({"dump", "--strict", fixture("killed.eventlog")});
    BOOST_TEST(strict.status == 3);
    BOOST_TEST(strict.out == r.out);
}

BOOST_AUTO_TEST_CASE(header_only_log_is_truncated_not_corrupt) {
    auto r = run_binary({"dump", fixture("killed-early.eventlog")});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.find("no end-of-data marker") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
    BOOST_TEST(run_binary({}).status == 2);
    BOOST_TEST(run_binary({"--no-such-option", "x.eventlog"}).status == 2);
    BOOST_TEST(run_binary({"convert"}).status == 2);
    // Without a command the argument is the eventlog to convert.
    BOOST_TEST(run_binary({"frobnicate"}).status == 1);
    BOOST_TEST(run_binary({"dump"}).status == 2);
    BOOST_TEST(run_binary({"dump", "--no-such-option", "x"}).status == 2);
    BOOST_TEST(run_binary({"--help"}).status == 0);
}

BOOST_AUTO_TEST_CASE(a_zero_interval_is_a_usage_error) {
    for (const char* interval : {"0", "0.1ns"}) {  // 0.1ns rounds to 0
        auto r = run_binary({"convert", "--interval", interval, "-o", "-", fixture("sparks.eventlog")});
        BOOST_TEST(r.status == 2, interval);
        BOOST_TEST(r.out.empty());
        BOOST_TEST(r.err.find(std::string("--interval ") + interval + ": the sampling interval must be more than 0") !=
                       std::string::npos,
                   r.err);
    }
}

BOOST_AUTO_TEST_CASE(a_bad_profile_size_is_a_usage_error) {
    for (const char* size : {"abc", "-5", "1e9", "nan", "10XB", ""}) {
        auto r = run_binary({"convert", "--max-profile-size", size, "-o", "-", fixture("sparks.eventlog")});
        BOOST_TEST(r.status == 2, size);
        BOOST_TEST(r.out.empty());
        BOOST_TEST(r.err.find("not a size") != std::string::npos, r.err);
    }
}

BOOST_AUTO_TEST_CASE(a_coarsened_profile_says_so_in_one_line) {
    auto r = run_binary({"convert", "--max-profile-size", "150kB", "-o", "-", fixture("gc-n4.eventlog")});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.find("4.15 s of eventlog: ") != std::string::npos, r.err);
    BOOST_TEST(r.err.find(" to stay within 150 kB; use --from/--to for full detail\n") != std::string::npos, r.err);
    auto plain = run_binary({"convert", "-o", "-", fixture("gc-n4.eventlog")});
    BOOST_TEST(plain.err.find("to stay within") == std::string::npos, plain.err);
}

BOOST_AUTO_TEST_CASE(standard_input_gives_the_same_output_as_the_file) {
    std::string bytes = slurp(fixture("sparks.eventlog"));
    auto from_file = run_binary({"dump", fixture("sparks.eventlog")});
    auto from_stdin = run_binary({"dump", "-"}, bytes);
    BOOST_TEST(from_stdin.status == 0);
    BOOST_CHECK(from_stdin.out == from_file.out);
}

BOOST_AUTO_TEST_CASE(fifo_input_gives_the_same_output_as_the_file) {
    std::string path = (fs::temp_directory_path() / ("el2fx-fifo-" + std::to_string(::getpid()))).string();
    BOOST_REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    std::string bytes = slurp(fixture("sparks.eventlog"));
    std::thread writer([&] { std::ofstream(path, std::ios::binary) << bytes; });
    auto from_fifo = run_binary({"dump", path});
    writer.join();
    fs::remove(path);
    BOOST_TEST(from_fifo.status == 0);
    BOOST_CHECK(from_fifo.out == run_binary({"dump", fixture("sparks.eventlog")}).out);
}

BOOST_AUTO_TEST_CASE(type_filter_keeps_only_that_type) {
    auto all = run_binary({"dump", fixture("concurrency.eventlog")});
    auto stops = run_binary({"dump", "--type", "STOP_THREAD", fixture("concurrency.eventlog")});
    auto by_tag = run_binary({"dump", "--type", "2", fixture("concurrency.eventlog")});
    BOOST_TEST(stops.status == 0);
    BOOST_CHECK(stops.out == by_tag.out);
    std::string events = stops.out.substr(stops.out.find("Events:\n") + 8);
    BOOST_TEST(count_lines_containing(events, "stopping thread") == count_lines_containing(all.out, "stopping thread"));
    BOOST_TEST(count_lines_containing(events, "running thread") == 0u);
    BOOST_TEST(run_binary({"dump", "--type", "NO_SUCH_TYPE", fixture("concurrency.eventlog")}).status == 1);
}

BOOST_AUTO_TEST_CASE(cap_thread_and_time_filters) {
    auto cap1 = run_binary({"dump", "--cap", "1", fixture("concurrency.eventlog")});
    std::string events = cap1.out.substr(cap1.out.find("Events:\n") + 8);
    BOOST_TEST(count_lines_containing(events, "cap 0:") == 0u);
    BOOST_TEST(count_lines_containing(events, "cap 1:") > 0u);

    auto t5 = run_binary({"dump", "--thread", "5", fixture("concurrency.eventlog")});
    std::string tevents = t5.out.substr(t5.out.find("Events:\n") + 8);
    BOOST_TEST(count_lines_containing(tevents, "thread 5") > 0u);
    BOOST_TEST(count_lines_containing(tevents, "thread 6 ") == 0u);

    auto window = run_binary({"dump", "--from", "1ms", "--to", "2ms", fixture("concurrency.eventlog")});
    std::string wevents = window.out.substr(window.out.find("Events:\n") + 8);
    std::size_t pos = 0;
    while ((pos = wevents.find('\n', pos)) != std::string::npos && pos + 1 < wevents.size()) {
        std::string line = wevents.substr(pos + 1, wevents.find('\n', pos + 1) - pos - 1);
        ++pos;
        if (line.empty()) continue;
        unsigned long long t = std::stoull(line.substr(0, line.find(':')));
        BOOST_TEST(t >= 1000000u);
        BOOST_TEST(t <= 2000000u);
    }
}

BOOST_AUTO_TEST_CASE(parse_time_units) {
    using el2fx::cli::parse_time;
    BOOST_TEST(parse_time("1500") == 1500u);
    BOOST_TEST(parse_time("1.5ms") == 1500000u);
    BOOST_TEST(parse_time("2s") == 2000000000u);
    BOOST_TEST(parse_time("30us") == 30000u);
    BOOST_CHECK_THROW(parse_time("soon"), el2fx::Error);
    BOOST_CHECK_THROW(parse_time("-1ms"), el2fx::Error);
    BOOST_CHECK_THROW(parse_time("3h"), el2fx::Error);
}

// Golden `dump --stats` output for each fixture; EL2FX_UPDATE_GOLDEN=1 rewrites them.
BOOST_AUTO_TEST_CASE(stats_match_golden_files) {
    std::string root = fs::path(env_dir("EL2FX_FIXTURES")).parent_path().string();
    std::string golden_dir = root + "/tests/cli/golden";
    bool update = std::getenv("EL2FX_UPDATE_GOLDEN") != nullptr;
    std::size_t checked = 0;
    // Every GHC's fixtures: those of GHC 9.6.6 and 9.10.3 in their folders (their IPE events
    // framed by their fields, counted as declared_size_too_large).
    for (const auto& entry : fs::recursive_directory_iterator(env_dir("EL2FX_FIXTURES"))) {
        if (entry.path().extension() != ".eventlog") continue;
        std::string name = fs::relative(entry.path(), env_dir("EL2FX_FIXTURES")).string();
        auto r = run_binary({"dump", "--stats", "fixtures/" + name}, {}, root);
        BOOST_TEST(r.status == 0, name);
        std::string golden = golden_dir + "/" + name + ".stats.txt";
        if (update) {
            fs::create_directories(fs::path(golden).parent_path());
            std::ofstream(golden, std::ios::binary) << r.out;
        }
        BOOST_TEST(r.out == slurp(golden), name);
        ++checked;
    }
    BOOST_TEST(checked >= 8u);
}

// Golden `dump --spans` (the threading analyses' output) for a few fixtures;
// EL2FX_UPDATE_GOLDEN=1 rewrites them.
BOOST_AUTO_TEST_CASE(spans_match_golden_files) {
    std::string root = fs::path(env_dir("EL2FX_FIXTURES")).parent_path().string();
    bool update = std::getenv("EL2FX_UPDATE_GOLDEN") != nullptr;
    for (std::string name : {"concurrency", "sparks", "userevents", "profiled"}) {
        auto r = run_binary({"dump", "--spans", "fixtures/" + name + ".eventlog"}, {}, root);
        BOOST_TEST(r.status == 0, name);
        std::string golden = root + "/tests/cli/golden/" + name + ".spans.txt";
        if (update) std::ofstream(golden, std::ios::binary) << r.out;
        BOOST_TEST(r.out == slurp(golden), name);
        BOOST_TEST(r.out.find("mutator thread") != std::string::npos, name);
    }
}
