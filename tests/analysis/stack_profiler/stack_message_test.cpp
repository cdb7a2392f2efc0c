// The message decoder on hand-built messages of each released layout, the fixture's bytes and
// hostile ones (WIRE-FORMAT.md).
#include <boost/test/unit_test.hpp>

#include <random>
#include <vector>

#include "analysis/stack_profiler/stack_message.hpp"
#include "messages.hpp"

using namespace el2fx::stack_profiler;
using namespace el2fx::testing::stack_messages;

namespace {

std::vector<Entry> read(const Message& m, Layout layout) {
    std::vector<Entry> out;
    EntryReader r(m.entries, layout);
    Entry e;
    while (r.next(e)) out.push_back(e);
    return out;
}

std::string bytes(std::initializer_list<int> b) {
    std::string s;
    for (int c : b) s += static_cast<char>(c);
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stack_message)

BOOST_AUTO_TEST_CASE(the_fixtures_sieve_sample_reads_as_the_walk_through_says) {
    // WIRE-FORMAT.md, section 11 (a): the payload of the event at 0x2c49.
    const std::string p = bytes({0xff, 0xca, 0, 0, 0, 2, 0, 0, 0, 0x0c, 0, 4,  //
                                 1, 0, 0, 0, 0, 0, 0x45, 0x7c, 0xb0, 1, 0, 0, 0, 0, 0, 0x45, 0x6e, 0x88,
                                 1, 0, 0, 0, 0, 0, 0x45, 0x6b, 0x98, 1, 0, 0, 0, 0, 0, 0x45, 0x58, 0xb8});
    BOOST_REQUIRE_EQUAL(p.size(), 48u);
    Message m = decode_message(p);
    BOOST_TEST((m.kind == MessageKind::call_stack));
    BOOST_TEST(m.final);
    BOOST_TEST(m.cap == 2u);
    BOOST_TEST(m.thread == 12u);
    BOOST_TEST((m.layout == Layout::unknown));  // only 01 entries: both layouts read it alike
    std::vector<Entry> e = read(m, Layout::v0_3);
    BOOST_REQUIRE_EQUAL(e.size(), 4u);
    BOOST_TEST(e[0].value == 0x457cb0u);
    BOOST_TEST(e[3].value == 0x4558b8u);
    BOOST_TEST((e[3].kind == EntryKind::ipe));
}

BOOST_AUTO_TEST_CASE(an_empty_stack_is_a_final_message_of_no_entry) {
    Message m = decode_message(bytes({0xff, 0xca, 0, 0, 0, 2, 0, 0, 0, 0x0a, 0, 0}));
    BOOST_TEST((m.kind == MessageKind::call_stack));
    BOOST_TEST(m.count == 0u);
    BOOST_TEST(m.thread == 10u);
}

BOOST_AUTO_TEST_CASE(a_chunk_is_not_final) {
    const std::string p = stack(false, 0, 6, ipes({1, 2}));
    Message m = decode_message(p);
    BOOST_TEST((m.kind == MessageKind::call_stack));
    BOOST_TEST(!m.final);
}

BOOST_AUTO_TEST_CASE(v0_3_located_annotations_are_17_bytes_and_prove_the_layout) {
    const std::string p = stack(true, 1, 5, {{2, 7}, {3, 8, 9}, {1, 0x400000}});
    Message m = decode_message(p);
    BOOST_TEST((m.kind == MessageKind::call_stack));
    BOOST_TEST((m.layout == Layout::v0_3));
    std::vector<Entry> e = read(m, m.layout);
    BOOST_REQUIRE_EQUAL(e.size(), 3u);
    BOOST_TEST((e[0].kind == EntryKind::annotation));
    BOOST_TEST(e[0].value == 7u);
    BOOST_TEST((e[1].kind == EntryKind::located));
    BOOST_TEST(e[1].value == 8u);
    BOOST_TEST(e[1].location == 9u);
}

BOOST_AUTO_TEST_CASE(v0_1_source_location_entries_are_9_bytes_and_prove_the_layout) {
    const std::string p = stack(true, 1, 5, {{3, 4}, {1, 0x400000}}, true);
    Message m = decode_message(p);
    BOOST_TEST((m.kind == MessageKind::call_stack));
    BOOST_TEST((m.layout == Layout::v0_1));
    std::vector<Entry> e = read(m, m.layout);
    BOOST_REQUIRE_EQUAL(e.size(), 2u);
    BOOST_TEST((e[0].kind == EntryKind::location));
    BOOST_TEST(e[0].value == 4u);
    // Told the log is 0.1–0.2, it reads it so without trying the other layout.
    BOOST_TEST((decode_message(stack(true, 1, 5, {{3, 4}}, true), Layout::v0_1).layout == Layout::v0_1));
}

BOOST_AUTO_TEST_CASE(an_03_entry_fits_one_layout_only) {
    // n entries are 9n bytes in 0.1 and 9n + 8 per 03 in 0.3: a message with an 03 fits one.
    std::string p;
    put(p, 0xFFCA, 2);
    put(p, 0, 4);
    put(p, 1, 4);
    put(p, 2, 2);
    p += bytes({3, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 2});  // 18 bytes: two 9-byte entries
    BOOST_TEST((decode_message(p).layout == Layout::v0_1));
    BOOST_TEST((decode_message(p, Layout::v0_3).layout == Layout::v0_1));  // proof beats what the log said
}

BOOST_AUTO_TEST_CASE(string_definitions_count_characters_not_bytes) {
    const std::string text = "h\xc3\xa9llo \xe2\x86\x92 \xf0\x9f\x98\x80";  // h é l l o ␠ → ␠ 😀: 9 characters
    const std::string p = string_def(3, 9, text);
    Message m = decode_message(p);
    BOOST_TEST((m.kind == MessageKind::string_def));
    BOOST_TEST(m.id == 3u);
    BOOST_TEST(m.text == text);
    BOOST_TEST((decode_message(string_def(3, 8, text)).kind == MessageKind::malformed));   // bytes left over
    BOOST_TEST((decode_message(string_def(3, 10, text)).kind == MessageKind::malformed));  // runs out
    BOOST_TEST((decode_message(string_def(3, 2, "a\xff")).kind == MessageKind::malformed));  // not UTF-8
    BOOST_TEST((decode_message(string_def(4, 0, "")).kind == MessageKind::string_def));
}

BOOST_AUTO_TEST_CASE(source_location_definitions_of_each_release) {
    Message now = decode_message(location_def(2, 159, 10, 5));
    BOOST_TEST((now.kind == MessageKind::location_def));
    BOOST_TEST((now.layout == Layout::v0_3));
    BOOST_TEST(now.line == 159u);
    BOOST_TEST(now.column == 10u);
    BOOST_TEST(now.file == 5u);
    Message old = decode_message(location_def_v0_1(2, 159, 10, 6, 5));
    BOOST_TEST((old.kind == MessageKind::location_def));
    BOOST_TEST((old.layout == Layout::v0_1));
    BOOST_TEST(old.function == 6u);
    BOOST_TEST(old.file == 5u);
    BOOST_TEST((decode_message(location_def(2, 1, 1, 1) + "x").kind == MessageKind::malformed));
}

BOOST_AUTO_TEST_CASE(messages_that_do_not_end_where_their_fields_do_are_malformed) {
    BOOST_TEST((decode_message(stack(true, 0, 1, ipes({1})) + "x").kind == MessageKind::malformed));
    std::string cut = stack(true, 0, 1, ipes({1, 2}));
    cut.pop_back();
    BOOST_TEST((decode_message(cut).kind == MessageKind::malformed));
    BOOST_TEST((decode_message(bytes({0xff, 0xca, 0, 0})).kind == MessageKind::malformed));
    BOOST_TEST((decode_message(stack(true, 0, 1, {{9, 1}})).kind == MessageKind::malformed));  // no entry kind 9
    BOOST_TEST(!is_profiler_message(cut));  // the reference reader takes it for the program's own
}

BOOST_AUTO_TEST_CASE(other_messages_are_not_the_profilers) {
    BOOST_TEST((decode_message("").kind == MessageKind::not_profiler));
    BOOST_TEST((decode_message("x").kind == MessageKind::not_profiler));
    BOOST_TEST((decode_message("hello").kind == MessageKind::not_profiler));
    BOOST_TEST((decode_message(bytes({0xff, 0xc9, 1, 2})).kind == MessageKind::not_profiler));
    BOOST_TEST(!is_profiler_message("hello"));
    BOOST_TEST(is_profiler_message(stack(true, 0, 1, ipes({1}))));
}

BOOST_AUTO_TEST_CASE(pre_release_and_newer_formats_are_reported_not_read) {
    // The first formats: ASCII "CA11", then the 2-byte tag CA 11; kinds after FF CD.
    BOOST_TEST((decode_message(std::string("CA11") + bytes({0, 0, 0, 6, 0, 0, 0, 1, 0})).kind == MessageKind::unknown_format));
    BOOST_TEST((decode_message(bytes({0xca, 0x11, 0, 0, 0, 0, 0, 0, 0, 6, 0})).kind == MessageKind::unknown_format));
    BOOST_TEST((decode_message(bytes({0xff, 0xce, 0, 0})).kind == MessageKind::unknown_format));
    BOOST_TEST(is_profiler_message(bytes({0xff, 0xce})));
    BOOST_TEST(!is_profiler_message("CA11"));  // too short for any of them: the program's own
    BOOST_TEST(!is_profiler_message(bytes({0xca, 0x11, 1})));
}

BOOST_AUTO_TEST_CASE(random_payloads_never_read_past_their_end) {
    std::mt19937 rng(36);
    for (int i = 0; i < 200000; ++i) {
        std::string p;
        const int prefix = static_cast<int>(rng() % 4);
        if (prefix == 0) p = bytes({0xff, 0xca});
        if (prefix == 1) p = bytes({0xff, 0xcb});
        if (prefix == 2) p = bytes({0xff, static_cast<int>(0xcc + rng() % 2)});
        const std::size_t n = rng() % 64;
        for (std::size_t j = 0; j < n; ++j) p += static_cast<char>(rng() % 5 == 0 ? 3 : rng());
        for (Layout l : {Layout::unknown, Layout::v0_1, Layout::v0_3}) {
            // Each message in its own buffer: a read beyond it shows under the sanitizers.
            std::vector<char> own(p.begin(), p.end());
            Message m = decode_message(std::string_view(own.data(), own.size()), l);
            if (m.kind != MessageKind::call_stack) continue;
            Layout as = m.layout != Layout::unknown ? m.layout : l == Layout::unknown ? Layout::v0_3 : l;
            BOOST_TEST_REQUIRE(read(m, as).size() == m.count);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
