#include <boost/test/unit_test.hpp>

#include <string>

#include "analysis/runtime/binary_preview.hpp"

using namespace el2fx::runtime;
using namespace std::string_literals;

BOOST_AUTO_TEST_SUITE(binary_preview)

BOOST_AUTO_TEST_CASE(hex_lists_every_byte_of_a_short_payload) {
    BinaryPreview p = preview_binary("\x01\x00\x01\x02\xff\xfe\x80\x00"s);
    BOOST_TEST(p.hex == "01 00 01 02 ff fe 80 00");
    BOOST_TEST(!p.utf8);
}

BOOST_AUTO_TEST_CASE(hex_and_text_are_cut_with_an_ellipsis) {
    BinaryPreview p = preview_binary("abcdef", 4);
    BOOST_TEST(p.hex == "61 62 63 64 \xE2\x80\xA6");
    BOOST_TEST(p.text == "abcd\xE2\x80\xA6");
    BOOST_TEST(p.utf8);
}

BOOST_AUTO_TEST_CASE(an_empty_payload_previews_as_nothing) {
    BinaryPreview p = preview_binary("");
    BOOST_TEST(p.hex.empty());
    BOOST_TEST(p.text.empty());
    BOOST_TEST(p.utf8);
}

BOOST_AUTO_TEST_CASE(controls_show_as_pictures_and_bad_bytes_as_replacement) {
    BinaryPreview p = preview_binary("a\x00\n\x7f\xff"s);
    BOOST_TEST(p.text == "a\xE2\x90\x80\xE2\x90\x8A\xE2\x90\xA1\xEF\xBF\xBD");  // a ␀ ␊ ␡ U+FFFD
}

BOOST_AUTO_TEST_CASE(utf8_text_stays_text) {
    BinaryPreview p = preview_binary(
        "Gr\xC3\xBC\xC3\x9F"
        "e");
    BOOST_TEST(p.text ==
               "Gr\xC3\xBC\xC3\x9F"
               "e");
    BOOST_TEST(p.utf8);
}

BOOST_AUTO_TEST_CASE(shortened_text_cuts_at_a_character_boundary) {
    std::string nihongo = "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E";  // 日本語, 9 bytes
    BOOST_TEST(shortened_text(nihongo, 4) == "\xE6\x97\xA5\xE2\x80\xA6");
    BOOST_TEST(shortened_text(nihongo, 9) == nihongo);
    BOOST_TEST(shortened_text("line one\nline two", 100) == "line one\nline two");
}

BOOST_AUTO_TEST_SUITE_END()
