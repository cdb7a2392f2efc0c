// `eventlog2fxprof serve` and `--open` end to end: the binary runs as a child process,
// prints its link, answers the profiler's CORS preflight and fetch over loopback, refuses
// other paths, and exits 0 on SIGINT. Every wait is bounded.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <poll.h>
#include <regex>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "http_client.hpp"
#include "run_process.hpp"
#include "serve/url.hpp"
#include "temp_file.hpp"

using el2fx::testing::slurp;
using el2fx::testing::TempDir;

namespace fs = std::filesystem;
using el2fx::testing::HttpResponse;
using el2fx::testing::Socket;
using namespace std::chrono_literals;

namespace {

// The binary as a running child, its output read as it comes.
class Child {
public:
    explicit Child(std::vector<std::string> args) {
        args.insert(args.begin(), el2fx::testing::binary_path());
        int out[2], err[2];
        if (::pipe(out) || ::pipe(err)) throw std::runtime_error("pipe");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_adddup2(&actions, err[1], 2);
        for (int fd : {out[0], out[1], err[0], err[1]}) posix_spawn_file_actions_addclose(&actions, fd);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        // No desktop for the child: it must not try to start a browser.
        std::vector<std::string> env_strings;
        for (char** e = environ; *e; ++e) {
            std::string kv = *e;
            if (kv.rfind("DISPLAY=", 0) != 0 && kv.rfind("WAYLAND_DISPLAY=", 0) != 0) env_strings.push_back(kv);
        }
        std::vector<char*> env;
        for (auto& kv : env_strings) env.push_back(kv.data());
        env.push_back(nullptr);
        int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), env.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(out[1]);
        ::close(err[1]);
        out_ = out[0];
        err_ = err[0];
        if (rc != 0) throw std::runtime_error("posix_spawn failed");
    }
    ~Child() {
        if (pid_ > 0 && status_ < 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        ::close(out_);
        ::close(err_);
    }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    // Reads standard output until `pattern` matches (or the deadline passes).
    std::smatch wait_for(const std::regex& pattern, std::chrono::milliseconds limit = 60s) {
        auto deadline = std::chrono::steady_clock::now() + limit;
        std::smatch m;
        while (!std::regex_search(out, m, pattern)) {
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left <= 0ms || !pump(static_cast<int>(left.count())))
                throw std::runtime_error("no match in the output: [" + out + "] [" + err + "]");
        }
        return m;
    }

    // SIGINT, then the exit status (-1 if it does not exit within the limit).
    int interrupt(std::chrono::milliseconds limit = 10s) {
        ::kill(pid_, SIGINT);
        auto deadline = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            pid_t r = ::waitpid(pid_, &status, WNOHANG);
            if (r == pid_) {
                status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                while (pump(0)) {}
                return status_;
            }
            pump(50);
        }
        return -1;
    }

    std::string out, err;

private:
    // Reads what is there within `ms`; false at the end of both streams or on timeout.
    bool pump(int ms) {
        pollfd fds[2] = {{out_, POLLIN, 0}, {err_, POLLIN, 0}};
        if (::poll(fds, 2, ms) <= 0) return false;
        bool any = false;
        char buf[4096];
        for (auto& f : fds) {
            if (!f.revents) continue;
            ssize_t r = ::read(f.fd, buf, sizeof buf);
            if (r > 0) {
                (f.fd == out_ ? out : err).append(buf, static_cast<std::size_t>(r));
                any = true;
            }
        }
        return any;
    }

    pid_t pid_ = -1;
    int out_ = -1, err_ = -1;
    int status_ = -1;
};

const std::regex kServing(R"(Serving (\S+) at http://127\.0\.0\.1:(\d+)(/([0-9a-f]+)/(\S+))\n)");
const std::regex kOpenLink(R"(Open it in the Firefox Profiler: (\S+)\n)");

}  // namespace

