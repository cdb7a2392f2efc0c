// The `ghc-events show` printer (show_text.cpp): Haskell `show` escaping, U+FFFD
// for invalid UTF-8, binary messages, and templates of eventlogs built with the
// test encoder and printed with their header, as `dump` does.
#include <boost/test/unit_test.hpp>

#include <string>

#include "collecting_sink.hpp"
#include "eventlog/push_decoder.hpp"
#include "eventlog/show_text.hpp"
#include "eventlog_builder.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::EventlogBuilder;

namespace {

using Size = std::optional<std::uint16_t>;
const Size kVar = std::nullopt;

// One event printed without a header (payload views must outlive the call).
template <typename T>
std::string line(const T& payload, std::optional<CapNo> cap = std::nullopt) {
    Event e;
    e.time = 7;
    e.tag = T::tag;
    e.cap = cap;
    e.payload = payload;
    std::string out;
    append_event_text(out, e);
    return out;
}

std::string args_line(std::string_view bytes) { return line(ProgramArgs{0, StringList{bytes}}); }

class ShowSink : public EventSink {
public:
    void on_header(const Header& header) override {
        header_ = &header;
        append_header_text(text, header);
    }
    void on_event(const Event& event) override { append_event_text(text, event, *header_); }
    std::string text;

private:
    const Header* header_ = nullptr;
};

// The whole text for the eventlog bytes (without dump's final empty line).
std::string show(const std::string& bytes) {
    ShowSink sink;
    Diagnostics diagnostics;
    PushDecoder decoder(sink, diagnostics);
    el2fx::testing::feed_all(decoder, bytes);
    return sink.text;
}

// Only the event lines.
std::string show_events(const EventlogBuilder& b) {
    std::string text = show(b.finish());
    std::size_t at = text.find("\nEvents:\n");
    BOOST_REQUIRE(at != std::string::npos);
    return text.substr(at + 9);
}

std::string be32(std::uint32_t v) {
    std::string s;
    field_io::put_int(s, v);
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(show_text)

// ---- Layout --------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(header_lists_every_type_with_its_size_or_variable) {
    EventlogBuilder b;
    b.declare<RunThread>().declare<UserMessage>().declare_raw(250, 3, "Something new").declare_raw(251, 0, "");
    BOOST_TEST(show(b.finish()) ==
               "Event Types:\n"
               "1: RUN_THREAD (size 4)\n"
               "19: USER_MSG (size variable)\n"
               "250: Something new (size 3)\n"
               "251:  (size 0)\n"
               "\n"
               "Events:\n");
}

BOOST_AUTO_TEST_CASE(block_markers_print_with_an_empty_line_and_set_the_cap_prefix) {
    EventlogBuilder b;
    b.declare_block_marker().declare<RunThread>().declare<CreateThread>();
    b.begin_block(10, 1, 99).event(11, RunThread{3}).end_block();
    b.begin_block(12, kGlobalCap, 50).event(13, CreateThread{4}).end_block();
    b.event(14, RunThread{5});
    BOOST_TEST(show_events(b) ==
               "10: cap 1: event block: cap 1, end time: 99\n\n"
               "11: cap 1: running thread 3\n"
               "12: event block: cap 65535, end time: 50\n\n"
               "13: creating thread 4\n"
               "14: running thread 5\n");
}

// ---- Haskell `show` of the argument and environment lists -----------------------------

BOOST_AUTO_TEST_CASE(show_escapes_quote_and_backslash_but_not_apostrophe) {
    BOOST_TEST(args_line(R"(say "hi" \ 'x')") == R"(7: capset 0: args: ["say \"hi\" \\ 'x'"])"
                                                 "\n");
}

BOOST_AUTO_TEST_CASE(show_names_control_characters) {
    BOOST_TEST(args_line("\a\b\f\n\r\t\v") == R"(7: capset 0: args: ["\a\b\f\n\r\t\v"])"
                                              "\n");
    BOOST_TEST(args_line("\x01\x02\x1b\x1f\x7f") == R"(7: capset 0: args: ["\SOH\STX\ESC\US\DEL"])"
                                                    "\n");
    BOOST_TEST(args_line(std::string_view("a\0b", 3)) == R"(7: capset 0: args: ["a","b"])"
                                                         "\n");  // NUL splits
}

