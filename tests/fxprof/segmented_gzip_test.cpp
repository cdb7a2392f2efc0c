// The gzip member written by two threads from segments (segmented_gzip.hpp), and the profile
// written through it: one member that inflates to the segments joined, the same bytes whatever
// the threads' number and timing, bounded holding, and errors that stop every thread.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <numeric>
#include <optional>
#include <chrono>
#include <string>
#include <thread>
#include <vector>
#include <zlib.h>

#include "fxprof/block_deflater.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile_writer.hpp"
#include "fxprof/segmented_gzip.hpp"
#include "fxprof_test_util.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::Error;

namespace {

// Fails on its n-th write.
class FailingSink final : public ByteSink {
public:
    explicit FailingSink(int fail_at) : fail_at_(fail_at) {}
    void write(const char*, std::size_t) override {
        if (++writes_ == fail_at_) throw Error("disk full");
    }

private:
    int fail_at_;
    int writes_ = 0;
};

// Text that compresses like profile JSON: numbers and repeats, with a long-distance repeat.
std::string sample_text(std::size_t size) {
    std::string out;
    std::uint32_t x = 12345;
    while (out.size() < size) {
        x = x * 1103515245u + 12345u;
        out += std::to_string(x % 1000) + (x % 7 == 0 ? ",null," : ",");
    }
    out.resize(size);
    return out;
}

// The engines this build has: zlib, and igzip where the build found ISA-L.
std::vector<DeflateEngine> engines() {
    std::vector<DeflateEngine> all{DeflateEngine::zlib};
    if (has_engine(DeflateEngine::isal))
        all.push_back(DeflateEngine::isal);
    else
        BOOST_TEST_MESSAGE("this build has no igzip (ISA-L): only zlib is tested");
    return all;
}

const char* name(DeflateEngine engine) { return engine == DeflateEngine::zlib ? "zlib" : "igzip"; }

// Inflates `gz` as one gzip member, as the profiler's DecompressionStream('gzip') does: the
// member must end exactly where the bytes do (a second member would be left over, unread).
std::string inflate_one_member(const std::string& gz) {
    z_stream zs{};
    BOOST_REQUIRE(inflateInit2(&zs, 16 + 15) == Z_OK);
    std::string out;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    zs.avail_in = static_cast<uInt>(gz.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        char chunk[65536];
        zs.next_out = reinterpret_cast<Bytef*>(chunk);
        zs.avail_out = sizeof chunk;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(chunk, sizeof chunk - zs.avail_out);
        if (rc == Z_BUF_ERROR && zs.avail_out != 0) break;  // the input ended mid-stream
        if (rc == Z_BUF_ERROR) rc = Z_OK;                   // only the chunk was full
    }
    const uInt left = zs.avail_in;
    inflateEnd(&zs);
    BOOST_TEST(rc == Z_STREAM_END);
    BOOST_TEST(left == 0u, left << " bytes after the first member");
    return out;
}

// Segment i is `texts[i]`, written in pieces of `piece` bytes.
std::string gzip_segments(const std::vector<std::string>& texts, SegmentedGzipOptions options,
                          std::size_t piece = 4093) {
    std::string out;
    StringSink sink(out);
    const std::uint64_t size = write_segmented_gzip(
        sink, texts.size(),
        [&](unsigned, std::size_t s, ByteSink& text) {
            const std::string& t = texts[s];
            for (std::size_t at = 0; at < t.size(); at += piece)
                text.write(t.data() + at, std::min(piece, t.size() - at));
        },
        options);
    std::size_t expected = 0;
    for (const std::string& t : texts) expected += t.size();
    BOOST_TEST(size == expected);
    return out;
}

std::string joined(const std::vector<std::string>& texts) {
    std::string all;
    for (const std::string& t : texts) all += t;
    return all;
}

// Segments of the given sizes, each of different text.
std::vector<std::string> segments_of(const std::vector<std::size_t>& sizes) {
    std::vector<std::string> texts;
    const std::string all = sample_text(std::accumulate(sizes.begin(), sizes.end(), std::size_t{0}));
    std::size_t at = 0;
    for (std::size_t n : sizes) {
        texts.push_back(all.substr(at, n));
        at += n;
    }
    return texts;
}

SegmentedGzipOptions options(unsigned threads, std::size_t block, std::size_t held = std::size_t{8} << 20,
                             int level = GzipSink::kDefaultLevel, std::optional<DeflateEngine> engine = {}) {
    return SegmentedGzipOptions{
        .level = level, .engine = engine, .threads = threads, .block_bytes = block, .held_bytes = held};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(segmented_gzip_writer)

BOOST_AUTO_TEST_CASE(inflates_to_the_segments_joined_whatever_the_sizes) {
    for (std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{1000}, std::size_t{40000}}) {
        const std::vector<std::vector<std::size_t>> layouts = {{0},
                                                               {1},
                                                               {block},
                                                               {block - 1, block + 1},
                                                               {0, 0, 3},
                                                               {5 * block + 3, 0, block, 1, 2 * block},
                                                               {70001, 12, 70001}};
        for (const std::vector<std::size_t>& sizes : layouts) {
            std::size_t total = 0;
            for (std::size_t n : sizes) total += n;
            if (total > 100 * block + 1000) continue;  // tiny blocks: a long text is only slow
            const std::vector<std::string> texts = segments_of(sizes);
            for (unsigned threads : {1u, 2u, 3u})
                BOOST_TEST((inflate_one_member(gzip_segments(texts, options(threads, block))) == joined(texts)),
                           "block " << block << ", " << sizes.size() << " segments, threads " << threads);
        }
    }
}

BOOST_AUTO_TEST_CASE(inflates_to_the_text_with_either_engine) {
    const std::vector<std::string> texts = segments_of({40000, 1, 99999, 0, 70001});
    for (DeflateEngine engine : engines())
        for (unsigned threads : {1u, 2u})
            BOOST_TEST(
                (inflate_one_member(gzip_segments(texts, options(threads, 7000, 1, 1, engine))) == joined(texts)),
                name(engine) << ", threads " << threads);
}

BOOST_AUTO_TEST_CASE(the_bytes_depend_on_the_segments_not_on_the_threads) {
    const std::vector<std::string> texts = segments_of({300000, 5, 120000, 0, 700000, 64, 250000});
    for (int level : {1, 6}) {  // igzip where the build has it, and zlib
        const std::string one = gzip_segments(texts, options(1, 65536, std::size_t{8} << 20, level));
        BOOST_TEST((inflate_one_member(one) == joined(texts)));
        for (unsigned threads : {2u, 4u})
            for (std::size_t held : {std::size_t{1}, std::size_t{4096}, std::size_t{8} << 20})
                BOOST_TEST((gzip_segments(texts, options(threads, 65536, held, level)) == one),
                           "level " << level << ", threads " << threads << ", held " << held);
    }
}

BOOST_AUTO_TEST_CASE(a_plain_gzip_header_and_a_trailer_of_the_text) {
    const std::vector<std::string> texts = segments_of({30000, 50000});
    const std::string out = gzip_segments(texts, options(2, 16384));
    // No name, no time, OS unknown.
    BOOST_REQUIRE(out.size() > 18u);
    BOOST_TEST(out.substr(0, 4) == std::string("\x1f\x8b\x08\x00", 4));
    BOOST_TEST(out.substr(4, 4) == std::string(4, '\0'));
    BOOST_TEST(static_cast<unsigned char>(out[9]) == 255u);
    const std::string text = joined(texts);
    const auto crc = static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const unsigned char*>(text.data()), static_cast<uInt>(text.size())));
    std::uint32_t trailer_crc = 0, trailer_size = 0;
    for (int i = 3; i >= 0; --i) {
        trailer_crc = trailer_crc << 8 | static_cast<unsigned char>(out[out.size() - 8 + static_cast<std::size_t>(i)]);
        trailer_size =
            trailer_size << 8 | static_cast<unsigned char>(out[out.size() - 4 + static_cast<std::size_t>(i)]);
    }
    BOOST_TEST(trailer_crc == crc);
    BOOST_TEST(trailer_size == text.size());
}

