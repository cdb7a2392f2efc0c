// Framing variable-size records whose declared length may be wrong (record_framing.hpp): GHC
// 9.6.5 to 9.14 declare each IPE event one byte longer than they write it; a newer GHC may
// append fields to a variable-size event. Each case is read by the streaming decoder, fed in
// every chunk size, and by the time-ordered reader, which must agree.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "collecting_sink.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/record_framing.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "eventlog_files.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::CollectingSink;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::feed_all;
using el2fx::testing::IndexedLog;

namespace {

InfoProv ipe(std::uint64_t info, const char* name, const char* loc) {
    InfoProv p;
    p.info = info;
    p.table_name.bytes = name;
    p.closure_desc.bytes = "21";
    p.ty_desc.bytes = "Int";
    p.label.bytes = "main";
    p.module.bytes = "Main";
    p.src_loc.bytes = loc;
    return p;
}

EventlogBuilder ipe_log() {
    EventlogBuilder b;
    b.declare_block_marker().declare<InfoProv>().declare<UserMessage>().declare<RunThread>();
    return b;
}

struct Streamed {
    std::vector<std::string> lines;
    Diagnostics diagnostics;
    bool truncated = false;
};

Streamed stream(const std::string& bytes, std::size_t chunk) {
    Streamed out;
    CollectingSink sink;
    PushDecoder decoder(sink, out.diagnostics);
    feed_all(decoder, bytes, chunk);
    for (const auto& e : sink.events) out.lines.push_back(e.text);
    out.truncated = decoder.truncated_at().has_value();
    return out;
}

std::vector<std::string> in_time_order(const std::string& bytes) {
    IndexedLog log(bytes);
    std::vector<std::string> lines;
    while (const Event* e = log.reader.next()) {
        std::string line;
        append_event_text(line, *e);
        lines.push_back(line);
    }
    BOOST_TEST(!log.index.any_data_loss());
    return lines;
}

// Every reader, every chunk size: the same events, nothing lost.
void check_everywhere(const std::string& bytes, const std::vector<std::string>& want, Diagnostic counted,
                      std::uint64_t times) {
    for (std::size_t chunk :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{64}}) {
        BOOST_TEST_CONTEXT("chunk " << chunk) {
            const Streamed s = stream(bytes, chunk);
            BOOST_TEST(s.lines == want, boost::test_tools::per_element());
            BOOST_TEST(!s.diagnostics.any_data_loss());
            BOOST_TEST(!s.truncated);
            BOOST_TEST(s.diagnostics.count(counted) == times);
        }
    }
    BOOST_TEST(in_time_order(bytes) == want, boost::test_tools::per_element());
}