BOOST_AUTO_TEST_CASE(show_separates_SO_from_a_following_H_only) {
    BOOST_TEST(args_line("\x0eH") == R"(7: capset 0: args: ["\SO\&H"])"
                                     "\n");
    BOOST_TEST(args_line("\x0e"
                         "A \x0e") == R"(7: capset 0: args: ["\SOA \SO"])"
                                      "\n");
    BOOST_TEST(args_line("\x01H") == R"(7: capset 0: args: ["\SOHH"])"
                                     "\n");
    // Named escapes are never followed by \& otherwise.
    BOOST_TEST(args_line("\x1b"
                         "1\x7f"
                         "9") == R"(7: capset 0: args: ["\ESC1\DEL9"])"
                                 "\n");
}

BOOST_AUTO_TEST_CASE(show_writes_non_ascii_as_decimal_escapes_separated_from_digits) {
    BOOST_TEST(args_line("é") == R"(7: capset 0: args: ["\233"])"
                                 "\n");
    BOOST_TEST(args_line("é1") == R"(7: capset 0: args: ["\233\&1"])"
                                  "\n");
    BOOST_TEST(args_line("ああ1 \xC2\x85x \xC2\x9b"
                         "7 😀") == R"(7: capset 0: args: ["\12354\12354\&1 \133x \155\&7 \128512"])"
                                   "\n");
}

BOOST_AUTO_TEST_CASE(show_splits_at_nuls_after_dropping_trailing_ones) {
    BOOST_TEST(args_line("") == R"(7: capset 0: args: [""])"
                                "\n");
    BOOST_TEST(args_line(std::string_view("\0\0", 2)) == R"(7: capset 0: args: [""])"
                                                         "\n");
    BOOST_TEST(args_line(std::string_view("a\0\0b\0\0\0", 7)) == R"(7: capset 0: args: ["a","","b"])"
                                                                 "\n");
    BOOST_TEST(args_line(std::string_view("\0\0a", 3)) == R"(7: capset 0: args: ["","","a"])"
                                                          "\n");
    BOOST_TEST(line(ProgramEnv{1, StringList{std::string_view("A=1\0B=\\x\0", 9)}}) ==
               R"(7: capset 1: env: ["A=1","B=\\x"])"
               "\n");
}

BOOST_AUTO_TEST_CASE(show_escapes_invalid_utf8_as_the_replacement_character) {
    BOOST_TEST(args_line("a\xff"
                         "b\xe2\x82"
                         "1") == R"(7: capset 0: args: ["a\65533b\65533\&1"])"
                                 "\n");
}

// ---- Text fields ------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(text_fields_are_raw_and_invalid_utf8_becomes_U_FFFD) {
    BOOST_TEST(line(UserMessage{Text{"こんにちは \"x\"\ttab"}}) == "7: こんにちは \"x\"\ttab\n");
    BOOST_TEST(line(UserMessage{Text{"bad \xff\xfe end \xe2\x82"}}) == "7: bad \uFFFD\uFFFD end \uFFFD\n");
    BOOST_TEST(line(LogMsg{Text{"ends with a newline\n"}}) == "7: ends with a newline\n\n");
    BOOST_TEST(line(ThreadLabel{3, Text{"lab\xc0"}}) == "7: thread 3 has label \"lab\uFFFD\"\n");
    BOOST_TEST(line(UserMarker{Text{"\x80"}}) == "7: marker: \uFFFD\n");
    BOOST_TEST(line(HeapProfSampleString{1, 5, CString{"\xf0\x9f\x98"}}) ==
               "7: heap prof sample 1, residency 5, label \uFFFD\n");
    BOOST_TEST(line(UserMessage{Text{""}}, CapNo{2}) == "7: cap 2: \n");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_in_a_header_description_becomes_U_FFFD) {
    EventlogBuilder b;
    b.declare_raw(250, 0, "Odd\xfe type");
    b.raw_event(250, 5, "");
    BOOST_TEST(show(b.finish()) == "Event Types:\n250: Odd\uFFFD type (size 0)\n\nEvents:\n5: Odd\uFFFD type\n");
}

BOOST_AUTO_TEST_CASE(latin1_fields_map_each_byte_to_its_code_point) {
    BOOST_TEST(line(Version{Text{"7.10 \xe9"}}) == "7: compiler version is 7.10 é\n");
    BOOST_TEST(line(ProgramInvocation{Text{"prog \xc3\xa9"}}) == "7: program invocation: prog Ã©\n");
    BOOST_TEST(line(InternString{CString{"caf\xe9 x"}, 77}) == "7: Interned string: \"café x\" with id 77\n");
}

