// Damaged eventlogs: impossible timestamps are corrected and counted, damage inside a block is
// skipped to the next block marker (and located), a damaged header is refused, and a file that
// merely stops is still called truncated. The time-ordered reader agrees with the decoder.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "collecting_sink.hpp"
#include "eventlog/block_resync.hpp"
#include "eventlog/byte_reader.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "temp_file.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::CollectingSink;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::feed_all;
using el2fx::testing::TempFile;

namespace {

struct Decoded {
    CollectingSink sink;
    Diagnostics diagnostics;
    std::optional<std::uint64_t> truncated_at;
    std::vector<LostData> lost;
    std::optional<std::uint64_t> first_bad_time_at;
};

std::unique_ptr<Decoded> decode(const std::string& bytes, std::size_t chunk = 0) {
    auto d = std::make_unique<Decoded>();
    PushDecoder decoder(d->sink, d->diagnostics);
    feed_all(decoder, bytes, chunk);
    d->truncated_at = decoder.truncated_at();
    d->lost = decoder.lost();
    d->first_bad_time_at = decoder.first_bad_time_at();
    return d;
}

EventlogBuilder threads_log() {
    EventlogBuilder b;
    b.declare_block_marker().declare<CreateThread>().declare<RunThread>().declare<StopThread>().declare<UserMessage>();
    return b;
}

void put_be64(std::string& bytes, std::size_t at, std::uint64_t v) {
    for (int i = 7; i >= 0; --i, v >>= 8) bytes[at + static_cast<std::size_t>(i)] = static_cast<char>(v & 0xFF);
}
void put_be16(std::string& bytes, std::size_t at, std::uint16_t v) {
    bytes[at] = static_cast<char>(v >> 8);
    bytes[at + 1] = static_cast<char>(v & 0xFF);
}

// Two blocks of capability 0 and one of capability 1, every event inside [start, end].
struct ThreeBlocks {
    std::string bytes;
    std::size_t second_block_at = 0, third_block_at = 0;
    std::size_t message_at = 0;  // a USER_MSG in the first block
    std::size_t run_at = 0;      // a RUN_THREAD in the first block, after the message
};

ThreeBlocks three_blocks() {
    auto b = threads_log();
    ThreeBlocks t;
    const std::size_t h = b.header().size();
    b.begin_block(100, 0, 200).event(110, CreateThread{1});
    t.message_at = h + b.data_size();
    b.event(120, UserMessage{Text{std::string_view("hello")}});
    t.run_at = h + b.data_size();
    b.event(130, RunThread{1}).event(140, StopThread{1, 2, 0}).end_block();
    t.second_block_at = h + b.data_size();
    b.begin_block(300, 1, 400).event(310, RunThread{2}).event(320, StopThread{2, 2, 0}).end_block();
    t.third_block_at = h + b.data_size();
    b.begin_block(500, 0, 600).event(510, RunThread{1}).event(520, StopThread{1, 5, 0}).end_block();
    t.bytes = b.finish();
    return t;
}

std::vector<std::uint64_t> times(const Decoded& d) {
    std::vector<std::uint64_t> out;
    for (const auto& e : d.sink.events) out.push_back(e.time);
    return out;
}

std::vector<std::uint64_t> reader_times(const std::string& bytes, Diagnostics& diagnostics) {
    TempFile file(bytes);
    InputFile input(file.path);
    TimeOrderedReader reader(input, diagnostics);
    std::vector<std::uint64_t> out;
    while (const Event* e = reader.next()) out.push_back(e->time);
    return out;
}

}  // namespace

