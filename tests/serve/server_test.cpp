// The server loop in-process over loopback sockets: keep-alive, pipelining, many and
// concurrent connections, slow and bad clients, timeouts, vanished files, stopping.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>
#include <unistd.h>

#include "http_client.hpp"
#include "serve/server.hpp"
#include "util/error.hpp"

namespace fs = std::filesystem;
using namespace el2fx;
using namespace el2fx::serve;
using el2fx::testing::HttpResponse;
using el2fx::testing::Socket;
using namespace std::chrono_literals;

namespace {

std::string random_bytes(std::size_t n) {
    std::mt19937 rng(42);
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
}

std::string slurp_file(std::FILE* f) {
    std::fflush(f);
    std::rewind(f);
    std::string s;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    return s;
}

// A server on an ephemeral loopback port serving one file, run on a thread.
struct RunningServer {
    fs::path dir;
    std::string content;
    std::unique_ptr<Server> server;
    int stop[2] = {-1, -1};
    std::FILE* log = std::tmpfile();
    std::thread thread;

    explicit RunningServer(ServerOptions options = {}, std::size_t size = 300 * 1024) {
        dir = fs::temp_directory_path() / ("el2fx-serve-" + std::to_string(::getpid()) + "-" +
                                           std::to_string(reinterpret_cast<std::uintptr_t>(this)));
        fs::create_directories(dir);
        content = random_bytes(size);
        std::ofstream(dir / "prog.json.gz", std::ios::binary) << content;
        options.port = 0;
        server = std::make_unique<Server>(
            options, files_under_token({(dir / "prog.json.gz").string()}, "00112233445566778899aabbccddeeff"));
        if (::pipe(stop) != 0) throw std::runtime_error("pipe");
        thread = std::thread([this] { server->run(stop[0], log); });
    }
    ~RunningServer() { shut_down(); }
    void shut_down() {
        if (!thread.joinable()) return;
        char b = 1;
        [[maybe_unused]] ssize_t n = ::write(stop[1], &b, 1);
        thread.join();
        ::close(stop[0]);
        ::close(stop[1]);
        fs::remove_all(dir);
    }
    std::uint16_t port() const { return server->port(); }
    std::string path() const { return server->files()[0].url_path; }
    std::string get(const std::string& extra = "") const {
        return "GET " + path() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + "\r\n";
    }
    std::string log_text() {
        shut_down();
        return slurp_file(log);
    }
};

}  // namespace

BOOST_AUTO_TEST_CASE(get_sends_the_file_and_head_its_length) {
    RunningServer s;
    BOOST_TEST(s.server->loopback_only());
    BOOST_TEST(s.server->origin() == "http://127.0.0.1:" + std::to_string(s.port()));
    HttpResponse r = testing::http_exchange(s.port(), s.get("Origin: http://127.0.0.1:4242\r\n"));
    BOOST_TEST(r.status == 200);
    BOOST_TEST(r.body.size() == s.content.size());
    BOOST_TEST((r.body == s.content));
    BOOST_TEST(r.header("content-type") == "application/gzip");
    BOOST_TEST(r.header("access-control-allow-origin") == "*");
    HttpResponse h = testing::http_exchange(s.port(), "HEAD " + s.path() + " HTTP/1.1\r\nHost: x\r\n\r\n", true);
    BOOST_TEST(h.status == 200);
    BOOST_TEST(h.header("content-length") == std::to_string(s.content.size()));
    BOOST_TEST(h.body.empty());
}

BOOST_AUTO_TEST_CASE(one_connection_carries_several_requests_even_pipelined) {
    RunningServer s;
    Socket c(s.port());
    c.send(s.get());
    BOOST_TEST((c.read_response().body == s.content));
    // Three at once, in one write.
    c.send("HEAD " + s.path() + " HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n" + s.get());
    BOOST_TEST(c.read_response(true).status == 200);
    BOOST_TEST(c.read_response().status == 404);
    HttpResponse last = c.read_response();
    BOOST_TEST(last.status == 200);
    BOOST_TEST((last.body == s.content));
    c.send(s.get("Connection: close\r\n"));
    BOOST_TEST(c.read_response().header("connection") == "close");
    BOOST_TEST(c.closed_by_server());
}

