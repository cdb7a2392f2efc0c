// `eventlog2fxprof record` and `attach` as a user runs them. Cases labelled "ghc" run programs
// built by GHC from fixtures/src/record (meson test record-ghc; SKIP without GHC); the rest
// need no GHC: attach reads the fixture eventlogs from standard input, a FIFO, or a socket
// that the test serves, and the errors that come before any program runs.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

#include "fxprof/gzip.hpp"
#include "check/profile_check.hpp"
#include "attach_checks.hpp"
#include "spawned.hpp"
#include "temp_file.hpp"

using namespace el2fx::testing::attach;
using el2fx::testing::env_or_empty;
using el2fx::testing::slurp;
using el2fx::testing::Spawned;
using el2fx::testing::TempDir;

namespace {

// Serves `bytes` on a Unix socket to one client, then keeps the connection open `hold` seconds
// (a program still running) or closes it at once.
class SocketServer {
public:
    SocketServer(const std::string& path, std::string bytes, double hold) : path_(path) {
        fd_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strcpy(addr.sun_path, path.c_str());
        BOOST_REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        BOOST_REQUIRE(::listen(fd_, 1) == 0);
        thread_ = std::thread([this, bytes = std::move(bytes), hold] {
            const int c = ::accept(fd_, nullptr, nullptr);
            if (c < 0) return;
            std::size_t at = 0;
            while (at < bytes.size()) {
                const ssize_t w = ::send(c, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
                if (w <= 0) break;
                at += static_cast<std::size_t>(w);
            }
            for (int i = 0; i < hold * 100 && !stop_; ++i) ::usleep(10000);
            ::close(c);
        });
    }
    ~SocketServer() {
        stop_ = true;
        ::shutdown(fd_, SHUT_RDWR);
        thread_.join();
        ::close(fd_);
        ::unlink(path_.c_str());
    }

private:
    std::string path_;
    int fd_ = -1;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

std::vector<std::string> record_args(const Workspace& ws, std::vector<std::string> program,
                                     std::vector<std::string> options = {}) {
    std::vector<std::string> args = {binary(), "record", "--no-open", "-o", ws.out()};
    args.insert(args.end(), options.begin(), options.end());
    args.push_back("--");
    args.insert(args.end(), program.begin(), program.end());
    return args;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(record_without_ghc)

BOOST_AUTO_TEST_CASE(a_missing_program_is_one_line) {
    Workspace ws;
    Spawned run(record_args(ws, {(ws.dir.path / "prog").string(), "x"}), {}, ws.env());
    check_error(run, run.finish(kSeconds), 4, "no such program");
    Spawned in_path(record_args(ws, {"el2fx-no-such-program"}), {}, ws.env());
    check_error(in_path, in_path.finish(kSeconds), 4, "no such program in PATH");
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(a_file_that_is_not_executable_is_one_line) {
    Workspace ws;
    const std::string prog = (ws.dir.path / "prog").string();
    { std::ofstream(prog) << "GHC RTS\n"; }
    Spawned run(record_args(ws, {prog}), {}, ws.env());
    check_error(run, run.finish(kSeconds), 4, "chmod +x");
}

BOOST_AUTO_TEST_CASE(a_program_that_is_not_a_ghc_program_is_not_run) {
    Workspace ws;
    const std::string marker = (ws.dir.path / "ran").string();
    const std::string prog = (ws.dir.path / "prog").string();
    { std::ofstream(prog) << "#!/bin/sh\ntouch " << marker << "\n"; }
    ::chmod(prog.c_str(), 0755);
    Spawned run(record_args(ws, {prog}), {}, ws.env());
    check_error(run, run.finish(kSeconds), 4, "is not a GHC program");
    BOOST_TEST(!std::filesystem::exists(marker));
    BOOST_TEST(!std::filesystem::exists(ws.out()));
}

// A script that holds the RTS's strings and answers +RTS --info as GHC 9.0.2's RTS does for
// each failure: the messages, without GHC.
BOOST_AUTO_TEST_CASE(what_the_rts_answers_becomes_one_line) {
    Workspace ws;
    const std::string prog = (ws.dir.path / "prog").string();
    auto script = [&](const std::string& body) {
        { std::ofstream(prog) << "#!/bin/sh\n# GHC RTS\n" << body << "\n"; }
        ::chmod(prog.c_str(), 0755);
    };
    script(
        "echo 'prog: the flag -l requires the program to be built with -eventlog, -prof or -debug' >&2\n"
        "echo ' [(\"GHC RTS\", \"YES\")'; echo ' ,(\"GHC version\", \"9.0.2\")'; echo ' ,(\"RTS way\", \"rts_v\")'");
    Spawned no_eventlog(record_args(ws, {prog}), {}, ws.env());
    check_error(no_eventlog, no_eventlog.finish(kSeconds), 4,
                "without eventlog support (RTS way rts_v): GHC before 9.4 needs -eventlog");
    script("echo 'prog: RTS options are disabled. Link with -rtsopts to enable them.' >&2; exit 1");
    Spawned none(record_args(ws, {prog}), {}, ws.env());
    check_error(none, none.finish(kSeconds), 4, "rebuild it with `ghc -rtsopts`");
    script("echo usage >&2; exit 64");
    Spawned other(record_args(ws, {prog}), {}, ws.env());
    check_error(other, other.finish(kSeconds), 4, "did not answer +RTS --info");
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(no_program_is_a_usage_error) {
    Workspace ws;
    Spawned run({binary(), "record", "--no-open", "--"}, {}, ws.env());
    BOOST_TEST(run.finish(kSeconds) == 2);
    BOOST_TEST(run.err.find("missing PROGRAM") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(attach_without_ghc)

BOOST_AUTO_TEST_CASE(standard_input) {
    Workspace ws;
    Spawned run({binary(), "attach", "-", "-o", ws.out()}, {}, ws.env());
    run.write_input(slurp(fixture("concurrency.eventlog")));
    run.close_input();
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.err.find("warning") == std::string::npos, run.err);
    check_profile(ws.out());
    BOOST_TEST(ws.tmp_empty());
    Spawned no_output({binary(), "attach", "-"}, {}, ws.env());
    BOOST_TEST(no_output.finish(kSeconds) == 2);
    BOOST_TEST(no_output.err.find("-o FILE") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_fifo_that_a_program_writes_with_ol) {
    Workspace ws;
    const std::string fifo = (ws.dir.path / "prog.fifo").string();
    BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    Spawned run({binary(), "attach", fifo, "-o", ws.out()}, {}, ws.env());
    std::thread writer([&] {
        std::ofstream(fifo, std::ios::binary) << slurp(fixture("sparks.eventlog"));  // opens when attach reads
    });
    const int status = run.finish(kSeconds);
    writer.join();
    BOOST_TEST(status == 0);
    BOOST_TEST(run.err.find("the stream ended") != std::string::npos, run.err);
    check_profile(ws.out());
}

BOOST_AUTO_TEST_CASE(a_socket_stream_that_ends_mid_event_is_a_truncated_log) {
    Workspace ws;
    const std::string sock = (ws.dir.path / "app.sock").string();
    const std::string log = slurp(fixture("concurrency.eventlog"));
    SocketServer server(sock, log.substr(0, log.size() / 2 + 3), 0);
    Spawned run({binary(), "attach", sock}, ws.dir.path.string(), ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.err.find("truncated at byte") != std::string::npos, run.err);
    check_profile(ws.out("app.json.gz"));  // named after the socket, in the current directory
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(duration_and_ctrl_c_end_the_window) {
    Workspace ws;
    const std::string sock = (ws.dir.path / "a.sock").string();
    const std::string log = slurp(fixture("alloc.eventlog"));
    {
        SocketServer server(sock, log.substr(0, 100000), 30);  // then silent, still connected
        const auto start = std::chrono::steady_clock::now();
        Spawned run({binary(), "attach", sock, "--duration", "500ms", "-o", ws.out()}, {}, ws.env());
        BOOST_TEST(run.finish(kSeconds) == 0);
        BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(20)));
        BOOST_TEST(run.err.find("recorded 100000 bytes") != std::string::npos, run.err);
        check_profile(ws.out());
    }
    {
        SocketServer server(sock, log.substr(0, 100000), 30);
        Spawned run({binary(), "attach", sock, "-o", ws.out("b.json.gz")}, {}, ws.env());
        // Ctrl-C once attach records: a loaded machine may take longer than a fixed wait to get there.
        BOOST_TEST(run.wait_for_error_output("(Ctrl-C to stop)", kSeconds));
        ::usleep(500000);
        run.signal(SIGINT);
        BOOST_TEST(run.finish(kSeconds) == 0);
        check_profile(ws.out("b.json.gz"));
    }
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(errors_are_one_line) {
    Workspace ws;
    Spawned missing({binary(), "attach", (ws.dir.path / "none.sock").string(), "-o", ws.out()}, {}, ws.env());
    check_error(missing, missing.finish(kSeconds), 4, "no such socket");
    Spawned file({binary(), "attach", fixture("alloc.eventlog"), "-o", ws.out()}, {}, ws.env());
    check_error(file, file.finish(kSeconds), 2, "is a file, not a stream");
    const std::string sock = (ws.dir.path / "empty.sock").string();
    SocketServer server(sock, "", 0);
    Spawned empty({binary(), "attach", sock, "-o", ws.out()}, {}, ws.env());
    check_error(empty, empty.finish(kSeconds), 4, "sent no eventlog");
    BOOST_TEST(!std::filesystem::exists(ws.out()));
    BOOST_TEST(ws.tmp_empty());
    // A bare number would be nanoseconds: a unit is required.
    Spawned unitless({binary(), "attach", sock, "--duration", "30", "-o", ws.out()}, {}, ws.env());
    BOOST_TEST(unitless.finish(kSeconds) == 2);
    BOOST_TEST(unitless.err.find("--duration needs a unit: 30s, 30ms") != std::string::npos, unitless.err);
}

BOOST_AUTO_TEST_SUITE_END()

// Real programs built by GHC from fixtures/src/record.
BOOST_AUTO_TEST_SUITE(record_ghc_programs, *boost::unit_test::label("ghc"))

std::string program(const char* var) { return env_or_empty(var); }

BOOST_AUTO_TEST_CASE(normal_exit_keeps_output_and_status) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE"), "exit", "0"}), {}, ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.out == "recordee: hello on standard output\n");  // nothing of ours on it
    BOOST_TEST(run.err.find("recordee: hello on standard error\n") != std::string::npos);
    BOOST_TEST(run.err.find("+RTS -l -ol") != std::string::npos, run.err);  // the command line it ran
    BOOST_TEST(run.err.find("warning") == std::string::npos, run.err);
    check_profile(ws.out());
    BOOST_TEST(el2fx::fxprof::gunzip(slurp(ws.out())).find("hundred 100") != std::string::npos);
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(non_zero_exit_is_passed_on) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE"), "exit", "3"}), {}, ws.env());
    BOOST_TEST(run.finish(kSeconds) == 3);
    check_profile(ws.out());
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(standard_input_stays_the_programs) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE"), "echo"}), {}, ws.env());
    run.write_input("line one\nline two\n");
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.out == "line one\nline two\n");
}

BOOST_AUTO_TEST_CASE(default_output_is_named_after_the_program) {
    Workspace ws;
    Spawned run({binary(), "record", "--no-open", "-q", "--", program("EL2FX_RECORDEE"), "exit", "0"},
                ws.dir.path.string(), ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    check_profile(ws.out("recordee.json.gz"));
    BOOST_TEST(run.err == "recordee: hello on standard error\n");  // -q: only the program's own
}

BOOST_AUTO_TEST_CASE(ctrl_c_goes_to_the_program_which_finishes_its_eventlog) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE"), "wait"}), {}, ws.env());
    BOOST_REQUIRE(run.wait_for_output("ready\n", kSeconds));
    run.signal(SIGINT);
    BOOST_TEST(run.finish(kSeconds) == 128 + SIGINT);
    BOOST_TEST(run.err.find("was killed by signal 2") != std::string::npos, run.err);
    BOOST_TEST(run.err.find("truncated") == std::string::npos, run.err);  // the RTS ended it properly
    check_profile(ws.out());
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(sigterm_goes_to_the_program) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE"), "wait"}), {}, ws.env());
    BOOST_REQUIRE(run.wait_for_output("ready\n", kSeconds));
    run.signal(SIGTERM);
    BOOST_TEST(run.finish(kSeconds) == 128 + SIGTERM);
    check_profile(ws.out());
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(a_second_ctrl_c_kills_it_and_the_truncated_log_is_converted) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE"), "stubborn"}), {}, ws.env());
    BOOST_REQUIRE(run.wait_for_output("ready\n", kSeconds));
    run.signal(SIGINT);
    ::usleep(300000);
    run.signal(SIGINT);
    BOOST_TEST(run.finish(kSeconds) == 128 + SIGKILL);
    BOOST_TEST(run.err.find("truncated at byte") != std::string::npos, run.err);
    check_profile(ws.out());
    BOOST_TEST(el2fx::fxprof::gunzip(slurp(ws.out())).find("stubborn 1 ") != std::string::npos);
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(a_program_without_eventlog_support) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE_NO_EVENTLOG"), "exit", "0"}), {}, ws.env());
    check_error(run, run.finish(kSeconds), 4,
                "was built without eventlog support (RTS way rts_v): GHC before 9.4 needs -eventlog when linking");
    BOOST_TEST(run.out.empty());  // it did not run
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(a_program_without_rtsopts) {
    Workspace ws;
    Spawned none(record_args(ws, {program("EL2FX_RECORDEE_RTSOPTS_NONE"), "exit", "0"}), {}, ws.env());
    check_error(none, none.finish(kSeconds), 4, "linked with -rtsopts=none): rebuild it with `ghc -rtsopts`");
    BOOST_TEST(none.out.empty());
    // The default (-rtsopts=some) takes -l and -ol, not -hT.
    Spawned heap(record_args(ws, {program("EL2FX_RECORDEE_DEFAULT_RTSOPTS"), "exit", "0"}, {"--heap"}), {}, ws.env());
    check_error(heap, heap.finish(kSeconds), 4, "linked without -rtsopts): rebuild it with `ghc -rtsopts`");
    Spawned plain(record_args(ws, {program("EL2FX_RECORDEE_DEFAULT_RTSOPTS"), "exit", "0"}), {}, ws.env());
    BOOST_TEST(plain.finish(kSeconds) == 0);
    check_profile(ws.out());
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(a_program_that_writes_no_eventlog) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_SERVICE"), "--exit-before-rts"}), {}, ws.env());
    check_error(run, run.finish(kSeconds), 4, "exited with status 5 without writing any eventlog");
    BOOST_TEST(!std::filesystem::exists(ws.out()));
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(heap_and_an_rts_option_the_rts_rejects) {
    Workspace ws;
    Spawned heap(record_args(ws, {program("EL2FX_RECORDEE"), "exit", "0"}, {"--heap", "--interval-rts", "20ms"}),
                 ws.dir.path.string(), ws.env());
    BOOST_TEST(heap.finish(kSeconds) == 0);
    BOOST_TEST(heap.err.find("-hT -i0.02") != std::string::npos, heap.err);
    check_profile(ws.out());
    Spawned bad(record_args(ws, {program("EL2FX_RECORDEE"), "exit", "0"}, {"--rts", "-Qfoo"}), {}, ws.env());
    check_error(bad, bad.finish(kSeconds), 4, "rejects an option");
    Spawned own(record_args(ws, {program("EL2FX_RECORDEE"), "exit", "0", "+RTS", "-olmine.eventlog", "-RTS"}), {},
                ws.env());
    check_error(own, own.finish(kSeconds), 4, "already sends the eventlog elsewhere");
}

BOOST_AUTO_TEST_CASE(dry_run_prints_only_the_command_line) {
    Workspace ws;
    Spawned run(record_args(ws, {program("EL2FX_RECORDEE"), "exit", "0", "a b"}, {"--dry-run", "--sparks", "--heap"}),
                {}, ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.out.find(program("EL2FX_RECORDEE") + " +RTS -lf -ol") == 0u, run.out);
    BOOST_TEST(run.out.find("/eventlog.fifo -hT -RTS exit 0 'a b'\n") != std::string::npos, run.out);
    BOOST_TEST(run.err.empty(), run.err);
    BOOST_TEST(!std::filesystem::exists(ws.out()));
}

BOOST_AUTO_TEST_CASE(attach_records_a_window_of_a_running_service) {
    Workspace ws;
    const std::string sock = (ws.dir.path / "service.sock").string();
    Spawned service({program("EL2FX_SERVICE"), sock}, ws.dir.path.string());
    BOOST_REQUIRE(service.wait_for_output("serving", kSeconds));
    Spawned run({binary(), "attach", sock, "--duration", "2s", "-o", ws.out()}, {}, ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.err.find("recorded") != std::string::npos, run.err);
    check_profile(ws.out());
    const std::string json = el2fx::fxprof::gunzip(slurp(ws.out()));
    BOOST_TEST(json.find("tick ") != std::string::npos);  // its user events came through
    // A second client gets a fresh eventlog of its own.
    Spawned again({binary(), "attach", sock, "--duration", "2s", "-o", ws.out("2.json.gz")}, {}, ws.env());
    BOOST_TEST(again.finish(kSeconds) == 0);
    check_profile(ws.out("2.json.gz"));
    service.signal(SIGKILL);
    service.finish(kSeconds);
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(attach_reads_a_fifo_a_program_writes_with_ol) {
    Workspace ws;
    const std::string fifo = (ws.dir.path / "prog.fifo").string();
    BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    Spawned run({binary(), "attach", fifo, "-o", ws.out()}, {}, ws.env());
    Spawned prog({program("EL2FX_RECORDEE"), "exit", "0", "+RTS", "-l", "-ol" + fifo, "-RTS"});
    BOOST_TEST(prog.finish(kSeconds) == 0);
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.err.find("warning") == std::string::npos, run.err);
    check_profile(ws.out());
}

BOOST_AUTO_TEST_SUITE_END()