// A segment's blocks are primed with the 32 KiB of the segment before them.
BOOST_AUTO_TEST_CASE(blocks_reach_back_into_their_segment) {
    // A 20 KB stretch that does not compress, repeated: only matches across blocks shrink it.
    std::string noise;
    std::uint64_t x = 88172645463325252ull;
    while (noise.size() < 20000) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        noise.push_back(static_cast<char>(x));
    }
    std::string text;
    for (int i = 0; i < 10; ++i) text += noise;
    for (DeflateEngine engine : engines()) {
        const std::string out = gzip_segments({text}, options(2, 16384, 1, 1, engine));
        BOOST_TEST((inflate_one_member(out) == text), name(engine));
        BOOST_TEST(out.size() < 2 * noise.size(), name(engine));  // without the 32 KiB before each block: ~10x
    }
}

BOOST_AUTO_TEST_CASE(the_crc_is_the_gzip_trailers_in_any_pieces) {
    const std::string text = sample_text(100000);
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    const auto whole = static_cast<std::uint32_t>(crc32(0, bytes, static_cast<uInt>(text.size())));
    BOOST_TEST(gzip_crc32(0, bytes, text.size()) == whole);
    BOOST_TEST(gzip_crc32(0, bytes, 0) == 0u);
    for (std::size_t cut : {std::size_t{1}, std::size_t{63}, std::size_t{4096}, std::size_t{99999}})
        BOOST_TEST(gzip_crc32(gzip_crc32(0, bytes, cut), bytes + cut, text.size() - cut) == whole, "cut at " << cut);
}