BOOST_AUTO_TEST_CASE(many_sequential_and_concurrent_connections) {
    RunningServer s({}, 20 * 1024);
    for (int i = 0; i < 150; ++i) {
        HttpResponse r = testing::http_exchange(s.port(), s.get("Connection: close\r\n"));
        BOOST_REQUIRE(r.status == 200);
        BOOST_REQUIRE(r.body.size() == s.content.size());
    }
    std::vector<std::unique_ptr<Socket>> clients;
    for (int i = 0; i < 20; ++i) clients.push_back(std::make_unique<Socket>(s.port()));
    for (auto& c : clients) c->send(s.get().substr(0, 10));  // all of them half-way through a request
    for (auto& c : clients) c->send(s.get().substr(10));
    for (auto& c : clients) BOOST_TEST((c->read_response().body == s.content));
}

BOOST_AUTO_TEST_CASE(a_big_file_is_streamed_and_a_client_leaving_early_does_no_harm) {
    RunningServer s({}, 8 * 1024 * 1024);
    {
        Socket quitter(s.port());
        quitter.send(s.get());
        quitter.fill();  // a little, then gone
    }
    HttpResponse r = testing::http_exchange(s.port(), s.get());
    BOOST_TEST(r.status == 200);
    BOOST_TEST((r.body == s.content));
    std::string log = s.log_text();
    BOOST_TEST(log.find("(aborted)") != std::string::npos, log);
    BOOST_TEST(log.find("GET /0011\u2026/prog.json.gz 200 8388608\n") != std::string::npos, log);
}

