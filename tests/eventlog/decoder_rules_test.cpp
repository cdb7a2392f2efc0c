// One test per decoding rule of the design (design.md "Decoding rules").
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "collecting_sink.hpp"
#include "eventlog/byte_reader.hpp"
#include "eventlog/payload_decoder.hpp"
#include "eventlog_builder.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::CollectingSink;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::feed_all;

namespace {

struct Decoded {
    CollectingSink sink;
    Diagnostics diagnostics;
    std::optional<std::uint64_t> truncated_at;
    bool mid_event = false;
    Header header;
};

std::unique_ptr<Decoded> decode(const std::string& bytes, std::size_t chunk = 0) {
    auto d = std::make_unique<Decoded>();
    PushDecoder decoder(d->sink, d->diagnostics);
    feed_all(decoder, bytes, chunk);
    d->truncated_at = decoder.truncated_at();
    d->mid_event = decoder.truncated_mid_event();
    d->header = decoder.header();
    return d;
}

EventlogBuilder threads_log() {
    EventlogBuilder b;
    b.declare_block_marker().declare<CreateThread>().declare<RunThread>().declare<StopThread>();
    return b;
}

std::uint64_t error_offset(const std::string& bytes) {
    try {
        decode(bytes);
    } catch (const Error& e) {
        BOOST_REQUIRE(e.context().offset.has_value());
        return *e.context().offset;
    }
    BOOST_FAIL("no error");
    return 0;
}

}  // namespace

BOOST_AUTO_TEST_CASE(header_declares_types_sizes_and_descriptions) {
    EventlogBuilder b;
    b.declare<StopThread>().declare<UserMessage>().declare_raw(250, 3, "Something new");
    auto d = decode(b.finish());
    BOOST_TEST(d->header.types().size() == 3u);
    BOOST_TEST(d->header.size_of(StopThread::tag) == 10);
    BOOST_TEST(d->header.size_of(UserMessage::tag) == Header::kVariable);
    BOOST_TEST(d->header.size_of(250) == 3);
    BOOST_TEST(d->header.find(250)->description == "Something new");
    BOOST_TEST(!d->header.declares(1));
}

BOOST_AUTO_TEST_CASE(fixed_event_fields_decode_big_endian) {
    auto b = threads_log();
    b.event(1000, StopThread{0x01020304, 8, 77});
    auto d = decode(b.finish());
    BOOST_REQUIRE(d->sink.events.size() == 1u);
    BOOST_TEST(d->sink.events[0].time == 1000u);
    BOOST_TEST(d->sink.events[0].tag == StopThread::tag);
    // decode_payload directly, to see the typed fields
    std::string payload;
    field_io::write_fields(payload, StopThread{0x01020304, 8, 77});
    auto p = decode_payload(StopThread::tag, reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size());
    const auto& s = std::get<StopThread>(p);
    BOOST_TEST(s.thread == 0x01020304u);
    BOOST_TEST(s.status == 8);
    BOOST_TEST(*s.blocker == 77u);
}

BOOST_AUTO_TEST_CASE(longer_declared_payload_reads_known_fields_and_skips_the_rest) {
    EventlogBuilder b;
    b.declare<RunThread>(std::optional<std::uint16_t>(9)).declare<CreateThread>();
    b.raw_event(RunThread::tag, 5,
                std::string("\0\0\0\x07"
                            "extra",
                            9));
    b.event(6, CreateThread{8});
    auto d = decode(b.finish());
    BOOST_REQUIRE(d->sink.events.size() == 2u);
    BOOST_TEST(d->sink.events[0].payload_index == Payload(RunThread{}).index());
    BOOST_TEST(d->sink.events[1].payload_index == Payload(CreateThread{}).index());
    BOOST_TEST(d->diagnostics.count(Diagnostic::payload_too_short) == 0u);
}

BOOST_AUTO_TEST_CASE(optional_trailing_field_absent_in_older_layout) {
    std::string six(6, '\0');
    six[3] = 5;
    auto p = decode_payload(StopThread::tag, reinterpret_cast<const std::uint8_t*>(six.data()), six.size());
    BOOST_TEST(!std::get<StopThread>(p).blocker.has_value());
    std::string fifty(50, '\0');
    auto g = decode_payload(GCStatsGHC::tag, reinterpret_cast<const std::uint8_t*>(fifty.data()), fifty.size());
    BOOST_TEST(!std::get<GCStatsGHC>(g).par_balanced_copied.has_value());
    std::string fifty_eight(58, '\0');
    fifty_eight[57] = 9;
    auto g2 = decode_payload(GCStatsGHC::tag, reinterpret_cast<const std::uint8_t*>(fifty_eight.data()), 58);
    BOOST_TEST(*std::get<GCStatsGHC>(g2).par_balanced_copied == 9u);
}