// ---- Binary messages ----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(binary_message_shows_printable_characters_and_dots) {
    BOOST_TEST(line(UserBinaryMessage{Bytes{std::string_view("Hello, \0", 8)}}) == "7: binary message Hello, .\n");
    std::string all;
    for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
    std::string want = "7: binary message " + std::string(32, '.');
    for (char c = ' '; c < 0x7f; ++c) want.push_back(c);
    want += std::string(129, '.') + "\n";
    BOOST_TEST(line(UserBinaryMessage{Bytes{all}}) == want);
}

BOOST_AUTO_TEST_CASE(binary_message_decodes_leniently_byte_by_byte) {
    // Each byte of an ill-formed sequence is one dot (not one per sequence).
    BOOST_TEST(line(UserBinaryMessage{Bytes{"\xe2\x82"
                                            "A"}}) == "7: binary message ..A\n");
    BOOST_TEST(line(UserBinaryMessage{Bytes{"x\xf0\x9f\x98"}}) == "7: binary message x...\n");
    // Well-formed characters stay when printable (isPrint), else one dot each.
    BOOST_TEST(line(UserBinaryMessage{Bytes{"é\u00a0😀"}}) == "7: binary message é\u00a0😀\n");
    BOOST_TEST(line(UserBinaryMessage{Bytes{"a\u00adb\u2028c\ue000d\u0378e\u0085f"}}) ==
               "7: binary message a.b.c.d.e.f\n");
}

// ---- What ghc-events prints by the header's description ---------------------------------

BOOST_AUTO_TEST_CASE(types_without_a_ghc_events_parser_print_their_description) {
    EventlogBuilder b;
    b.declare_raw(StopThread::tag, 6, "Stop thread").declare_raw(RunSpark::tag, 4, "Run spark");
    b.declare_raw(Shutdown::tag, 0, "Shutdown").declare_raw(150, 4, "Mystery").declare_raw(151, kVar, "");
    b.raw_event(StopThread::tag, 1, be32(5) + std::string("\0\x02", 2));
    b.raw_event(RunSpark::tag, 2, be32(5)).raw_event(Shutdown::tag, 3, "");
    b.raw_event(150, 4, "abcd").raw_event(151, 5, "xyz");
    BOOST_TEST(show_events(b) == "1: Stop thread\n2: Run spark\n3: Shutdown\n4: Mystery\n5: \n");
}

BOOST_AUTO_TEST_CASE(fixed_type_declared_variable_and_the_reverse_print_their_description) {
    EventlogBuilder b;
    b.declare<CreateThread>(Size(kVar)).declare<ThreadLabel>(Size(8));
    b.raw_event(CreateThread::tag, 1, be32(42));
    b.raw_event(ThreadLabel::tag, 2, be32(9) + "abcd");
    BOOST_TEST(show_events(b) == "1: CREATE_THREAD\n2: THREAD_LABEL\n");
}

BOOST_AUTO_TEST_CASE(payload_too_short_for_every_layout_prints_the_description) {
    EventlogBuilder b;
    b.declare_raw(MerReleaseContext::tag, 0, "lfl").declare_raw(MerEngineSleeping::tag, 4, "rel");
    b.raw_event(MerReleaseContext::tag, 1, "").raw_event(MerEngineSleeping::tag, 2, be32(8));
    BOOST_TEST(show_events(b) == "1: lfl\n2: Capability going to sleep\n");
}

BOOST_AUTO_TEST_CASE(without_the_header_the_description_is_the_ghc_name) {
    BOOST_TEST(line(StopThread{1, 5, std::nullopt}) == "7: STOP_THREAD\n");
    BOOST_TEST(line(Shutdown{}) == "7: SHUTDOWN\n");
    Event e;
    e.tag = 250;
    e.time = 3;
    std::string out;
    append_event_text(out, e);
    BOOST_TEST(out == "3: event type 250\n");
}

// ---- Templates ------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(stop_thread_statuses) {
    EventlogBuilder b;
    b.declare<StopThread>(Size(12));
    b.raw_event(StopThread::tag, 1, be32(5) + std::string("\0\x02", 2) + be32(77) + "xy");  // 2 bytes skipped
    b.event(2, StopThread{4, 8, 23150672}).event(3, StopThread{4, 20, 0}).event(4, StopThread{4, 19, 0});
    b.event(5, StopThread{4, 0, 0}).event(6, StopThread{4, 16, 0});
    BOOST_TEST(show_events(b) ==
               "1: stopping thread 5 (stack overflow, size 77)\n"
               "2: stopping thread 4 (blocked on black hole owned by thread 23150672)\n"
               "3: stopping thread 4 (blocked reading an MVar)\n"
               "4: stopping thread 4 (No stop thread status)\n"
               "5: stopping thread 4 (No stop thread status)\n"
               "6: stopping thread 4 (unknown stop status 16)\n");
}