BOOST_AUTO_TEST_CASE(slow_idle_and_oversized_requests_are_cut_off) {
    ServerOptions fast;
    fast.request_timeout = 300ms;
    RunningServer s(fast);
    auto started = std::chrono::steady_clock::now();
    {
        Socket slow(s.port());
        slow.send("GET / HTTP/1.1\r\nHost: x\r\n");  // never finishes its head
        HttpResponse r = slow.read_response();
        BOOST_TEST(r.status == 408);
        BOOST_TEST(slow.closed_by_server());
    }
    {
        Socket idle(s.port());
        BOOST_TEST(idle.closed_by_server());  // nothing sent: closed quietly
        BOOST_TEST(idle.buffered().empty());
    }
    BOOST_TEST((std::chrono::steady_clock::now() - started < 4s));
    {
        Socket big(s.port());
        big.send("GET / HTTP/1.1\r\nHost: x\r\nX: " + std::string(20000, 'a'));
        BOOST_TEST(big.read_response().status == 431);
        BOOST_TEST(big.closed_by_server());
    }
    {
        Socket junk(s.port());
        junk.send(std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11));
        BOOST_TEST(junk.read_response().status == 400);
        BOOST_TEST(junk.closed_by_server());
    }
    {
        Socket body(s.port());  // only a POST may have a body
        body.send("GET " + s.path() + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
        BOOST_TEST(body.read_response().status == 413);
        BOOST_TEST(body.closed_by_server());
    }
    {
        Socket post(s.port());  // a small POST body is read (for /source/v1); the profile's path refuses POST
        post.send("POST " + s.path() + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
        BOOST_TEST(post.read_response().status == 405);
        Socket big(s.port());
        big.send("POST " + s.path() + " HTTP/1.1\r\nHost: x\r\nContent-Length: 16385\r\n\r\n");
        BOOST_TEST(big.read_response().status == 413);
        BOOST_TEST(big.closed_by_server());
    }
    {
        Socket old(s.port());
        old.send("GET " + s.path() + " HTTP/1.0\r\n\r\n");  // no Host needed, closes after
        BOOST_TEST((old.read_response().body == s.content));
        BOOST_TEST(old.closed_by_server());
    }
    // The server still answers after all that.
    BOOST_TEST(testing::http_exchange(s.port(), s.get()).status == 200);
    std::string log = s.log_text();
    BOOST_TEST(log.find("- - 408 ") != std::string::npos, log);
    BOOST_TEST(log.find("- - 431 ") != std::string::npos, log);
}

BOOST_AUTO_TEST_CASE(request_lines_are_logged_safely) {
    RunningServer s;
    testing::http_exchange(s.port(), "GET /a%1b[31mred\\x HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string log = s.log_text();
    BOOST_TEST(log.find("127.0.0.1 GET /a%1b[31mred\\x5cx 404 10\n") != std::string::npos, log);
}

BOOST_AUTO_TEST_CASE(the_log_shows_only_the_start_of_the_secret_path) {
    RunningServer s;
    const std::string token = "00112233445566778899aabbccddeeff";
    BOOST_TEST(testing::http_exchange(s.port(), s.get()).status == 200);
    testing::http_exchange(s.port(), "GET /x/" + token + "/" + token + " HTTP/1.1\r\nHost: x\r\n\r\n");
    std::string log = s.log_text();
    BOOST_TEST(log.find(token) == std::string::npos, log);
    BOOST_TEST(log.find("GET /0011\u2026/prog.json.gz 200 ") != std::string::npos, log);
    BOOST_TEST(log.find("GET /x/0011\u2026/0011\u2026 404 ") != std::string::npos, log);
}

// Idle connections, however many, never lock new clients out: at the cap, the one idle the
// longest makes room. Without that, a new client waits for an idle one's timeout (10 s),
// longer than the test client waits for its answer (5 s).
BOOST_AUTO_TEST_CASE(idle_connections_at_the_cap_make_room_for_a_new_client) {
    ServerOptions options;
    options.max_connections = 16;
    RunningServer s(options, 1000);
    std::vector<std::unique_ptr<Socket>> idle;
    // Keep-alive clients that had an answer, then clients that never send anything: three
    // times the cap.
    for (int i = 0; i < 8; ++i) {
        idle.push_back(std::make_unique<Socket>(s.port()));
        idle.back()->send(s.get());
        BOOST_REQUIRE(idle.back()->read_response().status == 200);
    }
    for (int i = 0; i < 40; ++i) idle.push_back(std::make_unique<Socket>(s.port()));
    // A client in the middle of a request is not idle: it keeps its connection.
    Socket partial(s.port());
    partial.send(s.get().substr(0, 12));
    for (int i = 0; i < 5; ++i) {
        HttpResponse r = testing::http_exchange(s.port(), s.get());
        BOOST_TEST(r.status == 200);
        BOOST_TEST((r.body == s.content));
    }
    partial.send(s.get().substr(12));
    BOOST_TEST((partial.read_response().body == s.content));
    // The oldest idle ones were closed to make room.
    BOOST_TEST(idle.front()->closed_by_server());
}

BOOST_AUTO_TEST_CASE(a_vanished_file_is_a_500_not_a_crash) {
    RunningServer s;
    fs::remove(s.dir / "prog.json.gz");
    BOOST_TEST(testing::http_exchange(s.port(), s.get()).status == 500);
    std::ofstream(s.dir / "prog.json.gz", std::ios::binary) << "new";  // replaced: served afresh
    BOOST_TEST(testing::http_exchange(s.port(), s.get()).body == "new");
}

BOOST_AUTO_TEST_CASE(stopping_is_prompt_even_with_open_connections) {
    RunningServer s;
    Socket idle(s.port());
    Socket half(s.port());
    half.send("GET / HT");
    auto started = std::chrono::steady_clock::now();
    s.shut_down();
    BOOST_TEST((std::chrono::steady_clock::now() - started < 2s));
    BOOST_TEST(idle.closed_by_server());
}

BOOST_AUTO_TEST_CASE(ports_are_chosen_from_a_range_or_exactly) {
    // Hold a port, then ask for the first free one from there.
    Server holder(ServerOptions{.port = 0}, {});
    ServerOptions from;
    from.first_port = holder.port();
    from.port_tries = 20;
    Server next(from, {});
    BOOST_TEST(next.port() != holder.port());
    BOOST_TEST(next.port() > holder.port());
    BOOST_TEST(next.port() < holder.port() + 20);
    BOOST_CHECK_THROW(Server(ServerOptions{.port = holder.port()}, {}), Error);              // exactly that one: busy
    BOOST_CHECK_THROW(Server(ServerOptions{.address = "localhost", .port = 0}, {}), Error);  // numeric only
    BOOST_CHECK_THROW(Server(ServerOptions{.address = "127.0.0.1; rm", .port = 0}, {}), Error);
}