// ---- timestamps ----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(timestamp_after_its_block_end_takes_the_previous_events_time) {
    ThreeBlocks t = three_blocks();
    put_be64(t.bytes, t.run_at + 2, 130 | (std::uint64_t{1} << 44));  // one flipped bit: ~5 hours on
    auto d = decode(t.bytes);
    BOOST_REQUIRE(d->sink.events.size() == 11u);
    BOOST_TEST(d->sink.events[3].offset == t.run_at);
    BOOST_TEST(d->sink.events[3].time == 120u);  // the USER_MSG's before it
    BOOST_TEST(d->diagnostics.count(Diagnostic::timestamp_out_of_range) == 1u);
    BOOST_TEST((d->first_bad_time_at == std::optional<std::uint64_t>(t.run_at)));
}

BOOST_AUTO_TEST_CASE(timestamp_at_or_past_2_63_is_corrected_even_outside_blocks) {
    auto b = threads_log();
    const std::size_t second = b.header().size() + 14;
    b.event(5, CreateThread{1}).event(6, RunThread{1}).event(7, StopThread{1, 2, 0});
    std::string bytes = b.finish();
    put_be64(bytes, second + 2, 6 | (std::uint64_t{1} << 63));
    auto d = decode(bytes);
    BOOST_TEST((times(*d) == std::vector<std::uint64_t>{5, 5, 7}));
    BOOST_TEST(d->diagnostics.count(Diagnostic::timestamp_out_of_range) == 1u);
    BOOST_TEST((d->first_bad_time_at == std::optional<std::uint64_t>(second)));
}