BOOST_AUTO_TEST_CASE(gc_stats_balanced_part_follows_the_declared_size) {
    GCStatsGHC s{0, 1, 2, 3, 4, 5, 6, 7, 8};
    EventlogBuilder old_form, new_form;
    old_form.declare<GCStatsGHC>(Size(50)).event(1, s);
    new_form.declare<GCStatsGHC>(Size(60)).event(1, s);
    const std::string common =
        "1: GC stats for heap capset 0: generation 1, 2 bytes copied, 3 bytes slop, 4 bytes fragmentation, "
        "5 par threads, 6 bytes max par copied, 7 bytes total par copied";
    BOOST_TEST(show_events(old_form) == common + "\n");
    BOOST_TEST(show_events(new_form) == common + ", 8 bytes balanced par copied\n");
}

BOOST_AUTO_TEST_CASE(nonmoving_census_block_size_in_both_layouts) {
    EventlogBuilder log2, full;
    log2.declare<NonmovingHeapCensus>(Size(13));
    log2.raw_event(NonmovingHeapCensus::tag, 1, "\x03" + be32(1) + be32(2) + be32(3));
    log2.raw_event(NonmovingHeapCensus::tag, 2, "\x0f" + be32(1) + be32(2) + be32(3));
    log2.raw_event(NonmovingHeapCensus::tag, 3, "\x10" + be32(1) + be32(2) + be32(3));
    BOOST_TEST(show_events(log2) ==
               "1: nonmoving heap census 8: 1 active segments, 2 filled segments, 3 live blocks\n"
               "2: nonmoving heap census 32768: 1 active segments, 2 filled segments, 3 live blocks\n"
               "3: nonmoving heap census 0: 1 active segments, 2 filled segments, 3 live blocks\n");
    full.declare<NonmovingHeapCensus>(Size(14));
    full.raw_event(NonmovingHeapCensus::tag, 1, std::string("\x20\x00", 2) + be32(0) + be32(5) + be32(54));
    BOOST_TEST(show_events(full) ==
               "1: nonmoving heap census 8192: 0 active segments, 5 filled segments, 54 live blocks\n");
}

BOOST_AUTO_TEST_CASE(heap_profile_templates) {
    EventlogBuilder b;
    b.declare<HeapProfBegin>().declare<HeapProfCostCentre>().declare<HeapProfSampleCostCentre>();
    b.declare<ProfSampleCostCentre>().declare<InfoProv>();
    b.event(1, HeapProfBegin{0, 100000000, 6, {}, {}, {}, {}, {}, {}, {}});
    b.event(2, HeapProfBegin{3, 100, 2, CString{"modf"}, {}, CString{"tyf"}, {}, {}, {}, CString{"bio"}});
    b.event(3, HeapProfCostCentre{112, CString{"CAF"}, CString{"GHC.Types"}, CString{"<entire-module>"}, 1});
    b.event(4, HeapProfCostCentre{13, {}, {}, {}, 2});
    b.event(5, HeapProfSampleCostCentre{0, 9880, CostCentreStack{}});
    const std::string ids = be32(3) + be32(2) + be32(1);
    b.event(6, HeapProfSampleCostCentre{1, 100, CostCentreStack{ids}});
    b.event(7, ProfSampleCostCentre{0x00010002, 7, CostCentreStack{}});
    b.event(8, ProfSampleCostCentre{0xFFFFFFFF, 7, CostCentreStack{std::string_view(ids).substr(4)}});
    b.event(9, InfoProv{0x409f78, CString{"sat_s154_info"}, CString{"007abc"}, CString{"ty"}, CString{"l"},
                        CString{"Test"}, CString{"Test.hs:5:1-30"}});
    BOOST_TEST(show_events(b) ==
               "1: start heap profiling 0 at sampling period 100000000 broken down by biography\n"
               "2: start heap profiling 3 at sampling period 100 broken down by module filtered by modf, tyf, bio, \n"
               "3: cost centre 112 CAF in GHC.Types at <entire-module> CAF\n"
               "4: cost centre 13  in  at \n"
               "5: heap prof sample 0, residency 9880, cost centre stack \n"
               "6: heap prof sample 1, residency 100, cost centre stack 3, 2, 1\n"
               "7: cap no 2, prof sample 7, cost centre stack \n"
               "8: cap no 65535, prof sample 7, cost centre stack 2, 1\n"
               "9: Info Table: 409f78:7:sat_s154_info - Test.hs:5:1-30\n");
}

