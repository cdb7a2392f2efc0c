// The index from block markers (block_index.hpp) must equal the one decoding gives, for every
// log it accepts, and decline every log decoding would have something to say about.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <mutex>
#include <unistd.h>
#include <vector>

#include "eventlog/block_index.hpp"
#include "eventlog/byte_reader.hpp"
#include "eventlog/payload_decoder.hpp"
#include "eventlog/range_index.hpp"
#include "eventlog/reorder_window.hpp"
#include "eventlog_builder.hpp"
#include "eventlog_files.hpp"
#include "temp_file.hpp"
#include "upstream_data.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::TempFile;

namespace {

struct Both {
    std::optional<RangeIndex> fast;
    Diagnostics fast_diagnostics;  // the index from block markers'
    RangeIndex decoded;
    Diagnostics diagnostics;  // decoding's
};

// What decoding says of a well-formed log: how it framed variable-size records.
std::uint64_t framing_remarks(const Diagnostics& d) {
    return d.count(Diagnostic::declared_size_too_large) + d.count(Diagnostic::payload_longer_than_known);
}

Both index_both(const std::string& path) {
    Both out;
    InputFile fast_input(path);
    out.fast = index_by_blocks(fast_input, out.fast_diagnostics);
    InputFile input(path);
    out.decoded = index_by_decoding(input, out.diagnostics);
    return out;
}

void check_same(const Both& both) {
    BOOST_REQUIRE(both.fast);
    // Nothing but the framing remarks, counted alike.
    BOOST_TEST(both.diagnostics.total() == framing_remarks(both.diagnostics));
    for (std::size_t d = 0; d < kDiagnosticCount; ++d)
        BOOST_TEST(both.fast_diagnostics.count(Diagnostic(d)) == both.diagnostics.count(Diagnostic(d)),
                   Diagnostics::info(Diagnostic(d)).id);
    BOOST_TEST(both.fast->stream_end.bytes == both.decoded.stream_end.bytes);
    BOOST_TEST(!both.decoded.stream_end.truncated_at);
    BOOST_TEST(both.decoded.stream_end.lost.empty());
    BOOST_TEST(both.fast->ranges.size() == both.decoded.ranges.size());
    BOOST_CHECK(both.fast->ranges == both.decoded.ranges);
    const auto& a = both.fast->header.types();
    const auto& b = both.decoded.header.types();
    BOOST_REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        BOOST_TEST(a[i].tag == b[i].tag);
        BOOST_CHECK(a[i].size == b[i].size);
        BOOST_TEST(a[i].description == b[i].description);
    }
}

EventlogBuilder base() {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<RunThread>()
        .declare<StopThread>()
        .declare<GCStatsGHC>()
        .declare<CapsetCreate>()
        .declare<UserMessage>();
    return b;
}

// Two capabilities' blocks and the global one, with a message (variable size).
EventlogBuilder well_formed() {
    auto b = base();
    b.begin_block(100, 0, 400).event(110, RunThread{1}).event(300, StopThread{1, 3, 0}).end_block();
    b.begin_block(105, 1, 400).event(120, RunThread{2}).event(200, UserMessage{{"hello"}}).end_block();
    b.begin_block(50, kGlobalCap, 400).event(60, CapsetCreate{0, 2}).end_block();
    return b;
}

// The log as GHC 9.6 and later write it: the last block's size counts the end-of-data marker
// after its records.
std::string with_end_marker_in_last_block(std::string bytes) {
    std::size_t at = bytes.find("datb") + 4;
    for (;;) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data()) + at;
        const std::uint32_t size = load_be32(p + 10);
        if (at + size + 2 == bytes.size()) {
            const std::uint32_t grown = size + 2;
            for (int i = 0; i < 4; ++i) bytes[at + 10 + static_cast<std::size_t>(i)] = static_cast<char>(grown >> (24 - 8 * i));
            return bytes;
        }
        at += size;
    }
}