std::string text_of(std::uint64_t time, const InfoProv& p) {
    Event e;
    e.time = time;
    e.tag = InfoProv::tag;
    e.payload = p;
    std::string line;
    append_event_text(line, e);
    return line;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(record_framing)

// 9.10.3's layout: IPE events declared one byte long, one after another, then other events,
// the last IPE event of a block ending where the block ends.
BOOST_AUTO_TEST_CASE(ipe_events_declared_one_byte_long_are_framed_by_their_fields) {
    EventlogBuilder b = ipe_log();
    b.begin_block(10, kGlobalCap, 100);
    std::vector<std::string> want;
    for (std::uint64_t i = 0; i < 5; ++i) {
        const InfoProv p = ipe(0x400000 + i, "sat_info", "A.hs:1:1-5");
        b.mis_sized_event(10 + i, p, 1);
        want.push_back(text_of(10 + i, p));
    }
    b.event(20, RunThread{7});
    const InfoProv last = ipe(0x500000, "last_info", "B.hs:2:3");
    b.mis_sized_event(30, last, 1).end_block();
    b.begin_block(40, 0, 60).event(50, RunThread{8}).end_block();
    const std::string bytes = b.finish();
    // RunThread lines come from the events the builder wrote.
    std::vector<std::string> all = stream(bytes, 0).lines;
    BOOST_REQUIRE_EQUAL(all.size(), 10u);  // 2 block markers, 6 IPE, 2 RunThread
    BOOST_TEST(all[1] == want[0]);
    BOOST_TEST(all[7] == text_of(30, last));
    check_everywhere(bytes, all, Diagnostic::declared_size_too_large, 6);
}

// A newer GHC's appended field: the declared length is right (what follows it is a record),
// so the event is framed as declared and its unknown tail counted.
BOOST_AUTO_TEST_CASE(bytes_after_the_known_fields_are_skipped_where_the_next_record_follows_them) {
    EventlogBuilder b = ipe_log();
    std::string payload;
    field_io::write_fields(payload, ipe(0x400000, "t_info", "A.hs:1:1"));
    payload += std::string("\x01\x02\x03\x04", 4);  // a field this tool does not know
    b.begin_block(10, kGlobalCap, 100).raw_event(InfoProv::tag, 11, payload).event(12, RunThread{3});
    b.raw_event(InfoProv::tag, 13, payload).end_block();  // the last: ends as declared at the block's end
    const std::string bytes = b.finish();
    const Streamed s = stream(bytes, 0);
    BOOST_REQUIRE_EQUAL(s.lines.size(), 4u);
    BOOST_TEST(s.lines[1] == text_of(11, ipe(0x400000, "t_info", "A.hs:1:1")));
    check_everywhere(bytes, s.lines, Diagnostic::payload_longer_than_known, 2);
}

// Fields that do not fit their declared length: decoded too short, framed as declared.
BOOST_AUTO_TEST_CASE(a_declared_length_too_short_for_the_fields_is_kept_and_counted) {
    EventlogBuilder b = ipe_log();
    b.begin_block(10, kGlobalCap, 100);
    b.mis_sized_event(11, ipe(1, "x_info", "A.hs:1:1"), -3);  // the last string loses its end
    b.raw_event(RunThread::tag, 12, std::string(4, '\0')).end_block();
    const std::string bytes = b.finish();
    const Streamed s = stream(bytes, 1);
    BOOST_TEST(s.diagnostics.count(Diagnostic::payload_too_short) == 1u);
    BOOST_TEST(s.diagnostics.count(Diagnostic::declared_size_too_large) == 0u);
}

// Without blocks (no bound known) and at the very end of the input (no end marker): framed
// by what follows, and by the end of the input.
BOOST_AUTO_TEST_CASE(outside_blocks_and_at_the_input_end_the_next_record_or_the_end_decides) {
    EventlogBuilder b = ipe_log();
    b.mis_sized_event(11, ipe(1, "a_info", "A.hs:1:1"), 1).event(12, RunThread{3});
    b.mis_sized_event(13, ipe(2, "b_info", "A.hs:2:1"), 1);
    const std::string bytes = b.finish(false);
    for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{5}}) {
        const Streamed s = stream(bytes, chunk);
        BOOST_TEST(s.lines.size() == 3u);
        BOOST_TEST(s.diagnostics.count(Diagnostic::declared_size_too_large) == 2u);
        BOOST_TEST(s.diagnostics.count(Diagnostic::truncated_input) == 1u);  // no end marker
    }
}

// The framing function itself: what it asks for, and what it decides.
BOOST_AUTO_TEST_CASE(variable_record_size_asks_for_what_decides) {
    EventlogBuilder b = ipe_log();
    b.mis_sized_event(11, ipe(1, "a_info", "A.hs:1:1"), 1).event(12, RunThread{3});
    const std::string whole = b.finish(false);
    Header header;
    const std::size_t data = *parse_header(reinterpret_cast<const std::uint8_t*>(whole.data()), whole.size(), header);
    const auto* p = reinterpret_cast<const std::uint8_t*>(whole.data()) + data;
    const std::size_t written = kEventHeader + 2 + load_be16(p + kEventHeader) - 1;
    // The declared payload first, then two bytes past it, then the decision.
    BOOST_TEST(variable_record_size(header, p, 12, kUnbounded) == written + 1);
    BOOST_TEST(variable_record_size(header, p, written + 1, kUnbounded) == written + 3);
    BOOST_TEST(variable_record_size(header, p, written + 3, kUnbounded) == written);
    // Its block ends where it was written: no need to look further.
    BOOST_TEST(variable_record_size(header, p, written, written) == written);
    BOOST_TEST((variable_framing(p, written) == VariableFraming::by_its_fields));
}

BOOST_AUTO_TEST_SUITE_END()