BOOST_AUTO_TEST_CASE(the_engines_agree_on_the_text_and_igzip_is_no_larger) {
    const std::vector<std::string> texts = segments_of({1'500'000, 1'500'000});
    const std::string by_zlib = gzip_segments(texts, options(2, 1 << 19, 1, 1, DeflateEngine::zlib), 65536);
    BOOST_TEST((inflate_one_member(by_zlib) == joined(texts)));
    std::string ignored;
    StringSink ignored_sink(ignored);
    const SegmentRenderer nothing = [](unsigned, std::size_t, ByteSink&) {};
    if (!has_engine(DeflateEngine::isal)) {
        BOOST_CHECK_THROW(make_block_deflater(DeflateEngine::isal, 1), Error);  // said at once, not on a thread
        BOOST_TEST((fastest_engine(1) == DeflateEngine::zlib));
        return;
    }
    BOOST_TEST((fastest_engine(1) == DeflateEngine::isal));
    BOOST_TEST((fastest_engine(6) == DeflateEngine::zlib));  // not one of igzip's levels
    BOOST_CHECK_THROW(write_segmented_gzip(ignored_sink, 1, nothing, options(2, 4096, 1, 6, DeflateEngine::isal)),
                      Error);
    const std::string by_isal = gzip_segments(texts, options(2, 1 << 19, 1, 1, DeflateEngine::isal), 65536);
    BOOST_TEST((inflate_one_member(by_isal) == joined(texts)));
    BOOST_TEST(by_isal.size() < by_zlib.size() * 11 / 10, by_isal.size() << " against zlib's " << by_zlib.size());
}