// What a BlockReading is handed, block by block (the checking threads' readers write to
// their blocks' slots, under a lock).
struct Handed {
    struct Block {
        bool begun = false, ended = false;
        std::vector<BlockRecord> records;  // payload pointers cleared: valid only in the call
        std::vector<std::string> payloads;
        std::size_t runs = 0;  // calls of records()
        BlockTotals totals;
    };
    std::mutex mutex;
    std::vector<BlockReading::Start> starts;
    std::vector<Block> blocks;
    std::optional<std::size_t> refuse;  // begin_block of this block gives false
    std::function<void()> at_begin;     // called at each begin_block, before anything is read
};

class RecordingReader final : public BlockReader {
public:
    explicit RecordingReader(Handed& handed) : handed_(handed) {}
    bool begin_block(std::size_t block, std::optional<CapNo> cap) override {
        std::lock_guard lock(handed_.mutex);
        if (handed_.at_begin) handed_.at_begin();
        BOOST_TEST((cap == handed_.starts.at(block).cap));
        if (handed_.refuse == block) return false;
        block_ = block;
        handed_.blocks.at(block).begun = true;
        return true;
    }
    void records(std::span<const BlockRecord> records) override {
        std::lock_guard lock(handed_.mutex);
        Handed::Block& b = handed_.blocks.at(block_);
        ++b.runs;
        for (BlockRecord r : records) {
            b.payloads.emplace_back(reinterpret_cast<const char*>(r.payload), r.payload_size);
            r.payload = nullptr;
            b.records.push_back(r);
        }
    }
    void end_block(const BlockTotals& totals) override {
        std::lock_guard lock(handed_.mutex);
        handed_.blocks.at(block_).totals = totals;
        handed_.blocks.at(block_).ended = true;
    }

private:
    Handed& handed_;
    std::size_t block_ = 0;
};

BlockReading recording(Handed& handed, std::initializer_list<std::uint16_t> tags) {
    BlockReading reading;
    reading.found = [&handed](std::span<const BlockReading::Start> starts) {
        handed.starts.assign(starts.begin(), starts.end());
        handed.blocks.resize(starts.size());
    };
    for (std::uint16_t tag : tags) reading.given.set(tag);
    reading.reader = [&handed] { return std::make_unique<RecordingReader>(handed); };
    return reading;
}

bool declined(const std::string& bytes) {
    TempFile f(bytes);
    InputFile input(f.path);
    Diagnostics diagnostics;
    const bool out = !index_by_blocks(input, diagnostics).has_value();
    BOOST_TEST(diagnostics.total() == 0u);  // a declined log's counts are decoding's to give
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_well_formed_log_is_indexed_as_decoding_does) {
    TempFile f(well_formed().finish());
    Both both = index_both(f.path);
    check_same(both);
    BOOST_TEST(both.fast->ranges.size() == 3u);
    BOOST_TEST(both.fast->ranges[2].previous_time == 200u);  // the record before it in the file
    BOOST_TEST(!both.fast->ranges[2].cap.has_value());
}

BOOST_AUTO_TEST_CASE(the_end_marker_inside_the_last_block_as_newer_ghcs_write_it) {
    TempFile f(with_end_marker_in_last_block(well_formed().finish()));
    Both both = index_both(f.path);
    check_same(both);
    BOOST_TEST(both.fast->ranges.size() == 3u);
    BOOST_TEST(both.fast->ranges[2].end == both.fast->stream_end.bytes - 2);
    // Not so for a block that reaches the end without the marker (a log cut short), nor for
    // one whose last two bytes are no end marker.
    std::string cut = with_end_marker_in_last_block(well_formed().finish());
    cut.resize(cut.size() - 2);
    BOOST_TEST(declined(cut));
    std::string other = with_end_marker_in_last_block(well_formed().finish());
    other[other.size() - 1] = 0;
    BOOST_TEST(declined(other));
}

BOOST_AUTO_TEST_CASE(disorder_inside_a_block_gets_the_window_decoding_finds) {
    auto b = base();
    b.begin_block(10, 0, 1000).event(20, RunThread{1}).event(90, GCStatsGHC{}).event(30, StopThread{1, 3, 0});
    b.event(40, RunThread{1}).event(35, StopThread{1, 3, 0}).end_block();
    TempFile f(b.finish());
    Both both = index_both(f.path);
    check_same(both);
    BOOST_TEST(both.fast->ranges[0].window == 4u);  // 35 overtakes 90, three records before it
    BOOST_TEST(both.fast->ranges[0].min_time == 10u);
}