BOOST_AUTO_TEST_CASE(ticky_counter_definition_itbl_is_zero_when_absent) {
    EventlogBuilder b;
    b.declare<TickyCounterDef>();
    b.event(1, TickyCounterDef{4535063528, 0, {}, CString{"Main.main1{v r1sI} (fun)"}, std::nullopt, std::nullopt});
    b.event(2, TickyCounterDef{255, 2, CString{"kinds"}, CString{"name"}, 0x4050e0, CString{"{\"j\":1}"}});
    BOOST_TEST(show_events(b) ==
               "1: ticky counter definition 4535063528, arity: 0, def kinds: , name: Main.main1{v r1sI} (fun), "
               "itbl: 0\n"
               "2: ticky counter definition 255, arity: 2, def kinds: kinds, name: name, itbl: 4050e0\n");
}

BOOST_AUTO_TEST_CASE(eden_mercury_and_perf_templates) {
    BOOST_TEST(line(SendMessage{0x55, 1, 2, 3, 4, 5}) ==
               "7: sending message with tag RFork from process 1, thread 2 to machine 3, process 4 on inport 5\n");
    BOOST_TEST(line(ReceiveMessage{0x57, 1, 2, 3, 4, 5, 6}) ==
               "7: receiving message with tag DataMes at process 1, inport 2 from machine 3, process 4, thread 5 "
               "with size 6\n");
    BOOST_TEST(line(SendReceiveLocalMessage{0x5C, 1, 2, 3, 4}) ==
               "7: sending/receiving message with tag Packet from process 1, thread 2 to process 3 on inport 4\n");
    BOOST_TEST(line(CreateMachine{2, 143714457434916300}) == "7: creating machine 2 at 143714457434916300\n");
    BOOST_TEST(line(MerCreateSpark{0xABC, 0xDEF}) == "7: Create spark for conjunction: 0xabc spark: 0xdef\n");
    BOOST_TEST(line(MerFutCreate{0xF00, 3}) == "7: Create future 0xf00 named 3\n");
    BOOST_TEST(line(PerfCounter{5, 1234, 0xFFFFFFFFFFFFFFFF}) ==
               "7: perf event counter 5 incremented by 0 in OS thread 1234\n");
    BOOST_TEST(line(PerfName{5, Text{"cycles"}}) == "7: perf event 5 named \"cycles\"\n");
}

BOOST_AUTO_TEST_CASE(scheduler_capset_and_task_templates) {
    BOOST_TEST(line(SparkCounters{1, 2, 3, 4, 5, 6, 7}, CapNo{0}) ==
               "7: cap 0: spark stats: 1 created, 4 converted, 7 remaining (3 overflowed, 2 dud, 5 GC'd, 6 fizzled)\n");
    BOOST_TEST(line(CapsetCreate{0, 2}) == "7: created capset 0 of type CapsetOsProcess\n");
    BOOST_TEST(line(CapsetCreate{1, 0}) == "7: created capset 1 of type CapsetUnknown\n");
    BOOST_TEST(line(CapsetCreate{1, 3}) == "7: created capset 1 of type CapsetClockDomain\n");
    BOOST_TEST(line(TaskCreate{0x10630a0, 0, 16112}) ==
               "7: task 0x10630a0 created on cap 0 with OS kernel thread 16112\n");
    BOOST_TEST(line(TaskDelete{0xFFFFFFFFFFFFFFFF}) == "7: task 0xffffffffffffffff deleted\n");
    BOOST_TEST(line(WallClockTime{1, 1600000000, 5}) == "7: capset 1: wall clock time 1600000000s 5ns (unix epoch)\n");
    BOOST_TEST(line(RtsIdentifier{0, Text{"GHC-9.9 rts_v"}}) == "7: capset 0: RTS version \"GHC-9.9 rts_v\"\n");
    BOOST_TEST(line(MemReturn{0, 5, 9, 0}) == "7: memory returned (mblocks): current(5) needed(9) returned(0)\n");
}

BOOST_AUTO_TEST_SUITE_END()
