// Replays the fuzz seed corpus in the default suite (no libFuzzer needed): every
// fixture eventlog, damaged copies of each (cut at many points, bytes overwritten) and
// every input a fuzzer once crashed on (regressions/), through every fuzz target: the
// decoding paths, the whole conversion and `summary`. Nothing may crash, produce an
// invalid profile or throw anything but el2fx::Error; the sanitizer build of this test
// catches memory errors.
#define BOOST_TEST_MODULE corpus_replay
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "cli/summary_command.hpp"
#include "convert/converter.hpp"
#include "decoder_fuzz_target.hpp"
#include "eventlog/push_decoder.hpp"
#include "fxprof/profile_writer.hpp"
#include "product_fuzz_targets.hpp"
#include "stack_message_fuzz_target.hpp"
#include "util/error.hpp"
#include "temp_file.hpp"

using el2fx::testing::slurp;

namespace fs = std::filesystem;

namespace {

using Target = int (*)(const std::uint8_t*, std::size_t);

std::vector<fs::path> files_in(const char* dir, bool eventlogs_only) {
    std::vector<fs::path> files;
    if (!dir || !fs::is_directory(dir)) return files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        if (eventlogs_only ? entry.path().extension() != ".eventlog" : entry.path().extension() == ".md") continue;
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The fixtures and any extra corpus (EL2FX_FUZZ_CORPUS), eventlogs under 4 MiB.
std::vector<std::string> seeds() {
    std::vector<std::string> out;
    for (const char* var : {"EL2FX_FIXTURES", "EL2FX_FUZZ_CORPUS"})
        for (const fs::path& f : files_in(std::getenv(var), true)) {
            std::string bytes = slurp(f);
            if (bytes.size() <= (4u << 20)) out.push_back(std::move(bytes));  // keep the default suite fast
        }
    return out;
}

void run(Target target, const std::string& bytes) {
    target(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

// The seed, `cuts` prefixes of it and `damaged` copies with 4 bytes overwritten.
// Damage goes anywhere, timestamps' high bytes included (far-future times are corrected and
// counted: issue 20, defect 1).
void replay(Target target, const std::vector<std::string>& seeds, int cuts, int damaged) {
    BOOST_REQUIRE(!seeds.empty());
    std::mt19937 rng(1234);
    for (const std::string& bytes : seeds) {
        run(target, bytes);
        for (int i = 1; i <= cuts; ++i)
            run(target,
                bytes.substr(0, bytes.size() * static_cast<std::size_t>(i) / static_cast<std::size_t>(cuts + 1)));
        if (bytes.empty()) continue;
        for (int i = 0; i < damaged; ++i) {
            std::string copy = bytes;
            for (int j = 0; j < 4; ++j) copy[rng() % copy.size()] = static_cast<char>(rng());
            run(target, copy);
        }
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_seed_and_its_damaged_copies_decode_without_crashing) {
    replay(&fuzz_decoder, seeds(), 16, 16);
}

BOOST_AUTO_TEST_CASE(every_seed_and_its_damaged_copies_convert_to_a_valid_profile_or_an_error) {
    replay(&fuzz_convert, seeds(), 3, 4);
}

BOOST_AUTO_TEST_CASE(every_seed_and_its_damaged_copies_summarise_or_give_an_error) {
    replay(&fuzz_summary, seeds(), 3, 4);
}

// Seeds of the stack-sample decoder (stack_message_fuzz_target.hpp): a log's worth of
// ghc-stack-profiler messages of each layout, framed as the target reads them.
std::vector<std::string> stack_message_seeds() {
    auto put = [](std::string& out, std::uint64_t v, int bytes) {
        for (int i = bytes - 1; i >= 0; --i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
    };
    auto framed = [&](std::string& seed, std::uint8_t selector, const std::string& payload) {
        seed += static_cast<char>(selector);
        put(seed, payload.size(), 2);
        seed += payload;
    };
    auto stack = [&](std::uint16_t tag, std::uint32_t thread, std::initializer_list<std::uint8_t> kinds, int width3) {
        std::string m;
        put(m, tag, 2);
        put(m, 1, 4);
        put(m, thread, 4);
        put(m, kinds.size(), 2);
        for (std::uint8_t k : kinds) {
            put(m, k, 1);
            put(m, 0x457cb0 + k, 8);
            if (k == 3 && width3 == 17) put(m, 2, 8);
        }
        return m;
    };
    std::vector<std::string> seeds;
    for (int width3 : {9, 17}) {
        std::string seed;
        std::string text = "Main.hs";
        std::string def;
        put(def, 0xFFCC, 2);
        put(def, 0, 8);
        put(def, text.size(), 2);
        framed(seed, 1, def + text);
        std::string loc;
        put(loc, 0xFFCD, 2);
        put(loc, 2, 8);
        put(loc, 12, 4);
        put(loc, 3, 4);
        if (width3 == 9) put(loc, 0, 8);  // 0.1's function id
        put(loc, 0, 8);
        framed(seed, 2, loc);
        for (std::uint32_t i = 0; i < 8; ++i) {
            framed(seed, 3, stack(0xFFCB, 6 + i % 2, {1, 2, 3}, width3));
            framed(seed, static_cast<std::uint8_t>(i == 7 ? 0xFF : 4), stack(0xFFCA, 6 + i % 2, {1, 1, 3, 2}, width3));
        }
        framed(seed, 5, stack(0xFFCB, 9, {1}, width3));  // left pending: a truncated stack
        seeds.push_back(seed);
    }
    return seeds;
}

BOOST_AUTO_TEST_CASE(stack_message_seeds_and_their_damaged_copies_decode_without_crashing) {
    replay(&fuzz_stack_messages, stack_message_seeds(), 32, 2000);
}

// The real ghc-stack-profiler log, cut (stacks left without their FF CA) and damaged, through the
// whole conversion.
BOOST_AUTO_TEST_CASE(the_stack_profiler_fixture_cut_and_damaged_converts_to_a_valid_profile_or_an_error) {
    const char* dir = std::getenv("EL2FX_FIXTURES");
    const fs::path log = fs::path(dir ? dir : "") / "ghc-9.10.3" / "stack-profiler.eventlog";
    if (!dir || !fs::exists(log)) return;
    replay(&fuzz_convert, {slurp(log)}, 6, 12);
}

// Inputs a fuzzer crashed on, kept after the fix; every target replays every one.
BOOST_AUTO_TEST_CASE(every_former_crash_passes_every_target) {
    const std::vector<fs::path> files = files_in(EL2FX_FUZZ_REGRESSIONS_DIR, false);
    BOOST_TEST_MESSAGE("replaying " << files.size() << " former crashes");
    for (const fs::path& f : files) {
        BOOST_TEST_CONTEXT(f.filename().string()) {
            const std::string bytes = slurp(f);
            for (Target target : {&fuzz_decoder, &fuzz_convert, &fuzz_summary}) run(target, bytes);
        }
    }
}

// summary_fuzzer's first finding: a damaged HEAP_ALLOCATED claims 18 EB in a 2 ms run, ~1e22
// bytes per MUT second. Converting that double to a 64-bit integer was undefined (UBSan) and
// printed "0" in `summary` and in the profile's Profile Info; both now print every digit.
BOOST_AUTO_TEST_CASE(an_alloc_rate_beyond_64_bits_is_printed_in_full_by_summary_and_convert) {
    const std::string input = std::string(EL2FX_FUZZ_REGRESSIONS_DIR) + "/summary-alloc-rate-beyond-64-bits.eventlog";
    const std::string rate = "9,924,950,082,580,079,706,112 bytes per MUT second";

    std::FILE* out = std::tmpfile();
    std::FILE* err = std::tmpfile();
    BOOST_REQUIRE(out && err);
    el2fx::cli::SummaryCommand command;
    command.input = input;
    el2fx::cli::run_summary(command, out, err);
    std::rewind(out);
    std::string text;
    for (int c; (c = std::fgetc(out)) != EOF;) text += static_cast<char>(c);
    std::fclose(out);
    std::fclose(err);
    BOOST_TEST(text.find("Alloc rate    " + rate) != std::string::npos, text);

    el2fx::convert::ConversionReport report;
    const std::string json = el2fx::fxprof::profile_to_json(el2fx::convert::build_profile(input, {}, report));
    BOOST_TEST(json.find(rate + " (elapsed)") != std::string::npos);
}