BOOST_AUTO_TEST_CASE(a_block_without_a_usable_end_time_holds_its_events_to_2_63_only) {
    auto b = threads_log();
    b.begin_block(100, 0, 0).event(5'000'000'000, RunThread{1}).end_block();   // end 0: never written
    b.begin_block(100, 1, 50).event(7'000'000'000, RunThread{2}).end_block();  // end before start
    auto d = decode(b.finish());
    BOOST_TEST((times(*d) == std::vector<std::uint64_t>{100, 5'000'000'000, 100, 7'000'000'000}));
    BOOST_TEST(d->diagnostics.count(Diagnostic::timestamp_out_of_range) == 0u);
}

BOOST_AUTO_TEST_CASE(the_time_ordered_reader_sees_the_corrected_times_in_order) {
    ThreeBlocks t = three_blocks();
    put_be64(t.bytes, t.run_at + 2, 130 | (std::uint64_t{1} << 50));
    put_be64(t.bytes, t.third_block_at + 24 + 2, 510 | (std::uint64_t{1} << 63));
    Diagnostics diagnostics;
    std::vector<std::uint64_t> got = reader_times(t.bytes, diagnostics);
    BOOST_TEST((got == std::vector<std::uint64_t>{100, 110, 120, 120, 140, 300, 310, 320, 500, 500, 520}));
    BOOST_TEST(diagnostics.count(Diagnostic::timestamp_out_of_range) == 2u);
    BOOST_TEST(diagnostics.count(Diagnostic::reorder_window_exceeded) == 0u);
}

// ---- the header ----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(a_type_declared_twice_is_a_corrupt_header_at_the_second_declaration) {
    auto b = threads_log();
    b.event(1, CreateThread{1});
    std::string bytes = b.finish();
    // Repeat the first declaration (CREATE_THREAD's).
    const std::size_t first = 8;
    const std::size_t desc_len = load_be32(reinterpret_cast<const std::uint8_t*>(bytes.data()) + first + 8);
    const std::size_t entry = 12 + desc_len + 4 + 4;
    bytes.insert(first + entry, bytes.substr(first, entry));
    try {
        decode(bytes);
        BOOST_FAIL("no error");
    } catch (const Error& e) {
        BOOST_TEST((e.context().offset == std::optional<std::uint64_t>(first + entry)));
        BOOST_TEST(std::string(e.what()).find("declared twice") != std::string::npos);
    }
}

// ---- damage inside a block: resynchronisation ------------------------------------------------

BOOST_AUTO_TEST_CASE(inflated_length_skips_to_the_next_block_and_says_what_was_lost) {
    ThreeBlocks t = three_blocks();
    put_be16(t.bytes, t.message_at + 10, 0x4000);  // the message's length now runs past its block
    for (std::size_t chunk : {0u, 1u, 3u, 17u}) {
        auto d = decode(t.bytes, chunk);
        // The marker, CREATE_THREAD; then the second and third blocks whole.
        BOOST_TEST((times(*d) == std::vector<std::uint64_t>{100, 110, 300, 310, 320, 500, 510, 520}),
                   "chunk " << chunk);
        BOOST_TEST(d->diagnostics.count(Diagnostic::corrupt_data_skipped) == 1u);
        BOOST_TEST(!d->truncated_at.has_value());
        BOOST_REQUIRE(d->lost.size() == 1u);
        const LostData& l = d->lost[0];
        BOOST_TEST(l.begin == t.message_at);
        BOOST_TEST(l.end == t.second_block_at);
        BOOST_TEST(l.resynchronised);
        BOOST_TEST((l.kind == Corruption::record_past_block_end));
        BOOST_TEST((l.cap == std::optional<CapNo>(0)));
        BOOST_TEST(l.from_time == 110u);
        BOOST_TEST(l.to_time == 200u);  // the damaged block's declared end
    }
}

BOOST_AUTO_TEST_CASE(undeclared_tag_inside_a_block_skips_to_the_next_block) {
    ThreeBlocks t = three_blocks();
    put_be16(t.bytes, t.run_at, 99);
    auto d = decode(t.bytes);
    BOOST_TEST((times(*d) == std::vector<std::uint64_t>{100, 110, 120, 300, 310, 320, 500, 510, 520}));
    BOOST_REQUIRE(d->lost.size() == 1u);
    BOOST_TEST((d->lost[0].kind == Corruption::undeclared_tag));
    BOOST_TEST(d->lost[0].tag == 99u);
    BOOST_TEST(d->lost[0].begin == t.run_at);
}

BOOST_AUTO_TEST_CASE(garbage_inside_a_block_with_a_fake_marker_in_it_resumes_at_the_real_one) {
    ThreeBlocks t = three_blocks();
    // Overwrite from the message to the end of the first block with garbage that starts with
    // an undeclared tag and holds a block-marker tag whose fields are not plausible.
    std::string garbage(t.second_block_at - t.message_at, '\xAB');
    put_be16(garbage, 0, 0x7777);
    put_be16(garbage, 4, BlockMarker::tag);
    t.bytes.replace(t.message_at, garbage.size(), garbage);
    auto d = decode(t.bytes, 5);
    BOOST_TEST((times(*d) == std::vector<std::uint64_t>{100, 110, 300, 310, 320, 500, 510, 520}));
    BOOST_REQUIRE(d->lost.size() == 1u);
    BOOST_TEST(d->lost[0].end == t.second_block_at);
}

BOOST_AUTO_TEST_CASE(damage_with_no_later_block_loses_the_rest_and_is_not_truncation) {
    ThreeBlocks t = three_blocks();
    const std::size_t bad = t.third_block_at + 24;
    put_be16(t.bytes, bad, 99);
    auto d = decode(t.bytes);
    BOOST_TEST(d->sink.events.size() == 9u);
    BOOST_REQUIRE(d->lost.size() == 1u);
    BOOST_TEST(!d->lost[0].resynchronised);
    BOOST_TEST(d->lost[0].begin == bad);
    BOOST_TEST(d->lost[0].end == t.bytes.size());
    BOOST_TEST(!d->truncated_at.has_value());
    BOOST_TEST(d->diagnostics.count(Diagnostic::truncated_input) == 0u);
}

BOOST_AUTO_TEST_CASE(a_file_cut_inside_a_block_is_truncated_not_corrupt) {
    ThreeBlocks t = three_blocks();
    for (std::size_t cut = t.third_block_at + 25; cut < t.bytes.size() - 2; ++cut) {
        auto d = decode(t.bytes.substr(0, cut));
        BOOST_TEST(d->truncated_at.has_value());
        BOOST_TEST(d->lost.empty());
        BOOST_TEST(d->diagnostics.count(Diagnostic::corrupt_data_skipped) == 0u);
    }
}

BOOST_AUTO_TEST_CASE(undeclared_tag_outside_any_block_is_still_an_error) {
    auto b = threads_log();
    b.event(1, CreateThread{1});
    std::string bytes = b.finish(false);
    const std::size_t bad_at = bytes.size();
    bytes += std::string("\x00\x63", 2) + std::string(8, '\0') + "\xff\xff";
    BOOST_CHECK_THROW(decode(bytes), Error);
    try {
        decode(bytes);
    } catch (const Error& e) {
        BOOST_TEST((e.context().offset == std::optional<std::uint64_t>(bad_at)));
    }
}

BOOST_AUTO_TEST_CASE(the_time_ordered_reader_merges_what_the_decoder_recovered) {
    ThreeBlocks t = three_blocks();
    put_be16(t.bytes, t.message_at + 10, 0x4000);
    Diagnostics diagnostics;
    std::vector<std::uint64_t> got = reader_times(t.bytes, diagnostics);
    BOOST_TEST((got == std::vector<std::uint64_t>{100, 110, 300, 310, 320, 500, 510, 520}));
    BOOST_TEST(diagnostics.count(Diagnostic::corrupt_data_skipped) == 1u);
}

BOOST_AUTO_TEST_CASE(block_candidates_are_checked_field_by_field) {
    ThreeBlocks t = three_blocks();
    Header header;
    {
        CollectingSink sink;
        Diagnostics d;
        PushDecoder decoder(sink, d);
        feed_all(decoder, t.bytes);
        header = decoder.header();
    }
    auto check = [&](const std::string& bytes, std::size_t at, bool at_end = true) {
        return check_block_candidate(header, reinterpret_cast<const std::uint8_t*>(bytes.data()) + at,
                                     bytes.size() - at, at_end);
    };
    BOOST_TEST((check(t.bytes, t.second_block_at) == BlockCandidate::yes));
    BOOST_TEST(
        (check(t.bytes.substr(0, t.second_block_at + 30), t.second_block_at, false) == BlockCandidate::need_more));
    std::string bad = t.bytes;
    put_be16(bad, t.second_block_at + 10 + 12, 0x2000);  // capability 8192
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    bad = t.bytes;
    put_be64(bad, t.second_block_at + 10 + 4, 299);  // ends before it starts
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    bad = t.bytes;
    put_be16(bad, t.second_block_at + 24, 99);  // its first event has an undeclared tag
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    bad = t.bytes;
    put_be64(bad, t.second_block_at + 24 + 2, 401 + TimestampGuard::kSlackNs);  // after the block's end
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    bad = t.bytes;
    put_be16(bad, t.second_block_at + 24 + 14, BlockMarker::tag);  // a block marker inside it
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    bad = t.bytes;
    bad[t.second_block_at + 10 + 3] -= 2;  // its records no longer tile it exactly
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    bad = t.bytes;
    put_be16(bad, t.third_block_at, RunThread::tag);  // not followed by a block or the end
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    // Cut inside the block (a killed program): accepted at the end of the input.
    BOOST_TEST((check(t.bytes.substr(0, t.second_block_at + 40), t.second_block_at) == BlockCandidate::yes));
    bad = t.bytes;
    put_be64(bad, t.second_block_at + 10 + 4, 0);  // no end time written
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    bad = t.bytes;
    put_be64(bad, t.second_block_at + 10 + 4, std::uint64_t{1} << 63);
    BOOST_TEST((check(bad, t.second_block_at) == BlockCandidate::no));
    // Ends never decrease in file order: one before the blocks already read is not a block.
    auto at = reinterpret_cast<const std::uint8_t*>(t.bytes.data()) + t.second_block_at;
    const std::size_t avail = t.bytes.size() - t.second_block_at;
    BOOST_TEST((check_block_candidate(header, at, avail, true, 400) == BlockCandidate::yes));
    BOOST_TEST((check_block_candidate(header, at, avail, true, 401) == BlockCandidate::no));
}

BOOST_AUTO_TEST_CASE(a_candidate_walk_resumes_where_it_stopped_and_has_a_budget) {
    ThreeBlocks t = three_blocks();
    Header header;
    {
        CollectingSink sink;
        Diagnostics d;
        PushDecoder decoder(sink, d);
        feed_all(decoder, t.bytes);
        header = decoder.header();
    }
    auto at = reinterpret_cast<const std::uint8_t*>(t.bytes.data()) + t.second_block_at;
    const std::size_t whole = t.bytes.size() - t.second_block_at;
    CandidateWalk walk;
    BOOST_TEST((check_block_candidate(header, at, 24 + 20, false, 0, &walk) == BlockCandidate::need_more));
    BOOST_TEST(walk.pos == 24u + 14u);  // the first record was checked, the second is cut
    BOOST_TEST((check_block_candidate(header, at, whole, false, 0, &walk) == BlockCandidate::yes));
    CandidateWalk poor{0, 20};  // too little work left for the block's 34 bytes of records
    BOOST_TEST((check_block_candidate(header, at, whole, false, 0, &poor) == BlockCandidate::no));
}

// Resynchronising into a long block, fed in small pieces, gives what one piece gives.
BOOST_AUTO_TEST_CASE(resynchronising_into_a_long_block_in_small_pieces_is_the_same) {
    auto b = threads_log();
    const std::size_t h = b.header().size();
    b.begin_block(100, 0, 200).event(110, CreateThread{1});
    const std::size_t bad = h + b.data_size();
    b.event(120, RunThread{1}).event(130, StopThread{1, 2, 0}).end_block();
    b.begin_block(300, 1, 100'000);
    for (std::uint32_t i = 0; i < 20'000; ++i) b.event(300 + i, RunThread{i});
    b.end_block();
    std::string bytes = b.finish();
    put_be16(bytes, bad, 99);
    auto whole = decode(bytes);
    BOOST_TEST(whole->sink.events.size() == 2u + 1u + 20'000u);
    for (std::size_t chunk : {1000u, 4096u}) {
        auto split = decode(bytes, chunk);
        BOOST_TEST((split->sink.events == whole->sink.events), "chunk " << chunk);
        BOOST_TEST(split->lost.size() == 1u);
    }
}

// Seen in a damaged real eventlog: the last bytes of a GC_END's timestamp (00 12 ...) and a
// SPARK_COUNTERS full of zeros looked like a block marker followed by "CREATE_THREAD at time
// 0" records, and decoding resumed inside the damaged block's own data.
BOOST_AUTO_TEST_CASE(zero_filled_records_after_a_marker_lookalike_are_not_a_block) {
    ThreeBlocks t = three_blocks();
    std::string fake = std::string("\x00\x12", 2);               // BLOCK_MARKER
    fake += std::string("\x00\x00\x00\x00\x00\x00\x01\x00", 8);  // start 256
    fake += std::string("\x00\x00\x01\x00", 4);                  // size 256
    fake += std::string("\x00\x00\x00\x00\x00\x01\x00\x00", 8);  // end 65536
    fake += std::string(2 + 256, '\0');                          // capability 0, then zeros
    std::string bytes = t.bytes;
    put_be16(bytes, t.message_at, 0x7777);  // damage, then the look-alike inside the lost stretch
    bytes.replace(t.message_at + 2, std::min(fake.size(), t.second_block_at - t.message_at - 2),
                  fake.substr(0, t.second_block_at - t.message_at - 2));
    auto d = decode(bytes);
    BOOST_REQUIRE(d->lost.size() == 1u);
    BOOST_TEST(d->lost[0].end == t.second_block_at);
}
