// The request-head parser on good, odd and malformed input.
#include <boost/test/unit_test.hpp>

#include <string>

#include "serve/http_request.hpp"

using namespace el2fx::serve;

namespace {

ParseResult parse(const std::string& text, HttpRequest* out = nullptr) {
    HttpRequest r;
    ParseResult result = parse_request_head(text, r);
    if (out) *out = r;
    return result;
}

ParseStatus status(const std::string& text) { return parse(text).status; }

}  // namespace

BOOST_AUTO_TEST_CASE(a_plain_get_is_parsed) {
    HttpRequest r;
    std::string text =
        "GET /abc/p.json.gz?x=1 HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nOrigin:  https://profiler.firefox.com \r\n\r\nNEXT";
    ParseResult result = parse(text, &r);
    BOOST_TEST(int(result.status) == int(ParseStatus::complete));
    BOOST_TEST(result.head_size == text.size() - 4);  // the pipelined rest is left alone
    BOOST_TEST(r.method == "GET");
    BOOST_TEST(r.target == "/abc/p.json.gz?x=1");
    BOOST_TEST(r.path == "/abc/p.json.gz");
    BOOST_TEST(r.minor_version == 1);
    BOOST_REQUIRE(r.header("origin"));
    BOOST_TEST(*r.header("origin") == "https://profiler.firefox.com");
    BOOST_TEST(*r.header("host") == "127.0.0.1:3000");
    BOOST_TEST(r.keep_alive());
}

BOOST_AUTO_TEST_CASE(bare_line_feeds_and_leading_empty_lines_are_accepted) {
    HttpRequest r;
    BOOST_TEST(int(parse("\r\nGET / HTTP/1.0\n\n", &r).status) == int(ParseStatus::complete));
    BOOST_TEST(r.minor_version == 0);
    BOOST_TEST(!r.keep_alive());  // HTTP/1.0 closes unless asked
    BOOST_TEST(int(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &r).status) == int(ParseStatus::complete));
    BOOST_TEST(r.keep_alive());
    BOOST_TEST(int(parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: foo, close\r\n\r\n", &r).status) ==
               int(ParseStatus::complete));
    BOOST_TEST(!r.keep_alive());
}

BOOST_AUTO_TEST_CASE(absolute_form_targets_give_their_path) {
    HttpRequest r;
    BOOST_TEST(int(parse("GET http://127.0.0.1:3000/t/p.json?q HTTP/1.1\r\nHost: a\r\n\r\n", &r).status) ==
               int(ParseStatus::complete));
    BOOST_TEST(r.path == "/t/p.json");
    BOOST_TEST(int(parse("GET HTTP://h HTTP/1.1\r\nHost: a\r\n\r\n", &r).status) == int(ParseStatus::complete));
    BOOST_TEST(r.path == "/");
    BOOST_TEST(int(status("GET https://h/x HTTP/1.1\r\nHost: a\r\n\r\n")) == int(ParseStatus::bad_request));
    BOOST_TEST(int(status("CONNECT h:443 HTTP/1.1\r\nHost: a\r\n\r\n")) == int(ParseStatus::bad_request));
    BOOST_TEST(int(parse("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", &r).status) == int(ParseStatus::complete));
    BOOST_TEST(int(status("GET * HTTP/1.1\r\nHost: a\r\n\r\n")) == int(ParseStatus::bad_request));
}

BOOST_AUTO_TEST_CASE(an_unfinished_head_asks_for_more) {
    BOOST_TEST(int(status("")) == int(ParseStatus::incomplete));
    BOOST_TEST(int(status("GE")) == int(ParseStatus::incomplete));
    BOOST_TEST(int(status("GET / HTTP/1.1\r\nHost: x\r\n")) == int(ParseStatus::incomplete));
    BOOST_TEST(int(status("GET / HTTP/1.1\r\nHost: x\r\n\r")) == int(ParseStatus::incomplete));
}

