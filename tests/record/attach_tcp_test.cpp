// `eventlog2fxprof attach HOST:PORT`: eventlog-socket's TCP mode, served by the test itself on
// 127.0.0.1 or ::1 (loopback_server.hpp) from the fixture eventlogs. The unknown host is
// resolved in a network namespace of its own (unshare -n), where no query leaves the machine.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/socket.h>
#include <unistd.h>

#include "attach_checks.hpp"
#include "fxprof/gzip.hpp"
#include "json_golden.hpp"
#include "loopback_server.hpp"
#include "spawned.hpp"
#include "temp_file.hpp"

using namespace el2fx::testing::attach;
using el2fx::testing::LoopbackServer;
using el2fx::testing::slurp;
using el2fx::testing::Spawned;

namespace {

std::string json_of(const std::string& path) { return el2fx::fxprof::gunzip(slurp(path)); }

// The profile of the fixture converted as a file, for comparison.
std::string converted(const Workspace& ws, const std::string& name) {
    const std::string out = ws.out("converted-" + name + ".json.gz");
    Spawned run({binary(), fixture(name), "-q", "-o", out}, {}, ws.env());
    BOOST_REQUIRE(run.finish(kSeconds) == 0);
    return json_of(out);
}

void check_same_profile(const std::string& got, const std::string& want) {
    const rapidjson::Document a = el2fx::testing::parse_golden_json(got);
    const rapidjson::Document b = el2fx::testing::parse_golden_json(want);
    const std::string difference = el2fx::testing::first_json_difference(a, b, "$");
    BOOST_TEST(difference.empty(), difference);
}

const char* const kUnshare = "/usr/bin/unshare";

// Whether a network namespace of our own can be had (root, or user namespaces allowed).
boost::test_tools::assertion_result can_unshare_network(boost::unit_test::test_unit_id) {
    if (::access(kUnshare, X_OK) != 0) return boost::test_tools::assertion_result(false);
    Spawned probe({kUnshare, "-n", "true"});
    return probe.finish(10) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attach_over_tcp)

BOOST_AUTO_TEST_CASE(the_profile_is_the_one_of_the_file) {
    Workspace ws;
    const std::string log = slurp(fixture("concurrency.eventlog"));
    LoopbackServer server(AF_INET, log, LoopbackServer::End::close);
    BOOST_REQUIRE(server.ok());
    const std::string address = "127.0.0.1:" + std::to_string(server.port());
    Spawned run({binary(), "attach", address}, ws.dir.path.string(), ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.err.find("recording " + address) != std::string::npos, run.err);
    BOOST_TEST(run.err.find("the stream ended after " + std::to_string(log.size()) + " bytes") != std::string::npos,
               run.err);
    BOOST_TEST(run.err.find("warning") == std::string::npos, run.err);
    // Named after the host and port, in the current directory.
    const std::string out = ws.out("127.0.0.1-" + std::to_string(server.port()) + ".json.gz");
    check_profile(out);
    check_same_profile(json_of(out), converted(ws, "concurrency.eventlog"));
    BOOST_TEST(ws.tmp_empty());
}

// "localhost" may resolve to ::1 before 127.0.0.1: the server is on 127.0.0.1 only, and every
// address is tried.
BOOST_AUTO_TEST_CASE(a_host_name_and_an_ipv6_address) {
    Workspace ws;
    const std::string log = slurp(fixture("sparks.eventlog"));
    {
        LoopbackServer server(AF_INET, log, LoopbackServer::End::close);
        BOOST_REQUIRE(server.ok());
        Spawned run({binary(), "attach", "localhost:" + std::to_string(server.port()), "-o", ws.out("name.json.gz")},
                    {}, ws.env());
        BOOST_TEST(run.finish(kSeconds) == 0, run.err);
        check_profile(ws.out("name.json.gz"));
    }
    LoopbackServer server(AF_INET6, log, LoopbackServer::End::close);
    if (!server.ok()) {
        BOOST_TEST_MESSAGE("no IPv6 loopback here: [::1] not tried");
        return;
    }
    Spawned run({binary(), "attach", "[::1]:" + std::to_string(server.port())}, ws.dir.path.string(), ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0, run.err);
    BOOST_TEST(run.err.find("recording [::1]:") != std::string::npos, run.err);
    check_profile(ws.out("__1-" + std::to_string(server.port()) + ".json.gz"));
    check_same_profile(json_of(ws.out("__1-" + std::to_string(server.port()) + ".json.gz")),
                       converted(ws, "sparks.eventlog"));
}

BOOST_AUTO_TEST_CASE(closed_early_is_a_truncated_log) {
    Workspace ws;
    const std::string log = slurp(fixture("concurrency.eventlog"));
    LoopbackServer server(AF_INET, log.substr(0, log.size() / 2 + 3), LoopbackServer::End::close);
    BOOST_REQUIRE(server.ok());
    Spawned run({binary(), "attach", "127.0.0.1:" + std::to_string(server.port()), "-o", ws.out()}, {}, ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.err.find("truncated at byte") != std::string::npos, run.err);
    check_profile(ws.out());
}

BOOST_AUTO_TEST_CASE(reset_mid_stream_keeps_what_came) {
    Workspace ws;
    const std::string log = slurp(fixture("concurrency.eventlog"));
    const std::string half = log.substr(0, log.size() / 2 + 3);
    LoopbackServer server(AF_INET, half, LoopbackServer::End::reset);
    BOOST_REQUIRE(server.ok());
    Spawned run({binary(), "attach", "127.0.0.1:" + std::to_string(server.port()), "-o", ws.out()}, {}, ws.env());
    BOOST_TEST(run.finish(kSeconds) == 0);
    BOOST_TEST(run.err.find("the stream ended after " + std::to_string(half.size()) + " bytes") != std::string::npos,
               run.err);
    BOOST_TEST(run.err.find("truncated at byte") != std::string::npos, run.err);
    check_profile(ws.out());
}

BOOST_AUTO_TEST_CASE(duration_and_ctrl_c_end_the_window) {
    Workspace ws;
    const std::string log = slurp(fixture("alloc.eventlog"));
    {
        LoopbackServer server(AF_INET, log.substr(0, 100000), LoopbackServer::End::hold, 30);
        BOOST_REQUIRE(server.ok());
        const auto start = std::chrono::steady_clock::now();
        Spawned run(
            {binary(), "attach", "127.0.0.1:" + std::to_string(server.port()), "--duration", "500ms", "-o", ws.out()},
            {}, ws.env());
        BOOST_TEST(run.finish(kSeconds) == 0);
        BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(20)));
        BOOST_TEST(run.err.find("recorded 100000 bytes") != std::string::npos, run.err);
        check_profile(ws.out());
    }
    {
        LoopbackServer server(AF_INET, log.substr(0, 100000), LoopbackServer::End::hold, 30);
        BOOST_REQUIRE(server.ok());
        Spawned run({binary(), "attach", "127.0.0.1:" + std::to_string(server.port()), "-o", ws.out("b.json.gz")}, {},
                    ws.env());
        // Ctrl-C once attach records and the bytes are on their way: a loaded machine may take
        // longer than any fixed wait to get there.
        BOOST_TEST(run.wait_for_error_output("(Ctrl-C to stop)", kSeconds));
        for (int i = 0; i < 1000 && !server.sent(); ++i) ::usleep(10000);
        ::usleep(300000);
        run.signal(SIGINT);
        BOOST_TEST(run.finish(kSeconds) == 0);
        check_profile(ws.out("b.json.gz"));
    }
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(refused_and_silent_are_one_line) {
    Workspace ws;
    const int port = LoopbackServer::closed_port();
    BOOST_REQUIRE(port > 0);
    const std::string address = "127.0.0.1:" + std::to_string(port);
    Spawned refused({binary(), "attach", address, "-o", ws.out()}, {}, ws.env());
    check_error(refused, refused.finish(kSeconds), 4, address + ": nothing listens on this port");
    // A server that accepts and closes without a byte: nothing came.
    LoopbackServer empty(AF_INET, "", LoopbackServer::End::close);
    BOOST_REQUIRE(empty.ok());
    Spawned nothing({binary(), "attach", "127.0.0.1:" + std::to_string(empty.port()), "-o", ws.out()}, {}, ws.env());
    check_error(nothing, nothing.finish(kSeconds), 4, "sent no eventlog");
    BOOST_TEST(!std::filesystem::exists(ws.out()));
    BOOST_TEST(ws.tmp_empty());
}