BOOST_AUTO_TEST_CASE(serve_answers_the_profilers_preflight_and_fetch_then_stops_on_sigint) {
    TempDir dir;
    fs::path profile = dir.path / "prog.json.gz";
    auto converted = el2fx::testing::run_binary(
        {"convert", el2fx::testing::env_dir("EL2FX_FIXTURES") + "/userevents.eventlog", "-o", profile.string()});
    BOOST_REQUIRE(converted.status == 0);
    std::string bytes = slurp(profile);

    // Hold port 3000 (if nobody else does): serve must take the next free one.
    int holder = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(3000);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool held = ::bind(holder, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 && ::listen(holder, 1) == 0;

    Child child({"serve", profile.string()});
    std::smatch m = child.wait_for(kServing);
    std::string url = "http://127.0.0.1:" + m[2].str() + m[3].str();
    auto port = static_cast<std::uint16_t>(std::stoi(m[2].str()));
    std::string path = m[3].str(), token = m[4].str();
    BOOST_TEST(m[1].str() == "prog.json.gz");
    BOOST_TEST(m[5].str() == "prog.json.gz");
    BOOST_TEST(token.size() == 32u);  // 128 random bits
    if (held) BOOST_TEST(port > 3000);
    BOOST_TEST(port >= 3000);
    BOOST_TEST(port < 3100);
    std::smatch link = child.wait_for(kOpenLink);
    BOOST_TEST(link[1].str() == "https://profiler.firefox.com/from-url/" + el2fx::serve::percent_encode(url) + "/");
    child.wait_for(std::regex("ssh -L " + m[2].str() + ":127\\.0\\.0\\.1:" + m[2].str()));
    child.wait_for(std::regex("Ctrl-C"));

    // The profiler's page (another origin) asks first, then fetches.
    HttpResponse pre = el2fx::testing::http_exchange(
        port, "OPTIONS " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + m[2].str() +
                  "\r\nOrigin: https://profiler.firefox.com\r\nAccess-Control-Request-Method: GET\r\n\r\n");
    BOOST_TEST(pre.status == 204);
    BOOST_TEST(pre.header("access-control-allow-origin") == "*");
    BOOST_TEST(pre.header("access-control-allow-methods").find("GET") != std::string::npos);
    {
        Socket c(port);
        c.send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + m[2].str() +
               "\r\nOrigin: https://profiler.firefox.com\r\nAccept: */*\r\n\r\n");
        HttpResponse get = c.read_response();
        BOOST_TEST(get.status == 200);
        BOOST_TEST(get.header("access-control-allow-origin") == "*");
        BOOST_TEST(get.header("content-type") == "application/gzip");
        BOOST_TEST(get.header("content-length") == std::to_string(bytes.size()));
        BOOST_TEST((get.body == bytes));
        // Same connection: a wrong token, a path around it, another method.
        std::string other = path;
        other[1] = other[1] == '0' ? '1' : '0';
        for (const std::string& wrong : {other, "/" + token, "/" + token + "/../prog.json.gz", std::string("/")}) {
            c.send("GET " + wrong + " HTTP/1.1\r\nHost: x\r\n\r\n");
            HttpResponse r = c.read_response();
            BOOST_TEST(r.status == 404, wrong);
            BOOST_TEST(r.header("access-control-allow-origin") == "<none>");
        }
        c.send("DELETE " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
        BOOST_TEST(c.read_response().status == 405);
    }
    BOOST_TEST(child.interrupt() == 0, child.err);
    // The log shows the secret path's first 4 characters only.
    const std::string logged = "/" + token.substr(0, 4) + "\u2026/prog.json.gz";
    BOOST_TEST(child.err.find("GET " + logged + " 200 " + std::to_string(bytes.size()) + "\n") != std::string::npos,
               child.err);
    BOOST_TEST(child.err.find("OPTIONS " + logged + " 204 0\n") != std::string::npos, child.err);
    BOOST_TEST(child.err.find(token) == std::string::npos, child.err);
    ::close(holder);
}

BOOST_AUTO_TEST_CASE(open_converts_then_serves_and_sigterm_stops_it) {
    TempDir dir;
    fs::path log = dir.path / "sparks.eventlog";
    fs::copy_file(el2fx::testing::env_dir("EL2FX_FIXTURES") + "/sparks.eventlog", log);
    Child child({log.string(), "--open", "--port", "0", "--profiler-url", "http://127.0.0.1:4242/"});
    std::smatch m = child.wait_for(kServing);
    BOOST_TEST(m[1].str() == "sparks.json.gz");
    std::smatch link = child.wait_for(kOpenLink);
    BOOST_TEST(link[1].str().rfind("http://127.0.0.1:4242/from-url/http%3A%2F%2F127.0.0.1%3A", 0) == 0u);
    auto port = static_cast<std::uint16_t>(std::stoi(m[2].str()));
    HttpResponse get = el2fx::testing::http_exchange(port, "GET " + m[3].str() + " HTTP/1.1\r\nHost: x\r\n\r\n");
    BOOST_TEST(get.status == 200);
    BOOST_TEST((get.body == slurp(dir.path / "sparks.json.gz")));
    BOOST_TEST(child.interrupt() == 0);
}

BOOST_AUTO_TEST_CASE(serve_refuses_what_it_cannot_serve) {
    auto missing = el2fx::testing::run_binary({"serve", "/nonexistent/p.json.gz"});
    BOOST_TEST(missing.status == 1);
    BOOST_TEST(missing.err.find("no such file") != std::string::npos);
    auto none = el2fx::testing::run_binary({"serve"});
    BOOST_TEST(none.status == 2);
    auto stdout_open = el2fx::testing::run_binary(
        {el2fx::testing::env_dir("EL2FX_FIXTURES") + "/sparks.eventlog", "-o", "-", "--open"});
    BOOST_TEST(stdout_open.status == 2);
    auto device_open = el2fx::testing::run_binary(
        {el2fx::testing::env_dir("EL2FX_FIXTURES") + "/sparks.eventlog", "-o", "/dev/null", "--open"});
    BOOST_TEST(device_open.status == 2);
    BOOST_TEST(device_open.err.find("--open needs a regular file") != std::string::npos, device_open.err);
    auto bad_address = el2fx::testing::run_binary(
        {"serve", "--address", "example.com", el2fx::testing::env_dir("EL2FX_FIXTURES") + "/sparks.eventlog"});
    BOOST_TEST(bad_address.status == 1);
    // An output that cannot be made: one line, one colon after the name (once "x.json.gz::").
    auto unwritable = el2fx::testing::run_binary(
        {el2fx::testing::env_dir("EL2FX_FIXTURES") + "/sparks.eventlog", "-o", "/nonexistent/x.json.gz", "--open"});
    BOOST_TEST(unwritable.status == 1);
    BOOST_TEST(unwritable.err ==
               "eventlog2fxprof: error: /nonexistent/x.json.gz: cannot create a temporary file in "
               "/nonexistent/: No such file or directory\n");
}
