// The one error type renders "file: byte N (EVENT): message" with whatever parts it has.
#include <boost/test/unit_test.hpp>

#include "util/error.hpp"

using el2fx::Error;

BOOST_AUTO_TEST_SUITE(error_text)

BOOST_AUTO_TEST_CASE(each_combination_of_parts_has_one_colon_before_the_message) {
    BOOST_TEST(std::string(Error("m").what()) == "m");
    // A file alone once rendered as "x.json.gz:: cannot …".
    BOOST_TEST(std::string(Error("cannot write", {"x.json.gz", {}, {}}).what()) == "x.json.gz: cannot write");
    BOOST_TEST(std::string(Error("m", {"f", 12, {}}).what()) == "f: byte 12: m");
    BOOST_TEST(std::string(Error("m", {"f", 12, "STOP_THREAD"}).what()) == "f: byte 12 (STOP_THREAD): m");
    BOOST_TEST(std::string(Error("m", {"f", {}, "STOP_THREAD"}).what()) == "f: (STOP_THREAD): m");
    BOOST_TEST(std::string(Error("m", {{}, 0, {}}).what()) == "byte 0: m");
    BOOST_TEST(std::string(Error("m", {{}, {}, "E"}).what()) == "(E): m");
    BOOST_TEST(std::string(Error("m").with_file("g").what()) == "g: m");
}

BOOST_AUTO_TEST_SUITE_END()
