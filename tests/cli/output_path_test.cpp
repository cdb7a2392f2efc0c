// End-to-end: what `-o` may name. The output never destroys an input, never replaces a
// device or FIFO, and an interrupted conversion leaves no temporary file.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "run_process.hpp"
#include "temp_file.hpp"

using el2fx::testing::slurp;

namespace fs = std::filesystem;
using el2fx::testing::binary_path;
using el2fx::testing::env_dir;
using el2fx::testing::run_binary;
using namespace std::chrono_literals;

namespace {

std::string fixture(const std::string& name) { return env_dir("EL2FX_FIXTURES") + "/" + name; }

struct ScratchDir {
    fs::path path;
    ScratchDir() {
        path = fs::temp_directory_path() / ("el2fx-output-" + std::to_string(::getpid()) + "-" +
                                            std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        fs::create_directories(path);
    }
    ~ScratchDir() { fs::remove_all(path); }
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(path)) names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
};

// Starts the binary without waiting: standard input from `stdin_path` (empty: /dev/null),
// output discarded, SIGINT and SIGTERM at their default action whatever this process has.
pid_t spawn_binary(std::vector<std::string> args, const std::string& stdin_path = "/dev/null") {
    args.insert(args.begin(), binary_path());
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, stdin_path.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults, none;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    BOOST_REQUIRE(rc == 0);
    return pid;
}

int wait_status(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool has_temporary(const ScratchDir& dir) {
    for (const std::string& name : dir.entries())
        if (name.find(".tmp-") != std::string::npos) return true;
    return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(output_over_input)

BOOST_AUTO_TEST_CASE(an_output_that_is_an_input_is_refused_and_the_eventlog_kept) {
    ScratchDir dir;
    const fs::path log = dir.path / "prog.eventlog";
    fs::copy_file(fixture("alloc.eventlog"), log);
    const std::string bytes = slurp(log);
    fs::create_hard_link(log, dir.path / "hard.json.gz");
    fs::create_symlink("prog.eventlog", dir.path / "soft.json.gz");
    fs::copy_file(fixture("sparks.eventlog"), dir.path / "other.eventlog");
    const std::string other = (dir.path / "other.eventlog").string();
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {log.string(), "-o", log.string()},
             {log.string(), "-o", (dir.path / "hard.json.gz").string()},
             {log.string(), "-o", (dir.path / "soft.json.gz").string()},
             {log.string(), "-o", (dir.path / "." / "prog.eventlog").string()},  // another name, same file
             {other, log.string(), "-o", log.string()},                          // any of several inputs
             {log.string(), other, "--names", "a,b", "-o", other}}) {
        auto r = run_binary(args);
        BOOST_TEST(r.status == 2, r.err);
        BOOST_TEST(r.err.find("the same file") != std::string::npos, r.err);
    }
    BOOST_TEST(slurp(log) == bytes);
    BOOST_TEST(fs::is_symlink(dir.path / "soft.json.gz"));
    BOOST_TEST(
        dir.entries() == (std::vector<std::string>{"hard.json.gz", "other.eventlog", "prog.eventlog", "soft.json.gz"}),
        boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(standard_input_that_is_the_output_file_is_refused) {
    ScratchDir dir;
    const fs::path log = dir.path / "prog.eventlog";
    fs::copy_file(fixture("alloc.eventlog"), log);
    const std::string bytes = slurp(log);
    BOOST_TEST(wait_status(spawn_binary({"-", "-o", log.string()}, log.string())) == 2);
    BOOST_TEST(slurp(log) == bytes);
    // Another file is fine.
    BOOST_TEST(wait_status(spawn_binary({"-", "-o", (dir.path / "p.json.gz").string()}, log.string())) == 0);
    BOOST_TEST(fs::file_size(dir.path / "p.json.gz") > 0u);
}

BOOST_AUTO_TEST_CASE(an_empty_output_name_is_a_usage_error) {
    ScratchDir dir;
    const fs::path log = dir.path / "prog.eventlog";
    fs::copy_file(fixture("alloc.eventlog"), log);
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {log.string(), "-o", ""}, {log.string(), "--output="}, {log.string(), "--output", ""}}) {
        auto r = run_binary(args);
        BOOST_TEST(r.status == 2, r.err);
        BOOST_TEST(r.err.find("-o needs a file name") != std::string::npos, r.err);
    }
    BOOST_TEST(dir.entries() == std::vector<std::string>{"prog.eventlog"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(output_targets_cli)

BOOST_AUTO_TEST_CASE(dev_null_is_written_into_not_replaced) {
    auto r = run_binary({fixture("alloc.eventlog"), "-o", "/dev/null"});
    BOOST_TEST(r.status == 0, r.err);
    struct stat st {};
    BOOST_REQUIRE(::stat("/dev/null", &st) == 0);
    BOOST_TEST(S_ISCHR(st.st_mode));
    BOOST_TEST(r.out.find("Wrote /dev/null (") != std::string::npos, r.out);
    BOOST_TEST(r.out.find("(0.0 KB)") == std::string::npos, r.out);  // the bytes written, not the device's size
}

BOOST_AUTO_TEST_CASE(a_directory_is_refused_with_its_name) {
    ScratchDir dir;
    auto r = run_binary({fixture("alloc.eventlog"), "-o", dir.path.string()});
    BOOST_TEST(r.status == 1);
    BOOST_TEST(r.err == "eventlog2fxprof: error: " + dir.path.string() + ": is a directory\n");
    BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_SUITE_END()

// A conversion blocked reading a FIFO (its writer sent the start of an eventlog and waits),
// with its output's temporary file already created, is interrupted.
BOOST_AUTO_TEST_SUITE(interrupted_conversion)

void interrupt_and_check(int sig) {
    ScratchDir dir;
    const fs::path fifo = dir.path / "in.eventlog";
    BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const fs::path out = dir.path / "out.json.gz";
    pid_t pid = spawn_binary({fifo.string(), "-o", out.string()});
    const int writer = ::open(fifo.c_str(), O_WRONLY);  // waits for the conversion to open it
    BOOST_REQUIRE(writer >= 0);
    const std::string start = slurp(fixture("alloc.eventlog")).substr(0, 20000);
    BOOST_REQUIRE(::write(writer, start.data(), start.size()) == static_cast<ssize_t>(start.size()));
    // Wait (bounded, not timed) for the temporary output file: the conversion is under way.
    for (int i = 0; i < 3000 && !has_temporary(dir); ++i) std::this_thread::sleep_for(10ms);
    BOOST_REQUIRE_MESSAGE(has_temporary(dir), "no temporary output file appeared");
    BOOST_REQUIRE(::kill(pid, sig) == 0);
    const int status = wait_status(pid);
    ::close(writer);
    BOOST_TEST(status == 128 + sig);  // ended by the signal itself, as without a handler
    BOOST_TEST(dir.entries() == std::vector<std::string>{"in.eventlog"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(sigint_removes_the_temporary_file) { interrupt_and_check(SIGINT); }
BOOST_AUTO_TEST_CASE(sigterm_removes_the_temporary_file) { interrupt_and_check(SIGTERM); }

BOOST_AUTO_TEST_SUITE_END()