// Real logs: every one decoding has nothing to say of but its framing is accepted, every other
// declined (the fixtures include logs of killed programs; GHC 9.10 declares each info-table
// record one byte too long).
BOOST_AUTO_TEST_CASE(real_eventlogs_are_indexed_from_their_blocks) {
    const char* dir = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE(dir);
    std::size_t clean = 0, damaged = 0, newer = 0, framed = 0;
    for (const std::filesystem::path& path : el2fx::testing::eventlogs_in(dir)) {  // every GHC's
        BOOST_TEST_CONTEXT(path.parent_path().filename() / path.filename()) {
            Both both = index_both(path.string());
            if (both.diagnostics.total() == framing_remarks(both.diagnostics)) {
                check_same(both);
                ++clean;
                if (framing_remarks(both.diagnostics) > 0) ++framed;
                // GHC 9.6 and later: the end-of-data marker inside the last block.
                if (path.parent_path().filename().string().starts_with("ghc-")) ++newer;
            } else {
                BOOST_TEST(!both.fast.has_value());
                ++damaged;
            }
        }
    }
    BOOST_TEST(clean >= 4u);
    BOOST_TEST(damaged >= 1u);
    BOOST_TEST(newer >= 10u);
    BOOST_TEST(framed >= 2u);  // 9.10's ipe-hi and stack-profiler
}

// A variable-size record with bytes after the fields this tool knows (a newer GHC's fields)
// is framed as declared and counted, as decoding counts it; the log is accepted.
BOOST_AUTO_TEST_CASE(bytes_after_a_records_known_fields_are_counted_as_decoding_counts_them) {
    EventlogBuilder b;
    b.declare_block_marker().declare<InfoProv>().declare<RunThread>();
    std::string ipe(8, '\0');
    ipe[7] = 1;  // the info pointer
    for (const char* text : {"T", "desc", "ty", "label", "Main", "Main.hs:1:1"}) ipe += std::string(text) + '\0';
    b.begin_block(100, 0, 400).event(110, RunThread{1});
    b.raw_event(InfoProv::tag, 120, ipe + "xyz").raw_event(InfoProv::tag, 130, ipe).end_block();
    TempFile f(b.finish());
    Both both = index_both(f.path);
    check_same(both);
    BOOST_TEST(both.fast_diagnostics.count(Diagnostic::payload_longer_than_known) == 1u);
}

BOOST_AUTO_TEST_CASE(upstream_eventlogs_agree_where_accepted, UPSTREAM_DATA) {
    auto dir = el2fx::testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    std::size_t accepted = 0;
    for (const auto& entry : std::filesystem::directory_iterator(*dir)) {
        if (entry.path().extension() != ".eventlog") continue;
        BOOST_TEST_CONTEXT(entry.path().filename()) {
            Both both = index_both(entry.path().string());
            if (!both.fast) continue;  // declined: decoding indexes it (its own tests)
            check_same(both);
            ++accepted;
        }
    }
    BOOST_TEST(accepted > 0u);
}

BOOST_AUTO_TEST_CASE(damage_inside_a_block_declines) {
    auto b = base();
    b.begin_block(100, 0, 400).event(110, RunThread{1});
    b.raw_event(200, 120, "");  // a tag the header does not declare
    b.event(130, StopThread{1, 3, 0}).end_block();
    BOOST_TEST(declined(b.finish()));
}

BOOST_AUTO_TEST_CASE(a_truncated_log_declines) {
    BOOST_TEST(declined(well_formed().finish(false)));
    std::string bytes = well_formed().finish();
    BOOST_TEST(declined(bytes.substr(0, bytes.size() - 7)));  // the last block cut short
}

BOOST_AUTO_TEST_CASE(bytes_after_the_end_marker_decline) { BOOST_TEST(declined(well_formed().finish() + "xx")); }