// With a tiny bound, a thread ahead of the written segments waits for its turn after each
// block; held up on purpose, the first segment makes the other thread go ahead.
BOOST_AUTO_TEST_CASE(a_thread_ahead_keeps_its_blocks_then_waits) {
    const std::vector<std::string> texts = segments_of({200000, 90000, 90000, 90000, 90000});
    std::string out;
    StringSink sink(out);
    std::atomic<int> rendered_while_first_slept{0};
    std::atomic<bool> first_done{false};
    write_segmented_gzip(
        sink, texts.size(),
        [&](unsigned, std::size_t s, ByteSink& text) {
            if (s == 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            else if (!first_done)
                ++rendered_while_first_slept;
            text.write(texts[s].data(), texts[s].size());
            if (s == 0) first_done = true;
        },
        options(2, 16384, 1));
    BOOST_TEST((inflate_one_member(out) == joined(texts)));
    // The other thread rendered at most one segment (it waits in it) while the first slept.
    BOOST_TEST(rendered_while_first_slept.load() <= 1);
}

BOOST_AUTO_TEST_CASE(a_renderers_error_stops_every_thread_and_reaches_the_caller) {
    const std::vector<std::string> texts = segments_of(std::vector<std::size_t>(10, 50000));
    for (std::size_t failing : {std::size_t{0}, std::size_t{3}, std::size_t{9}}) {
        for (std::size_t held : {std::size_t{1}, std::size_t{8} << 20}) {
            std::string out;
            StringSink sink(out);
            try {
                write_segmented_gzip(
                    sink, texts.size(),
                    [&](unsigned, std::size_t s, ByteSink& text) {
                        text.write(texts[s].data(), texts[s].size() / 2);
                        if (s == failing) throw Error("segment " + std::to_string(s) + " failed");
                        text.write(texts[s].data() + texts[s].size() / 2, texts[s].size() - texts[s].size() / 2);
                    },
                    options(2, 8192, held));
                BOOST_FAIL("no error");
            } catch (const Error& e) {
                BOOST_TEST(std::string(e.what()).find("segment " + std::to_string(failing) + " failed") !=
                           std::string::npos);
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_downstream_error_reaches_the_caller) {
    const std::vector<std::string> texts = segments_of({100000, 100000, 100000});
    for (int fail_at : {1, 2, 5}) {
        FailingSink failing(fail_at);
        BOOST_CHECK_THROW(
            write_segmented_gzip(
                failing, texts.size(),
                [&](unsigned, std::size_t s, ByteSink& text) { text.write(texts[s].data(), texts[s].size()); },
                options(2, 4096, 1)),
            Error);
    }
}

BOOST_AUTO_TEST_CASE(no_segments_or_a_bad_level_is_refused) {
    std::string out;
    StringSink sink(out);
    const SegmentRenderer nothing = [](unsigned, std::size_t, ByteSink&) {};
    BOOST_CHECK_THROW(write_segmented_gzip(sink, 0, nothing), Error);
    BOOST_CHECK_THROW(write_segmented_gzip(sink, 1, nothing, options(2, 4096, 1, 42)), Error);
}

// The profile as write_profile_json_gz writes it is the JSON write_profile_json writes, with
// profiles large enough for many segments, on two threads.
BOOST_AUTO_TEST_CASE(the_profile_gzipped_on_two_threads_is_its_json) {
    Profile p = make_small_profile();
    const WriteStats small_plain = [&] {
        std::string ignored;
        StringSink s(ignored);
        return write_profile_json(p, s);
    }();
    for (int round = 0; round < 2; ++round) {
        // The larger profile outgrows the tables' default memory budget: both threads read
        // spilled chunks back (the only such case the TSan stage runs; run-tests.sh).
        if (round == 1) BOOST_TEST(p.table_stats().spilled_chunks > 0u);
        std::string gz;
        StringSink sink(gz);
        const WriteStats stats = write_profile_json_gz(p, sink, GzipSink::kDefaultLevel);
        WriteStats plain_stats;
        const std::string plain = profile_to_json(p, &plain_stats);
        BOOST_TEST((inflate_one_member(gz) == plain));
        BOOST_TEST(stats.json_bytes == plain.size());
        BOOST_TEST(stats.repaired_strings == plain_stats.repaired_strings);
        if (round == 0) {
            BOOST_TEST(stats.json_bytes == small_plain.json_bytes);
            // Many threads with thousands of samples and markers, and strings to repair.
            const ProcessHandle proc = p.add_process("other", "77", ms(0));
            const StringHandle bad = p.handle_for_string("bad \xff utf-8");
            const StackHandle stack = p.handle_for_stack(
                std::nullopt, p.handle_for_frame({.func = p.handle_for_func({.name = p.handle_for_string("f")})}));
            for (int t = 0; t < 40; ++t) {
                const ThreadHandle h = p.add_thread(proc, "t" + std::to_string(t), 100 + t, ms(0));
                for (int i = 0; i < 20000; ++i) p.add_sample(h, Timestamp::from_nanos(i * 1000), stack, std::nullopt);
                for (int i = 0; i < 3000; ++i)
                    p.add_marker(h, MarkerTiming::instant(Timestamp::from_nanos(i * 7000)), bad,
                                 Profile::default_category());
            }
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
