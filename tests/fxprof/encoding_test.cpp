// Time conversion (exact decimal milliseconds) and UTF-8 repair.
#include <boost/test/unit_test.hpp>

#include "fxprof/decimal.hpp"
#include "util/utf8.hpp"

using namespace el2fx::fxprof;

namespace {
std::string scaled(std::int64_t v, unsigned scale) {
    char buf[kDecimalBufferSize];
    return std::string(buf, format_scaled_decimal(v, scale, buf));
}
const std::string kFFFD = "\xEF\xBF\xBD";

// The writer repairs strings with util/utf8.hpp; these pin the behaviour it relies on.
std::string sanitize_utf8(std::string_view s) {
    std::string out;
    el2fx::utf8::append_sanitized(out, s);
    return out;
}
bool is_valid_utf8(std::string_view s) { return el2fx::utf8::is_valid(s); }
std::size_t append_sanitized_utf8(std::string& out, std::string_view s) {
    return el2fx::utf8::append_sanitized(out, s);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(time_conversion)

BOOST_AUTO_TEST_CASE(nanoseconds_become_exact_milliseconds) {
    BOOST_TEST(ns_as_ms_string(0) == "0");
    BOOST_TEST(ns_as_ms_string(1) == "0.000001");
    BOOST_TEST(ns_as_ms_string(1000000) == "1");
    BOOST_TEST(ns_as_ms_string(1500000) == "1.5");
    BOOST_TEST(ns_as_ms_string(1234567) == "1.234567");
    BOOST_TEST(ns_as_ms_string(2500001) == "2.500001");
    BOOST_TEST(ns_as_ms_string(-2500000) == "-2.5");
    BOOST_TEST(ns_as_ms_string(-1) == "-0.000001");
    // An epoch start time: 2026-01-01 in ns, written as ms with its nanoseconds kept.
    BOOST_TEST(ns_as_ms_string(1767225600123456789LL) == "1767225600123.456789");
}

BOOST_AUTO_TEST_CASE(extremes_do_not_overflow) {
    BOOST_TEST(ns_as_ms_string(INT64_MAX) == "9223372036854.775807");
    BOOST_TEST(ns_as_ms_string(INT64_MIN) == "-9223372036854.775808");
}

BOOST_AUTO_TEST_CASE(other_scales) {
    BOOST_TEST(scaled(1500, 3) == "1.5");        // ns -> µs
    BOOST_TEST(scaled(1500000000, 9) == "1.5");  // ns -> s
    BOOST_TEST(scaled(42, 0) == "42");           // ns -> ns
    BOOST_TEST(scaled(-42, 0) == "-42");
    BOOST_TEST(scaled(100, 2) == "1");
}

BOOST_AUTO_TEST_CASE(decimal_text_parses_to_the_nearest_double) {
    for (std::int64_t ns : {1LL, 7LL, 999999LL, 1234567LL, 33333333LL, 86400000000000LL}) {
        const std::string text = ns_as_ms_string(ns);
        BOOST_TEST(std::stod(text) == static_cast<double>(ns) / 1e6);
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(utf8_repair)

BOOST_AUTO_TEST_CASE(valid_text_is_kept) {
    for (std::string s : {std::string(""), std::string("plain ascii"),
                          std::string("caf\xC3\xA9"),             // 2 bytes
                          std::string("\xE2\x82\xAC euro"),       // 3 bytes
                          std::string("\xF0\x9F\x98\x80 smile"),  // 4 bytes
                          std::string("\xF4\x8F\xBF\xBF"),        // U+10FFFF
                          std::string("nul \0 inside", 13)}) {
        BOOST_TEST(is_valid_utf8(s));
        BOOST_TEST(sanitize_utf8(s) == s);
    }
}

BOOST_AUTO_TEST_CASE(invalid_bytes_become_replacement_characters) {
    BOOST_TEST(!is_valid_utf8("\xff"));
    BOOST_TEST(sanitize_utf8("a\xff"
                             "b") == "a" + kFFFD + "b");
    BOOST_TEST(sanitize_utf8("\x80\x80") == kFFFD + kFFFD);                          // lone continuations
    BOOST_TEST(sanitize_utf8("\xC0\xAF") == kFFFD + kFFFD);                          // overlong '/'
    BOOST_TEST(sanitize_utf8("\xED\xA0\x80") == kFFFD + kFFFD + kFFFD);              // surrogate D800
    BOOST_TEST(sanitize_utf8("\xF4\x90\x80\x80") == kFFFD + kFFFD + kFFFD + kFFFD);  // > 10FFFF
    BOOST_TEST(sanitize_utf8("\xF5") == kFFFD);
}

BOOST_AUTO_TEST_CASE(a_truncated_sequence_is_one_replacement) {
    // Maximal subpart: E2 82 is the start of a 3-byte sequence, cut short.
    BOOST_TEST(sanitize_utf8("\xE2\x82") == kFFFD);
    BOOST_TEST(sanitize_utf8("\xE2\x82x") == kFFFD + "x");
    BOOST_TEST(sanitize_utf8("\xF0\x9F\x98") == kFFFD);
    BOOST_TEST(sanitize_utf8("x\xF0\x9F\x98\xE2\x82\xAC") == "x" + kFFFD + "\xE2\x82\xAC");
}

BOOST_AUTO_TEST_CASE(valid_multibyte_around_invalid_bytes_is_kept) {
    const std::string s = "\xC3\xA9\xff\xF0\x9F\x98\x80 long ascii run after it";
    BOOST_TEST(sanitize_utf8(s) == "\xC3\xA9" + kFFFD + "\xF0\x9F\x98\x80 long ascii run after it");
    std::string out = "prefix:";
    BOOST_TEST(append_sanitized_utf8(out, "\xff\xfe") == 2u);
    BOOST_TEST(out == "prefix:" + kFFFD + kFFFD);
}

BOOST_AUTO_TEST_SUITE_END()