BOOST_AUTO_TEST_CASE(a_timestamp_after_its_blocks_end_declines) {
    auto b = base();
    b.begin_block(100, 0, 400).event(110, RunThread{1}).event(5'000'000'000, StopThread{1, 3, 0}).end_block();
    BOOST_TEST(declined(b.finish()));
}

BOOST_AUTO_TEST_CASE(an_event_outside_any_block_declines) {
    auto b = well_formed();
    b.event(500, RunThread{3});
    BOOST_TEST(declined(b.finish()));
}

BOOST_AUTO_TEST_CASE(an_event_type_unknown_to_the_decoder_declines) {
    auto b = base();
    b.declare_raw(250, 4, "a type of a newer GHC");
    b.begin_block(100, 0, 400).event(110, RunThread{1}).raw_event(250, 120, "abcd").end_block();
    BOOST_TEST(declined(b.finish()));
}

BOOST_AUTO_TEST_CASE(a_payload_too_short_for_its_type_declines) {
    auto b = base();
    b.declare<RunThread>(std::optional<std::uint16_t>{2});  // a thread id needs 4 bytes
    b.begin_block(100, 0, 400).event(110, RunThread{1}).end_block();
    BOOST_TEST(declined(b.finish()));
    auto m = base();  // a message is whole however long: no too-short one to build here
    m.begin_block(100, 0, 400).raw_event(UserMessage::tag, 110, "").end_block();
    TempFile f(m.finish());
    check_same(index_both(f.path));
}

BOOST_AUTO_TEST_CASE(a_block_marker_inside_a_block_declines) {
    auto b = base();
    b.begin_block(100, 0, 400).event(110, RunThread{1});
    b.event(120, BlockMarker{24, 400, 1});
    b.end_block();
    BOOST_TEST(declined(b.finish()));
}

BOOST_AUTO_TEST_CASE(a_block_size_past_the_file_declines) {
    auto b = base();
    b.begin_block(100, 0, 400).event(110, RunThread{1});  // never ended: its size stays 0
    BOOST_TEST(declined(b.finish()));
    std::string bytes = well_formed().finish();
    const std::size_t marker = base().header().size();  // the first block's marker
    bytes[marker + 10] = '\x7f';                        // its size: about 2 GB
    BOOST_TEST(declined(bytes));
}

BOOST_AUTO_TEST_CASE(disorder_beyond_the_reorder_window_declines) {
    auto b = base();
    b.begin_block(10, 0, 100'000).event(90'000, RunThread{1});
    for (std::uint64_t i = 0; i < kMaxReorderWindow + 10; ++i) b.event(100 + i, StopThread{1, 3, 0});
    b.event(50, RunThread{1}).end_block();
    BOOST_TEST(declined(b.finish()));
}

// The format lets a type grow fields at its end (the header gives its length; readers ignore
// what they do not know). Extra fields on an event are accepted as decoding reads them; on the
// block marker itself, whose fields the jump reads, they send the log to decoding.
BOOST_AUTO_TEST_CASE(extra_fields_at_the_end_of_an_event_are_accepted) {
    auto b = base();
    b.declare<RunThread>(std::optional<std::uint16_t>{4 + 6});
    b.begin_block(100, 0, 400).event(110, RunThread{1}).event(120, StopThread{1, 3, 0}).end_block();
    TempFile f(b.finish());
    check_same(index_both(f.path));
}

BOOST_AUTO_TEST_CASE(a_block_marker_with_extra_fields_goes_to_decoding) {
    EventlogBuilder b;
    b.declare<BlockMarker>(std::optional<std::uint16_t>{14 + 2}).declare<RunThread>().declare<StopThread>();
    b.begin_block(100, 0, 400).event(110, RunThread{1}).event(130, StopThread{1, 3, 0}).end_block();
    b.begin_block(105, 1, 400).event(120, RunThread{2}).end_block();
    TempFile f(b.finish());
    Both both = index_both(f.path);
    BOOST_TEST(!both.fast.has_value());
    BOOST_TEST(both.diagnostics.total() == 0u);
    BOOST_TEST(both.decoded.ranges.size() == 2u);  // decoding still finds both blocks
}

// The census learnt from the blocks (run/block_census.hpp) stands on what the index hands its
// reader: every block's start before any is read, then on the checking thread, for each block,
// the records of the given tags in file order, and the block's totals.
BOOST_AUTO_TEST_CASE(a_reader_is_handed_each_blocks_given_records_and_totals) {
    TempFile f(well_formed().finish());
    Handed handed;
    const BlockReading reading = recording(handed, {RunThread::tag, UserMessage::tag});
    InputFile input(f.path);
    Diagnostics diagnostics;
    BOOST_REQUIRE(index_by_blocks(input, diagnostics, &reading));
    BOOST_REQUIRE(handed.starts.size() == 3u);
    BOOST_TEST(handed.starts[0].time == 100u);
    BOOST_TEST((handed.starts[1].cap == std::optional<CapNo>(1)));
    BOOST_TEST(!handed.starts[2].cap.has_value());  // the global block
    BOOST_TEST(handed.starts[2].time == 50u);
    for (const Handed::Block& b : handed.blocks) BOOST_TEST((b.begun && b.ended));

    const Handed::Block& cap0 = handed.blocks[0];
    BOOST_REQUIRE(cap0.records.size() == 1u);  // the stop is counted, not given
    BOOST_TEST(cap0.records[0].tag == RunThread::tag);
    BOOST_TEST(cap0.records[0].time == 110u);
    RunThread run{};
    BOOST_TEST(decode_as(reinterpret_cast<const std::uint8_t*>(cap0.payloads[0].data()), cap0.payloads[0].size(), run));
    BOOST_TEST(run.thread == 1u);
    BOOST_TEST(cap0.totals.by_tag[RunThread::tag] == 1u);
    BOOST_TEST(cap0.totals.by_tag[StopThread::tag] == 1u);
    BOOST_TEST(cap0.totals.by_tag[BlockMarker::tag] == 1u);  // the block's first record, its marker
    BOOST_TEST(cap0.totals.min_time == 100u);
    BOOST_TEST(cap0.totals.max_time == 300u);
    BOOST_TEST(cap0.totals.bytes == handed.starts[0].bytes);

    const Handed::Block& cap1 = handed.blocks[1];
    BOOST_REQUIRE(cap1.records.size() == 2u);
    BOOST_TEST(cap1.records[1].tag == UserMessage::tag);
    BOOST_TEST(cap1.records[0].offset < cap1.records[1].offset);  // file order
    UserMessage message{};
    BOOST_TEST(decode_as(reinterpret_cast<const std::uint8_t*>(cap1.payloads[1].data()), cap1.payloads[1].size(), message));
    BOOST_TEST(message.message.bytes == "hello");

    BOOST_TEST(handed.blocks[2].records.empty());
    BOOST_TEST(handed.blocks[2].totals.by_tag[CapsetCreate::tag] == 1u);
}

// Many records: given in runs (while their bytes are still in the core's cache), still in
// file order, each with its offset in the file.
BOOST_AUTO_TEST_CASE(a_long_block_is_handed_over_in_runs_in_file_order) {
    auto b = base();
    b.begin_block(100, 0, 1'000'000);
    for (std::uint32_t i = 0; i < 1000; ++i) b.event(110 + i, RunThread{i});
    b.end_block();
    TempFile f(b.finish());
    Handed handed;
    const BlockReading reading = recording(handed, {RunThread::tag});
    InputFile input(f.path);
    Diagnostics diagnostics;
    BOOST_REQUIRE(index_by_blocks(input, diagnostics, &reading));
    BOOST_REQUIRE(handed.blocks.size() == 1u);
    const Handed::Block& block = handed.blocks[0];
    BOOST_REQUIRE(block.records.size() == 1000u);
    BOOST_TEST(block.runs > 1u);
    for (std::size_t i = 0; i < block.records.size(); ++i) {
        RunThread run{};
        decode_as(reinterpret_cast<const std::uint8_t*>(block.payloads[i].data()), block.payloads[i].size(), run);
        BOOST_TEST(run.thread == i);
        BOOST_TEST(block.records[i].time == 110 + i);
        if (i) BOOST_TEST(block.records[i].offset == block.records[i - 1].offset + block.records[0].payload_size + 10);
    }
}

// A block its reader refuses (begin_block false) is given to it no further, and the reader
// nothing more on its thread; the index is not affected.
BOOST_AUTO_TEST_CASE(a_block_its_reader_refuses_is_given_no_further) {
    TempFile f(well_formed().finish());
    Handed handed;
    handed.refuse = 0;
    const BlockReading reading = recording(handed, {RunThread::tag, UserMessage::tag});
    InputFile input(f.path);
    Diagnostics diagnostics;
    BOOST_TEST(index_by_blocks(input, diagnostics, &reading).has_value());
    BOOST_TEST(!handed.blocks[0].begun);
    BOOST_TEST(handed.blocks[0].records.empty());
    BOOST_TEST(!handed.blocks[0].ended);
}

// Blocks of several MiB, with messages of every length across the steps a mapped input is
// loaded in: the index and what its reader is handed are the same mapped or read.
std::string large_blocks_log() {
    auto b = base();
    for (std::uint16_t cap = 0; cap < 3; ++cap) {
        b.begin_block(100 + cap, cap, 10'000'000);
        for (std::uint32_t i = 0; i < 200'000; ++i) {
            const std::uint64_t t = 110 + cap + std::uint64_t{i} * 40;
            if (i % 7 == 3)
                b.event(t, UserMessage{{std::string(i % 113, static_cast<char>('a' + i % 26))}});
            else
                b.event(t, RunThread{i});
        }
        b.end_block();
    }
    return b.finish();
}

BOOST_AUTO_TEST_CASE(a_log_is_indexed_and_handed_over_alike_mapped_or_read) {
    TempFile f(large_blocks_log());
    Handed mapped_handed, read_handed;
    const BlockReading mapped_reading = recording(mapped_handed, {RunThread::tag, UserMessage::tag});
    const BlockReading read_reading = recording(read_handed, {RunThread::tag, UserMessage::tag});
    InputFile mapped_input(f.path);
    InputFile read_input(f.path, InputFile::Access::reads_only);
    Diagnostics mapped_diagnostics, read_diagnostics;
    const auto mapped = index_by_blocks(mapped_input, mapped_diagnostics, &mapped_reading);
    BOOST_REQUIRE(mapped_input.mapping());
    const auto read = index_by_blocks(read_input, read_diagnostics, &read_reading);
    BOOST_REQUIRE(mapped);
    BOOST_REQUIRE(read);
    BOOST_CHECK(mapped->ranges == read->ranges);
    BOOST_TEST(mapped->stream_end.bytes == read->stream_end.bytes);
    BOOST_REQUIRE(mapped_handed.blocks.size() == read_handed.blocks.size());
    for (std::size_t i = 0; i < mapped_handed.blocks.size(); ++i) {
        const Handed::Block& m = mapped_handed.blocks[i];
        const Handed::Block& r = read_handed.blocks[i];
        BOOST_TEST(m.records.size() == r.records.size());
        BOOST_CHECK(m.payloads == r.payloads);
        for (std::size_t k = 0; k < std::min(m.records.size(), r.records.size()); ++k) {
            BOOST_TEST(m.records[k].offset == r.records[k].offset);
            BOOST_TEST(m.records[k].time == r.records[k].time);
        }
        BOOST_CHECK(m.totals.by_tag == r.totals.by_tag);
    }
    BOOST_TEST(mapped_handed.blocks.size() == 3u);
    BOOST_TEST(mapped_handed.blocks[0].records.size() == 200'000u);
}

// A file cut short while the index reads it through the mapping: a located error, not
// SIGBUS, and not an index of the zeros read in place of the lost pages.
BOOST_AUTO_TEST_CASE(a_log_cut_short_while_indexed_is_a_located_error) {
    TempFile f(large_blocks_log());
    Handed handed;
    BlockReading reading = recording(handed, {RunThread::tag});
    handed.at_begin = [&f] { (void)::truncate(f.path.c_str(), 8192); };
    InputFile input(f.path);
    Diagnostics diagnostics;
    try {
        (void)index_by_blocks(input, diagnostics, &reading);
        BOOST_FAIL("an index of a log cut short while read ended without an error");
    } catch (const Error& e) {
        BOOST_TEST(e.message() == "the input changed while it was being read");
        BOOST_TEST(e.context().file == f.path);
    }
}