BOOST_AUTO_TEST_CASE(nonmoving_census_block_size_width_follows_declared_size) {
    std::string old_form(
        "\x0f"
        "\0\0\0\x01"
        "\0\0\0\x02"
        "\0\0\0\x03",
        13);
    auto a = std::get<NonmovingHeapCensus>(
        decode_payload(NonmovingHeapCensus::tag, reinterpret_cast<const std::uint8_t*>(old_form.data()), 13));
    BOOST_TEST(a.blk_size == 15);
    BOOST_TEST(a.blk_size_is_log2);
    BOOST_TEST(a.live_blocks == 3u);
    std::string new_form(
        "\x80\x00"
        "\0\0\0\x01"
        "\0\0\0\x02"
        "\0\0\0\x03",
        14);
    auto b = std::get<NonmovingHeapCensus>(
        decode_payload(NonmovingHeapCensus::tag, reinterpret_cast<const std::uint8_t*>(new_form.data()), 14));
    BOOST_TEST(b.blk_size == 0x8000);
    BOOST_TEST(!b.blk_size_is_log2);
    BOOST_TEST(b.active_segs == 1u);
}

BOOST_AUTO_TEST_CASE(too_short_payload_is_skipped_and_counted) {
    EventlogBuilder b;
    b.declare<StopThread>(std::optional<std::uint16_t>(3)).declare<CreateThread>();
    b.raw_event(StopThread::tag, 1, "abc");
    b.event(2, CreateThread{4});
    auto d = decode(b.finish());
    BOOST_REQUIRE(d->sink.events.size() == 2u);
    BOOST_TEST(d->sink.events[0].payload_index == 0u);  // UnknownEvent
    BOOST_TEST(d->diagnostics.count(Diagnostic::payload_too_short) == 1u);
    BOOST_TEST(d->sink.events[1].payload_index == Payload(CreateThread{}).index());
}

BOOST_AUTO_TEST_CASE(declared_unknown_tag_is_skipped_and_counted) {
    EventlogBuilder b;
    b.declare_raw(250, 5, "Future event").declare_raw(251, std::nullopt, "Future variable").declare<CreateThread>();
    b.raw_event(250, 1, "12345").raw_event(251, 2, "anything at all").event(3, CreateThread{1});
    auto d = decode(b.finish());
    BOOST_REQUIRE(d->sink.events.size() == 3u);
    BOOST_TEST(d->diagnostics.count(Diagnostic::unknown_event_type) == 2u);
    BOOST_TEST(d->sink.events[2].time == 3u);
}

BOOST_AUTO_TEST_CASE(undeclared_tag_is_an_error_at_its_offset) {
    auto b = threads_log();
    b.event(1, CreateThread{1});
    std::string bytes = b.finish(false);
    std::size_t bad_at = bytes.size();
    bytes += std::string("\x00\x63", 2) + std::string(8, '\0');  // tag 99, not declared
    bytes += std::string("\xff\xff", 2);
    BOOST_TEST(error_offset(bytes) == bad_at);
}

BOOST_AUTO_TEST_CASE(bad_magic_is_an_error_at_offset_zero) {
    std::string bytes = threads_log().finish();
    bytes[0] = 'X';
    BOOST_TEST(error_offset(bytes) == 0u);
}

BOOST_AUTO_TEST_CASE(malformed_event_type_entry_reports_its_offset) {
    std::string bytes = threads_log().finish();
    std::size_t etb = bytes.find(std::string("etb\0", 4));
    bytes[etb + 8] = '\x7f';  // description length: 2 GiB
    BOOST_TEST(error_offset(bytes) == etb + 8);
}

BOOST_AUTO_TEST_CASE(input_ending_inside_the_header_is_an_error) {
    std::string bytes = threads_log().finish();
    BOOST_CHECK_THROW(decode(bytes.substr(0, 20)), Error);
    BOOST_CHECK_THROW(decode(""), Error);
}

