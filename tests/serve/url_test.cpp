#include <boost/test/unit_test.hpp>

#include <set>

#include "serve/url.hpp"

using namespace el2fx::serve;

BOOST_AUTO_TEST_CASE(percent_encoding_is_encode_uri_component) {
    BOOST_TEST(percent_encode("http://127.0.0.1:3000/ab/p.json.gz") ==
               "http%3A%2F%2F127.0.0.1%3A3000%2Fab%2Fp.json.gz");
    BOOST_TEST(percent_encode("AZaz09-_.!~*'()") == "AZaz09-_.!~*'()");
    BOOST_TEST(percent_encode(" ?&=#%+[]") == "%20%3F%26%3D%23%25%2B%5B%5D");
    BOOST_TEST(percent_encode("\xc3\xa9") == "%C3%A9");  // UTF-8 bytes, upper-case hex
    BOOST_TEST(percent_encode(std::string("\0", 1)) == "%00");
}

BOOST_AUTO_TEST_CASE(tokens_are_128_random_bits_in_hex) {
    std::set<std::string> seen;
    for (int i = 0; i < 50; ++i) {
        std::string t = random_token();
        BOOST_TEST(t.size() == 32u);
        BOOST_TEST(t.find_first_not_of("0123456789abcdef") == std::string::npos);
        seen.insert(t);
    }
    BOOST_TEST(seen.size() == 50u);
    BOOST_TEST(random_token(24).size() == 48u);
}

BOOST_AUTO_TEST_CASE(profiler_links) {
    BOOST_TEST(from_url_link("http://127.0.0.1:3000/t/p.json.gz") ==
               "https://profiler.firefox.com/from-url/http%3A%2F%2F127.0.0.1%3A3000%2Ft%2Fp.json.gz/");
    BOOST_TEST(from_url_link("http://127.0.0.1:3000/t/p.json", "http://127.0.0.1:4242") ==
               "http://127.0.0.1:4242/from-url/http%3A%2F%2F127.0.0.1%3A3000%2Ft%2Fp.json/");
    // Each profile of a comparison is a profiler view URL with a selected thread.
    std::string view_a = "https://profiler.firefox.com/from-url/http%3A%2F%2Fh%2Fa/?thread=1";
    std::string view_b = "https://profiler.firefox.com/from-url/http%3A%2F%2Fh%2Fb/?thread=1";
    BOOST_TEST(compare_link({"http://h/a", "http://h/b"}, 1) ==
               "https://profiler.firefox.com/compare/?profiles[]=" + percent_encode(view_a) +
                   "&profiles[]=" + percent_encode(view_b));
}