BOOST_AUTO_TEST_CASE(malformed_heads_are_refused) {
    for (const char* bad : {
             "GET\r\n\r\n",                                       // no target, no version
             "GET /\r\nHost: x\r\n\r\n",                          // no version
             "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",                // two spaces
             "GET / HTTP/1.1 \r\nHost: x\r\n\r\n",                // trailing space
             "G(T / HTTP/1.1\r\nHost: x\r\n\r\n",                 // not a token
             "GET / HTTP/1.1\r\nHost: x\r\nBad Name: v\r\n\r\n",  // space in a header name
             "GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n",
             "GET / HTTP/1.1\r\nHost: x\r\n: empty\r\n\r\n",
             "GET / HTTP/1.1\r\nHost: x\r\nX: a\r\n folded\r\n\r\n",  // obs-fold
             "GET / HTTP/1.1\r\nHost: x\r\nX: a\x01b\r\n\r\n",        // control character
             "GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n",          // stray CR
             "GET /a\x7f HTTP/1.1\r\nHost: x\r\n\r\n",                // DEL in the target
             "GET /\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n",             // raw UTF-8 in the target
             "GET / HTTP/1.1\r\n\r\n",                                // HTTP/1.1 without Host
             "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",          // two Hosts
             "GET / HTTP/1.x\r\nHost: x\r\n\r\n",
             "GET / http/1.1\r\nHost: x\r\n\r\n",
             "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n",
             "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  // a TLS ClientHello: refused at once
         }) {
        BOOST_TEST(int(status(bad)) == int(ParseStatus::bad_request), "accepted: " << bad);
    }
    BOOST_TEST(int(status(std::string("\0\0\0\0", 4))) == int(ParseStatus::bad_request));
    BOOST_TEST(int(status(std::string("GET /\0 HTTP/1.1\r\nHost: x\r\n\r\n", 28))) == int(ParseStatus::bad_request));
}

BOOST_AUTO_TEST_CASE(other_http_versions_and_bodies_are_refused_with_their_own_status) {
    BOOST_TEST(int(status("GET / HTTP/2.0\r\nHost: x\r\n\r\n")) == int(ParseStatus::version_not_supported));
    BOOST_TEST(int(status("GET / HTTP/0.9\r\nHost: x\r\n\r\n")) == int(ParseStatus::version_not_supported));
    BOOST_TEST(int(status("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello")) ==
               int(ParseStatus::body_not_accepted));
    BOOST_TEST(int(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 16385\r\n\r\n")) ==
               int(ParseStatus::body_not_accepted));
    BOOST_TEST(int(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n")) ==
               int(ParseStatus::body_not_accepted));
    BOOST_TEST(int(status("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n")) ==
               int(ParseStatus::bad_request));
    BOOST_TEST(int(status("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")) ==
               int(ParseStatus::body_not_accepted));
    BOOST_TEST(int(status("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 000\r\n\r\n")) == int(ParseStatus::complete));
}

// A /source/v1 query is a POST with a small body: the head says how long, the server waits for it.
BOOST_AUTO_TEST_CASE(a_posts_small_body_follows_its_head) {
    const std::string text = "POST /t/source/v1 HTTP/1.1\r\nHost: x\r\nContent-Length: 0005\r\n\r\nhello";
    HttpRequest r;
    ParseResult p = parse_request_head(text, r);
    BOOST_TEST(int(p.status) == int(ParseStatus::complete));
    BOOST_TEST(p.body_size == 5u);
    BOOST_TEST(text.substr(p.head_size) == "hello");
    HttpRequest g;
    BOOST_TEST(parse_request_head("GET / HTTP/1.1\r\nHost: x\r\n\r\n", g).body_size == 0u);
}

BOOST_AUTO_TEST_CASE(heads_are_bounded) {
    std::string big = "GET / HTTP/1.1\r\nHost: x\r\nX: " + std::string(kMaxHeadSize, 'a');
    BOOST_TEST(int(status(big)) == int(ParseStatus::head_too_large));               // never ends
    BOOST_TEST(int(status(big + "\r\n\r\n")) == int(ParseStatus::head_too_large));  // ends too late
    std::string many = "GET / HTTP/1.1\r\nHost: x\r\n";
    for (std::size_t i = 0; i < kMaxHeaders + 1; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
    BOOST_TEST(int(status(many + "\r\n")) == int(ParseStatus::head_too_large));
    std::string long_method = std::string(40, 'G') + " / HTTP/1.1\r\nHost: x\r\n\r\n";
    BOOST_TEST(int(status(long_method)) == int(ParseStatus::bad_request));
}

BOOST_AUTO_TEST_CASE(every_prefix_of_a_request_is_incomplete_or_complete_never_wrong) {
    std::string text = "OPTIONS /t/p.json.gz HTTP/1.1\r\nHost: 127.0.0.1\r\nAccess-Control-Request-Method: GET\r\n\r\n";
    for (std::size_t n = 0; n < text.size(); ++n)
        BOOST_TEST(int(status(text.substr(0, n))) == int(ParseStatus::incomplete), "prefix " << n);
    BOOST_TEST(int(status(text)) == int(ParseStatus::complete));
}