BOOST_AUTO_TEST_CASE(missing_end_marker_keeps_every_event_and_reports_truncation) {
    auto b = threads_log();
    b.event(1, CreateThread{1}).event(2, RunThread{1});
    std::string bytes = b.finish(false);
    auto d = decode(bytes);
    BOOST_TEST(d->sink.events.size() == 2u);
    BOOST_REQUIRE(d->truncated_at.has_value());
    BOOST_TEST(*d->truncated_at == bytes.size());
    BOOST_TEST(!d->mid_event);
    BOOST_TEST(d->diagnostics.count(Diagnostic::truncated_input) == 1u);
}

BOOST_AUTO_TEST_CASE(cut_mid_event_keeps_the_prefix_and_reports_where_data_stopped) {
    auto b = threads_log();
    b.event(1, CreateThread{1});
    std::size_t second_at = b.header().size() + b.data_size();
    b.event(2, StopThread{1, 5, 0});
    std::string bytes = b.finish(false);
    for (std::size_t cut = second_at + 1; cut < bytes.size(); ++cut) {
        auto d = decode(bytes.substr(0, cut));
        BOOST_TEST(d->sink.events.size() == 1u);
        BOOST_TEST(*d->truncated_at == second_at);
        BOOST_TEST(d->mid_event);
    }
}

BOOST_AUTO_TEST_CASE(block_markers_give_the_capability_of_their_events) {
    auto b = threads_log();
    b.begin_block(10, 1).event(11, RunThread{3}).end_block();
    b.begin_block(12, kGlobalCap).event(13, CreateThread{4}).end_block();
    b.begin_block(14, 0).event(15, RunThread{5}).end_block();
    auto d = decode(b.finish());
    const auto& ev = d->sink.events;
    BOOST_REQUIRE(ev.size() == 6u);
    BOOST_TEST((ev[0].cap == std::optional<CapNo>(1)));  // the marker is inside its own block
    BOOST_TEST((ev[1].cap == std::optional<CapNo>(1)));
    BOOST_TEST(!ev[2].cap.has_value());
    BOOST_TEST(!ev[3].cap.has_value());
    BOOST_TEST((ev[5].cap == std::optional<CapNo>(0)));
    BOOST_TEST(d->diagnostics.count(Diagnostic::events_outside_block) == 0u);
}

BOOST_AUTO_TEST_CASE(events_after_a_block_ends_have_no_capability) {
    auto b = threads_log();
    b.begin_block(10, 1).event(11, RunThread{3}).end_block();
    b.event(12, CreateThread{9});
    auto d = decode(b.finish());
    BOOST_REQUIRE(d->sink.events.size() == 3u);
    BOOST_TEST(!d->sink.events[2].cap.has_value());
    BOOST_TEST(d->diagnostics.count(Diagnostic::events_outside_block) == 1u);
}

// Damage inside a block is skipped to the next block marker (corruption_test.cpp has more).
BOOST_AUTO_TEST_CASE(event_crossing_its_block_end_is_corrupt_data_skipped) {
    auto b = threads_log();
    std::size_t marker_at = b.header().size();
    b.begin_block(10, 1).event(11, RunThread{3}).event(12, RunThread{3}).end_block();
    std::string bytes = b.finish();
    // Shrink the block by 2 bytes: the last event now crosses its end.
    std::uint32_t size = load_be32(reinterpret_cast<const std::uint8_t*>(bytes.data()) + marker_at + 10) - 2;
    std::string s;
    field_io::put_int(s, size);
    bytes.replace(marker_at + 10, 4, s);
    auto d = decode(bytes);
    BOOST_TEST(d->sink.events.size() == 2u);  // the marker and the first event
    BOOST_TEST(d->diagnostics.count(Diagnostic::corrupt_data_skipped) == 1u);
    BOOST_TEST(!d->truncated_at.has_value());
}

BOOST_AUTO_TEST_CASE(end_marker_closing_a_block_that_claims_more_is_a_block_overrun) {
    auto b = threads_log();
    std::size_t marker_at = b.header().size();
    b.begin_block(10, 1).event(11, RunThread{3}).end_block();
    std::string bytes = b.finish();
    bytes[marker_at + 10] = '\x10';  // block size now far past the data
    auto d = decode(bytes);
    BOOST_TEST(d->sink.events.size() == 2u);
    BOOST_TEST(d->diagnostics.count(Diagnostic::block_overrun) == 1u);
    BOOST_TEST(d->diagnostics.count(Diagnostic::corrupt_data_skipped) == 0u);
    BOOST_TEST(!d->truncated_at.has_value());
}