BOOST_AUTO_TEST_CASE(an_unknown_host_is_an_error_not_a_hang, *boost::unit_test::precondition(can_unshare_network)) {
    Workspace ws;
    const auto start = std::chrono::steady_clock::now();
    Spawned run({kUnshare, "-n", binary(), "attach", "nonexistent.invalid:1", "-o", ws.out()}, {}, ws.env());
    check_error(run, run.finish(kSeconds), 4, "nonexistent.invalid:1: cannot resolve the host nonexistent.invalid");
    BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(30)));
}

// An existing file wins over HOST:PORT; a slash makes a path; what is meant as HOST:PORT but
// cannot be one is a usage error.
BOOST_AUTO_TEST_CASE(paths_and_addresses_are_told_apart) {
    Workspace ws;
    { std::ofstream(ws.dir.path / "host:1") << slurp(fixture("alloc.eventlog")); }
    Spawned file({binary(), "attach", "host:1", "-o", ws.out()}, ws.dir.path.string(), ws.env());
    check_error(file, file.finish(kSeconds), 2, "host:1 is a file, not a stream");
    Spawned path({binary(), "attach", "./other:1", "-o", ws.out()}, ws.dir.path.string(), ws.env());
    check_error(path, path.finish(kSeconds), 4, "./other:1: no such socket");
    Spawned bare_ipv6({binary(), "attach", "::1:4242", "-o", ws.out()}, ws.dir.path.string(), ws.env());
    check_error(bare_ipv6, bare_ipv6.finish(kSeconds), 2, "needs brackets before the port: [::1]:4242");
    Spawned port_zero({binary(), "attach", "localhost:0", "-o", ws.out()}, ws.dir.path.string(), ws.env());
    check_error(port_zero, port_zero.finish(kSeconds), 2, "localhost:0: the port must be 1 to 65535");
}

BOOST_AUTO_TEST_SUITE_END()
