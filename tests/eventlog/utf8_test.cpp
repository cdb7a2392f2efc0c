// util/utf8: decoding steps, the U+FFFD sanitiser and Haskell's isPrint.
#include <boost/test/unit_test.hpp>

#include <string>

#include "util/utf8.hpp"

using namespace el2fx;

namespace {

const std::string kFFFD = "\xEF\xBF\xBD";

std::string sanitized(std::string_view bytes, std::size_t* replaced = nullptr) {
    std::string out = "<";
    std::size_t n = utf8::append_sanitized(out, bytes);
    if (replaced) *replaced = n;
    return out + ">";
}

utf8::Step step(std::string_view bytes) {
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    return utf8::decode(p, p + bytes.size());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(utf8_tests)

BOOST_AUTO_TEST_CASE(decode_gives_code_point_and_length_of_well_formed_sequences) {
    struct Case {
        std::string_view bytes;
        char32_t cp;
        std::uint32_t length;
    };
    for (const Case& c : {Case{"A", U'A', 1}, Case{"\xC3\xA9", 0xE9, 2}, Case{"\xE2\x82\xAC", 0x20AC, 3},
                          Case{"\xF0\x9F\x98\x80", 0x1F600, 4}, Case{"\xF4\x8F\xBF\xBF", 0x10FFFF, 4},
                          Case{"\xED\x9F\xBF", 0xD7FF, 3}, Case{"\xEE\x80\x80", 0xE000, 3}}) {
        utf8::Step s = step(c.bytes);
        BOOST_TEST(s.valid);
        BOOST_TEST(static_cast<std::uint32_t>(s.code_point) == static_cast<std::uint32_t>(c.cp));
        BOOST_TEST(s.length == c.length);
    }
}

BOOST_AUTO_TEST_CASE(decode_gives_the_maximal_subpart_of_ill_formed_sequences) {
    struct Case {
        std::string_view bytes;
        std::uint32_t length;
    };
    for (const Case& c : {Case{"\x80", 1}, Case{"\xC0\xAF", 1}, Case{"\xC1\xBF", 1}, Case{"\xF5\x80\x80\x80", 1},
                          Case{"\xFF", 1}, Case{"\xE0\x80\x80", 1}, Case{"\xED\xA0\x80", 1},  // overlong, surrogate
                          Case{"\xF4\x90\x80\x80", 1}, Case{"\xF0\x8F\xBF\xBF", 1},           // > U+10FFFF, overlong
                          Case{"\xC3", 1}, Case{"\xE2\x82", 2},
                          Case{"\xE2\x82"
                               "A",
                               2},  // cut short
                          Case{"\xF0\x9F\x98", 3},
                          Case{"\xF0\x9F\x98"
                               "A",
                               3},
                          Case{"\xF0\x9F"
                               "A",
                               2}}) {
        utf8::Step s = step(c.bytes);
        BOOST_TEST(!s.valid);
        BOOST_TEST(s.length == c.length);
        BOOST_TEST(static_cast<std::uint32_t>(s.code_point) == 0xFFFDu);
    }
}

BOOST_AUTO_TEST_CASE(sanitiser_copies_well_formed_text_unchanged) {
    std::size_t replaced = 1;
    BOOST_TEST(sanitized("", &replaced) == "<>");
    BOOST_TEST(replaced == 0u);
    BOOST_TEST(sanitized("plain ASCII, longer than eight bytes", &replaced) ==
               "<plain ASCII, longer than eight bytes>");
    BOOST_TEST(replaced == 0u);
    BOOST_TEST(sanitized("こんにちは é 😀 \xEF\xBF\xBD") == "<こんにちは é 😀 \xEF\xBF\xBD>");
    BOOST_TEST(sanitized(std::string_view("nul\0inside", 10)) == std::string("<nul\0inside>", 12));
}

BOOST_AUTO_TEST_CASE(sanitiser_puts_one_replacement_per_ill_formed_subsequence) {
    // The same results as Python's bytes.decode('utf-8', 'replace') (maximal subparts).
    std::size_t replaced = 0;
    BOOST_TEST(sanitized("a\xFF"
                         "b",
                         &replaced) == "<a" + kFFFD + "b>");
    BOOST_TEST(replaced == 1u);
    BOOST_TEST(sanitized("\xE2\x82"
                         "A",
                         &replaced) == "<" + kFFFD + "A>");  // one U+FFFD for two bytes
    BOOST_TEST(replaced == 1u);
    BOOST_TEST(sanitized("\xF0\x9F\x98", &replaced) == "<" + kFFFD + ">");  // cut at the end
    BOOST_TEST(replaced == 1u);
    BOOST_TEST(sanitized("\xED\xA0\x80", &replaced) == "<" + kFFFD + kFFFD + kFFFD + ">");  // surrogate
    BOOST_TEST(replaced == 3u);
    BOOST_TEST(sanitized("\xC0\xAF") == "<" + kFFFD + kFFFD + ">");                          // overlong
    BOOST_TEST(sanitized("\xF4\x90\x80\x80") == "<" + kFFFD + kFFFD + kFFFD + kFFFD + ">");  // beyond U+10FFFF
    BOOST_TEST(sanitized("\xF0\x9F\x98\x80\x80") == "<😀" + kFFFD + ">");
    // Invalid bytes after a long ASCII run (the eight-at-a-time scan) and at the very end.
    BOOST_TEST(sanitized("0123456789\x80"
                         "abcdefgh\xF0\x90") == "<0123456789" + kFFFD + "abcdefgh" + kFFFD + ">");
}

BOOST_AUTO_TEST_CASE(is_valid_agrees_with_the_sanitiser) {
    BOOST_TEST(utf8::is_valid(""));
    BOOST_TEST(utf8::is_valid("abc é 😀"));
    BOOST_TEST(!utf8::is_valid("abcdefghijk\xC3"));
    BOOST_TEST(!utf8::is_valid("\xED\xA0\x80"));
}

BOOST_AUTO_TEST_CASE(code_points_and_latin1_are_encoded) {
    std::string out;
    for (char32_t cp : {U'A', char32_t{0xE9}, char32_t{0x20AC}, char32_t{0x1F600}}) utf8::append_code_point(out, cp);
    BOOST_TEST(out == "Aé€😀");
    out.clear();
    utf8::append_latin1(out, "caf\xE9 \xC3\xA9");
    BOOST_TEST(out == "café Ã©");
}

BOOST_AUTO_TEST_CASE(is_printable_follows_haskell_isPrint) {
    for (char32_t cp : {U' ', U'a', U'~', char32_t{0xA0}, char32_t{0xE9}, char32_t{0x3042}, char32_t{0x1F600},
                        char32_t{0x1FAE8} /* Unicode 15.0 */, char32_t{0x20000} /* CJK range */})
        BOOST_TEST(utf8::is_printable(cp), static_cast<std::uint32_t>(cp));
    for (char32_t cp :
         {char32_t{0}, char32_t{0x1F}, char32_t{0x7F}, char32_t{0x85} /* Cc */, char32_t{0xAD} /* Cf */,
          char32_t{0x378} /* Cn */, char32_t{0x2028} /* Zl */, char32_t{0x2029} /* Zp */, char32_t{0xD800} /* Cs */,
          char32_t{0xE000} /* Co */, char32_t{0xFEFF} /* Cf */, char32_t{0x10FFFF}, char32_t{0x110000}})
        BOOST_TEST(!utf8::is_printable(cp), static_cast<std::uint32_t>(cp));
}

BOOST_AUTO_TEST_SUITE_END()
