// Mutation tests: damaged copies of a real fixture, made here the same way every run (flipped
// timestamp bits, a timestamp past 2^63, an inflated length, a declaration repeated in the
// header, a run of garbage inside a block, a cut file), each with its expected outcome: the
// exit status, the diagnostic named on standard error, and which events survive.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "check/profile_check.hpp"
#include "collecting_sink.hpp"
#include "convert/converter.hpp"
#include "eventlog/byte_reader.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile_writer.hpp"
#include "run_process.hpp"
#include "temp_file.hpp"
#include "util/rapidjson.hpp"

using el2fx::testing::slurp;

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::env_dir;
using el2fx::testing::run_binary;
using el2fx::testing::TempFile;

namespace {

// The clean fixture and its events in file order.
struct Fixture {
    std::string bytes;
    std::vector<el2fx::testing::Seen> events;
    std::uint64_t header_size = 0;
};

Fixture load(const std::string& name) {
    Fixture f;
    f.bytes = slurp(env_dir("EL2FX_FIXTURES") + "/" + name);
    BOOST_REQUIRE(f.bytes.size() > 50'000u);
    el2fx::testing::CollectingSink sink;
    Diagnostics d;
    PushDecoder decoder(sink, d);
    el2fx::testing::feed_all(decoder, f.bytes);
    BOOST_REQUIRE(d.total() == 0u);
    f.events = sink.events;
    f.header_size = decoder.data_start();
    return f;
}

const Fixture& concurrency() {
    static const Fixture f = load("concurrency.eventlog");
    return f;
}

// The n-th event (file order) of `tag` inside capability `cap`'s block.
const el2fx::testing::Seen& nth(std::uint16_t tag, CapNo cap, std::size_t n) {
    std::size_t seen = 0;
    for (const auto& e : concurrency().events)
        if (e.tag == tag && e.cap == std::optional<CapNo>(cap) && seen++ == n) return e;
    BOOST_FAIL("the fixture has no such event");
    throw 0;
}

std::size_t index_of(std::uint64_t offset) {
    const auto& ev = concurrency().events;
    for (std::size_t i = 0; i < ev.size(); ++i)
        if (ev[i].offset == offset) return i;
    BOOST_FAIL("no event at that offset");
    return 0;
}

// The first block marker after `offset`.
std::uint64_t next_block_after(std::uint64_t offset) {
    for (const auto& e : concurrency().events)
        if (e.offset > offset && e.tag == BlockMarker::tag) return e.offset;
    BOOST_FAIL("no later block");
    return 0;
}

void put_be64(std::string& bytes, std::size_t at, std::uint64_t v) {
    for (int i = 7; i >= 0; --i, v >>= 8) bytes[at + static_cast<std::size_t>(i)] = static_cast<char>(v & 0xFF);
}

std::uint64_t time_at(const std::string& bytes, std::size_t at) {
    return load_be64(reinterpret_cast<const std::uint8_t*>(bytes.data()) + at + 2);
}

// Offsets of the events the time-ordered reader gives, sorted.
std::vector<std::uint64_t> read_offsets(const std::string& path, Diagnostics& diagnostics) {
    InputFile input(path);
    TimeOrderedReader reader(input, diagnostics);
    std::vector<std::uint64_t> out;
    while (const Event* e = reader.next()) out.push_back(e->offset);
    std::sort(out.begin(), out.end());
    return out;
}

bool contains(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

}  // namespace

// ---- timestamps ----------------------------------------------------------------------------

// One bit flipped in a STOP_THREAD's timestamp kept a thread running for hours: the
// conversion ticked the sampling timer through every millisecond of them.
BOOST_AUTO_TEST_CASE(flipped_high_timestamp_bits_are_corrected_with_a_located_warning) {
    const std::size_t stops = 3;
    for (std::size_t n = 0; n < stops; ++n) {
        const auto& stop = nth(StopThread::tag, 0, n * 40);
        for (int bit : {40, 44, 52, 62}) {
            std::string bytes = concurrency().bytes;
            put_be64(bytes, stop.offset + 2, time_at(bytes, stop.offset) ^ (std::uint64_t{1} << bit));
            TempFile file(bytes);
            auto r = run_binary({"convert", file.path, "-o", "-"});
            BOOST_TEST(r.status == 0, "bit " << bit);
            BOOST_TEST(contains(r.err, "timestamp_out_of_range"));
            BOOST_TEST(contains(r.err, "byte " + std::to_string(stop.offset)));
            BOOST_TEST(check::validate_profile(fxprof::gunzip(r.out)).empty());
            // Every event is still there: only its time was replaced.
            Diagnostics d;
            BOOST_TEST(read_offsets(file.path, d).size() == concurrency().events.size());
            BOOST_TEST(d.count(Diagnostic::timestamp_out_of_range) == 1u);
        }
    }
}

// A timestamp >= 2^63 failed the whole conversion ("the profiling range must not be empty").
BOOST_AUTO_TEST_CASE(timestamp_at_2_63_or_later_converts_with_the_same_diagnostic) {
    const auto& run = nth(RunThread::tag, 1, 10);
    std::string bytes = concurrency().bytes;
    put_be64(bytes, run.offset + 2, time_at(bytes, run.offset) | (std::uint64_t{1} << 63));
    TempFile file(bytes);
    auto r = run_binary({"convert", file.path, "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(contains(r.err, "timestamp_out_of_range"));
    BOOST_TEST(contains(r.err, "byte " + std::to_string(run.offset)));
    BOOST_TEST(check::validate_profile(fxprof::gunzip(r.out)).empty());
    BOOST_TEST(run_binary({"convert", "--strict", file.path, "-o", "-"}).status == 3);
    auto dump = run_binary({"dump", file.path});
    BOOST_TEST(dump.status == 0);
    BOOST_TEST(contains(dump.err, "timestamp_out_of_range"));
    BOOST_TEST(run_binary({"dump", "--strict", file.path}).status == 3);
}

// ---- damage inside a block ---------------------------------------------------------------

// An inflated length was reported as truncation ("the program was probably killed") and
// everything after it dropped; now the next block is found and read.
BOOST_AUTO_TEST_CASE(inflated_length_loses_only_the_rest_of_its_block) {
    const Fixture& f = concurrency();
    const el2fx::testing::Seen* variable = nullptr;
    for (const auto& e : f.events)  // the first variable-size event of capability 0's block
        if (e.cap == std::optional<CapNo>(0) && e.tag == ThreadLabel::tag) {
            variable = &e;
            break;
        }
    BOOST_REQUIRE(variable);
    std::string bytes = f.bytes;
    bytes[variable->offset + 10] = '\xFF';  // its Word16 length, high byte
    TempFile file(bytes);
    auto r = run_binary({"convert", file.path, "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(!contains(r.err, "truncated"));
    BOOST_TEST(contains(r.err, "corrupt data at bytes " + std::to_string(variable->offset) + "-" +
                                   std::to_string(next_block_after(variable->offset))));
    BOOST_TEST(contains(r.err, "corrupt_data_skipped"));
    BOOST_TEST(contains(r.err, "capability 0"));
    BOOST_TEST(run_binary({"convert", "--strict", file.path, "-o", "-"}).status == 3);

    // Recovered: every event before the damage and every event from the next block on.
    Diagnostics d;
    const std::vector<std::uint64_t> got = read_offsets(file.path, d);
    std::vector<std::uint64_t> expected;
    const std::uint64_t resume = next_block_after(variable->offset);
    for (const auto& e : f.events)
        if (e.offset < variable->offset || e.offset >= resume) expected.push_back(e.offset);
    BOOST_TEST(got == expected);
    BOOST_TEST(got.size() < f.events.size());
    BOOST_TEST(d.count(Diagnostic::corrupt_data_skipped) == 1u);

    // The profile shows it: a "Data lost" marker and the stretch in Profile Info.
    convert::ConversionReport report;
    const std::string json = fxprof::profile_to_json(convert::build_profile(file.path, {}, report));
    BOOST_TEST(check::validate_profile(json).empty());
    BOOST_TEST(contains(json, "\"DataLost\""));
    BOOST_TEST(contains(json, "Data lost at bytes " + std::to_string(variable->offset)));
    BOOST_TEST(report.stream_end.lost.size() == 1u);
}

BOOST_AUTO_TEST_CASE(garbage_inside_a_block_is_skipped_to_the_next_block) {
    const Fixture& f = concurrency();
    const auto& start = f.events[index_of(nth(RunThread::tag, 0, 30).offset)];
    std::string bytes = f.bytes;
    for (std::size_t i = 0; i < 200; ++i) bytes[start.offset + i] = static_cast<char>(0xEE ^ (i * 7));
    TempFile file(bytes);
    auto dump = run_binary({"dump", file.path});
    BOOST_TEST(dump.status == 0);
    BOOST_TEST(contains(dump.err, "corrupt data at bytes " + std::to_string(start.offset)));
    BOOST_TEST(run_binary({"dump", "--strict", file.path}).status == 3);
    // Every event before the garbage and every one of the later blocks (capability 1's, the
    // global one) is there.
    Diagnostics d;
    const std::vector<std::uint64_t> got = read_offsets(file.path, d);
    const std::uint64_t resume = next_block_after(start.offset);
    std::size_t expected = 0;
    for (const auto& e : f.events) {
        if (e.offset >= start.offset && e.offset < resume) continue;
        ++expected;
        BOOST_TEST(std::binary_search(got.begin(), got.end(), e.offset));
    }
    BOOST_TEST(got.size() == expected);
    BOOST_TEST(d.count(Diagnostic::corrupt_data_skipped) == 1u);
    auto r = run_binary({"convert", file.path, "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(check::validate_profile(fxprof::gunzip(r.out)).empty());
}

// Damage in the global block (no capability): the rest of the file is lost, and the "Data
// lost" marker goes on the process's own track.
BOOST_AUTO_TEST_CASE(damage_in_the_global_block_is_marked_on_the_process_track) {
    const Fixture& f = concurrency();
    std::uint64_t global = 0;
    for (const auto& e : f.events)
        if (e.tag == BlockMarker::tag) global = e.offset;  // the last block: the global one
    const auto it = std::find_if(f.events.begin(), f.events.end(), [&](const auto& e) { return e.offset > global; });
    BOOST_REQUIRE(it != f.events.end());
    BOOST_REQUIRE(!it->cap.has_value());
    std::string bytes = f.bytes;
    bytes[it->offset] = '\x77';
    TempFile file(bytes);
    auto r = run_binary({"convert", file.path, "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(
        contains(r.err, "corrupt data at bytes " + std::to_string(it->offset) + "-" + std::to_string(f.bytes.size())));
    BOOST_TEST(contains(r.err, "the rest of the file is lost"));

    convert::ConversionReport report;
    const std::string json = fxprof::profile_to_json(convert::build_profile(file.path, {}, report));
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    BOOST_REQUIRE(!d.HasParseError());
    std::vector<std::string> tracks;  // the tracks holding a DataLost marker
    for (const auto& thread : d["threads"].GetArray())
        for (const auto& data : thread["markers"]["data"].GetArray())
            if (data.IsObject() && data.HasMember("type") && std::string(data["type"].GetString()) == "DataLost")
                tracks.push_back(thread["isMainThread"].GetBool() ? "process" : thread["name"].GetString());
    BOOST_TEST((tracks == std::vector<std::string>{"process"}));
}

// Seen in a damaged alloc.eventlog: the resynchronisation took the tail of a GC_END's
// timestamp (00 12 ...) and a SPARK_COUNTERS full of zeros for a block, and read garbage from
// inside the damaged block. It must resume at capability 1's real block.
BOOST_AUTO_TEST_CASE(resynchronisation_skips_marker_lookalikes_in_real_data) {
    const Fixture f = load("alloc.eventlog");
    std::uint64_t damage = 0, resume = 0;
    for (const auto& e : f.events) {
        if (!damage && e.cap == std::optional<CapNo>(0) && e.tag == RunThread::tag && e.offset > 20'000)
            damage = e.offset;
        if (damage && !resume && e.offset > damage && e.tag == BlockMarker::tag) resume = e.offset;
    }
    BOOST_REQUIRE(damage > 0u);
    BOOST_REQUIRE(resume > damage + 30'000u);  // capability 0's block is long: look-alikes lie between
    std::string bytes = f.bytes;
    bytes[damage] = '\x77';  // an undeclared tag
    TempFile file(bytes);
    auto r = run_binary({"convert", file.path, "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(contains(r.err, "corrupt data at bytes " + std::to_string(damage) + "-" + std::to_string(resume)));
    BOOST_TEST(contains(r.err, "read on from the next block"));
    // One stretch lost, nothing else odd: no garbage was decoded.
    std::size_t warnings = 0;
    for (std::size_t pos = 0; (pos = r.err.find("warning:", pos)) != std::string::npos; ++pos) ++warnings;
    BOOST_TEST(warnings == 1u);
    Diagnostics d;
    std::vector<std::uint64_t> expected;
    for (const auto& e : f.events)
        if (e.offset < damage || e.offset >= resume) expected.push_back(e.offset);
    BOOST_TEST(read_offsets(file.path, d) == expected);
}

// Allocation counters near 2^64 (a damaged HEAP_ALLOCATED) made the alloc rate too large for
// the integer it is printed as: undefined behaviour (caught by the sanitizer build).
BOOST_AUTO_TEST_CASE(huge_allocation_counters_give_a_summary_not_undefined_behaviour) {
    std::string bytes = concurrency().bytes;
    std::size_t damaged = 0;
    for (const auto& e : concurrency().events)
        if (e.tag == HeapAllocated::tag) {
            put_be64(bytes, e.offset + 10 + 4, 0xFFFF'FFFF'FFFF'0000 + damaged++);
        }
    BOOST_REQUIRE(damaged > 0u);
    TempFile file(bytes);
    auto summary = run_binary({"summary", file.path});
    BOOST_TEST(summary.status == 0);
    BOOST_TEST(contains(summary.out, "bytes allocated"));
    auto r = run_binary({"convert", file.path, "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(check::validate_profile(fxprof::gunzip(r.out)).empty());
}

// ---- the header and the end ------------------------------------------------------------

BOOST_AUTO_TEST_CASE(a_declaration_repeated_in_the_header_is_a_corrupt_header) {
    std::string bytes = concurrency().bytes;
    const std::size_t first = 8;  // after "hdrbhetb"
    const std::size_t desc = load_be32(reinterpret_cast<const std::uint8_t*>(bytes.data()) + first + 8);
    const std::size_t entry = 12 + desc + 4 + 4;
    bytes.insert(first + entry, bytes.substr(first, entry));
    TempFile file(bytes);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"convert", file.path, "-o", "-"}, std::vector<std::string>{"dump", file.path}}) {
        auto r = run_binary(args);
        BOOST_TEST(r.status == 1, args[0]);
        BOOST_TEST(contains(r.err, "byte " + std::to_string(first + entry)));
        BOOST_TEST(contains(r.err, "declared twice"));
    }
}

BOOST_AUTO_TEST_CASE(a_cut_file_is_still_truncation) {
    const Fixture& f = concurrency();
    const auto& cut_in = nth(StopThread::tag, 1, 20);
    TempFile file(f.bytes.substr(0, cut_in.offset + 5));
    auto r = run_binary({"convert", file.path, "-o", "-"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(contains(r.err, "truncated at byte " + std::to_string(cut_in.offset)));
    BOOST_TEST(!contains(r.err, "corrupt"));
    BOOST_TEST(run_binary({"convert", "--strict", file.path, "-o", "-"}).status == 3);
    Diagnostics d;
    BOOST_TEST(read_offsets(file.path, d).size() == index_of(cut_in.offset));
}