BOOST_AUTO_TEST_CASE(impossible_block_size_is_corrupt_data_skipped) {
    auto b = threads_log();
    std::size_t marker_at = b.header().size();
    b.begin_block(10, 1).event(11, RunThread{3}).end_block();
    std::string bytes = b.finish();
    bytes.replace(marker_at + 10, 4, std::string("\0\0\0\x05", 4));
    auto d = decode(bytes);
    BOOST_TEST(d->sink.events.empty());
    BOOST_TEST(d->diagnostics.count(Diagnostic::corrupt_data_skipped) == 1u);
}

BOOST_AUTO_TEST_CASE(data_split_anywhere_decodes_the_same) {
    auto b = threads_log();
    b.declare<UserMessage>().declare<ThreadLabel>();
    b.begin_block(1, 0);
    for (std::uint32_t i = 0; i < 20; ++i) {
        b.event(10 + i, RunThread{i});
        b.event(10 + i, UserMessage{Text{std::string_view("message number ")}});
        b.event(10 + i, StopThread{i, 3, 0});
    }
    b.end_block();
    std::string bytes = b.finish();
    auto whole = decode(bytes);
    BOOST_TEST(whole->sink.events.size() == 61u);
    for (std::size_t chunk : {1u, 2u, 3u, 7u, 13u, 64u, 1000u}) {
        auto split = decode(bytes, chunk);
        BOOST_CHECK_MESSAGE(split->sink.events == whole->sink.events, "chunk " << chunk);
    }
}

BOOST_AUTO_TEST_CASE(bytes_after_the_end_marker_are_ignored) {
    auto b = threads_log();
    b.event(1, CreateThread{1});
    auto d = decode(b.finish() + "garbage");
    BOOST_TEST(d->sink.events.size() == 1u);
    BOOST_TEST(!d->truncated_at.has_value());
}

// A type of fixed-width fields is read without a check per field where its payload holds them
// all (decode_payload_as): for every such type, random payloads from one byte short to a few
// bytes long give what the checked reading gives, field by field.
namespace {
template <typename T>
void check_fixed_layout_reads_as_checked(std::mt19937& rng, std::size_t& types) {
    constexpr std::size_t fixed = field_io::fixed_payload_size<T>();
    // NONMOVING_HEAP_CENSUS has a layout of its own (by its size: payload_decoder.cpp).
    if constexpr (fixed != field_io::kVariableSize && fixed > 0 && !std::is_same_v<T, NonmovingHeapCensus>) {
        ++types;
        for (std::size_t size = fixed - 1; size <= fixed + 3; ++size)
            for (int trial = 0; trial < 20; ++trial) {
                std::vector<std::uint8_t> bytes(size);
                for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
                if (trial == 0) std::fill(bytes.begin(), bytes.end(), 0xFF);  // every bit of every field set
                const Payload got = decode_payload(T::tag, bytes.data(), bytes.size());
                ByteReader r(bytes.data(), bytes.size());
                T want{};
                field_io::read_fields(r, want);
                if (!r.ok()) {
                    const auto* unknown = std::get_if<UnknownEvent>(&got);
                    BOOST_TEST_REQUIRE((unknown && unknown->too_short), T::name << ", " << size << " bytes");
                    continue;
                }
                const T* decoded = std::get_if<T>(&got);
                BOOST_TEST_REQUIRE(decoded, T::name << ", " << size << " bytes");
                std::string got_fields, want_fields;  // every field, optional ones with whether present
                field_io::write_fields(got_fields, *decoded);
                field_io::write_fields(want_fields, want);
                BOOST_TEST_REQUIRE(got_fields == want_fields, T::name << ", " << size << " bytes");
            }
    }
}
template <std::size_t... I>
std::size_t check_every_fixed_layout(std::mt19937& rng, std::index_sequence<I...>) {
    std::size_t types = 0;
    (check_fixed_layout_reads_as_checked<std::variant_alternative_t<I + 1, Payload>>(rng, types), ...);
    return types;
}
}  // namespace

BOOST_AUTO_TEST_CASE(fixed_layouts_read_unchecked_as_field_by_field) {
    std::mt19937 rng(35);
    const std::size_t types = check_every_fixed_layout(rng, std::make_index_sequence<std::variant_size_v<Payload> - 1>{});
    BOOST_TEST(types > 40u);  // the scheduler's, the collections', the heap's … (not a vacuous pass)
}
