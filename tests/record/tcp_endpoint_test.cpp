// HOST:PORT as attach reads it, and connecting to it: on loopback only (loopback_server.hpp).
#include <boost/test/unit_test.hpp>

#include <sys/socket.h>
#include <unistd.h>

#include "loopback_server.hpp"
#include "record/tcp_connect.hpp"
#include "record/tcp_endpoint.hpp"
#include "util/error.hpp"

using namespace el2fx::record;
using el2fx::testing::LoopbackServer;

namespace {

// The error's text, or "" when `parse_tcp_endpoint(text)` does not throw.
std::string parse_error(const std::string& text) {
    try {
        (void)parse_tcp_endpoint(text);
    } catch (const el2fx::Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tcp_endpoint)

BOOST_AUTO_TEST_CASE(ipv4_names_and_bracketed_ipv6) {
    auto v4 = parse_tcp_endpoint("127.0.0.1:4242");
    BOOST_REQUIRE(v4);
    BOOST_TEST(v4->host == "127.0.0.1");
    BOOST_TEST(v4->port == "4242");
    BOOST_TEST(v4->text() == "127.0.0.1:4242");
    auto name = parse_tcp_endpoint("localhost:04242");  // leading zeros: the same port
    BOOST_REQUIRE(name);
    BOOST_TEST(name->host == "localhost");
    BOOST_TEST(name->port == "4242");
    auto v6 = parse_tcp_endpoint("[::1]:65535");
    BOOST_REQUIRE(v6);
    BOOST_TEST(v6->host == "::1");
    BOOST_TEST(v6->text() == "[::1]:65535");
}

BOOST_AUTO_TEST_CASE(paths_and_names_without_a_port_are_not_endpoints) {
    BOOST_TEST(!parse_tcp_endpoint("./host:1"));  // a slash: always a path
    BOOST_TEST(!parse_tcp_endpoint("/run/app.sock"));
    BOOST_TEST(!parse_tcp_endpoint("app.sock"));
    BOOST_TEST(!parse_tcp_endpoint("host:http"));  // a port is numeric
    BOOST_TEST(!parse_tcp_endpoint("host:"));
    BOOST_TEST(!parse_tcp_endpoint("-"));
}

BOOST_AUTO_TEST_CASE(what_cannot_be_host_port_is_an_error_naming_it) {
    BOOST_TEST(parse_error("localhost:0") == "localhost:0: the port must be 1 to 65535");
    BOOST_TEST(parse_error("localhost:65536") == "localhost:65536: the port must be 1 to 65535");
    BOOST_TEST(parse_error("h:123456789012345678901234567890").find("1 to 65535") != std::string::npos);
    BOOST_TEST(parse_error("::1:4242").find("needs brackets before the port: [::1]:4242") != std::string::npos);
    BOOST_TEST(parse_error(":4242").find("no host before the port") != std::string::npos);
    BOOST_TEST(parse_error("[]:4242").find("no host before the port") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(connects_to_a_loopback_listener_and_reads_its_bytes) {
    LoopbackServer server(AF_INET, "hdrb", LoopbackServer::End::close);
    BOOST_REQUIRE(server.ok());
    const int fd = connect_tcp({"127.0.0.1", std::to_string(server.port())});
    BOOST_REQUIRE(fd >= 0);
    std::string got;
    char buf[16];
    for (int i = 0; i < 500 && got.size() < 4; ++i) {
        const ssize_t r = ::read(fd, buf, sizeof buf);
        if (r > 0) got.append(buf, static_cast<std::size_t>(r));
        if (r == 0) break;
        if (r < 0) ::usleep(10000);  // non-blocking
    }
    ::close(fd);
    BOOST_TEST(got == "hdrb");
}

BOOST_AUTO_TEST_CASE(refused_names_the_host_and_port) {
    const int port = LoopbackServer::closed_port();
    BOOST_REQUIRE(port > 0);
    const std::string where = "127.0.0.1:" + std::to_string(port);
    try {
        (void)connect_tcp({"127.0.0.1", std::to_string(port)});
        BOOST_FAIL("connected to a closed port");
    } catch (const el2fx::Error& e) {
        BOOST_TEST(std::string(e.what()).rfind(where + ": nothing listens on this port", 0) == 0u, e.what());
    }
}

BOOST_AUTO_TEST_SUITE_END()
