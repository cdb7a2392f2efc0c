// Replays the fuzz seed corpus in the default suite (no libFuzzer needed): every
// fixture eventlog, and damaged copies of each — cut at many points, with bytes
// flipped — through every decoding path. Nothing may crash or throw anything but
// el2fx::Error; the sanitizer build of this test catches memory errors.
#define BOOST_TEST_MODULE corpus_replay
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "decoder_fuzz_target.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> corpus() {
    std::vector<fs::path> files;
    for (const char* var : {"EL2FX_FIXTURES", "EL2FX_FUZZ_CORPUS"}) {
        const char* dir = std::getenv(var);
        if (!dir || !fs::is_directory(dir)) continue;
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void run(const std::string& bytes) {
    fuzz_decoder(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_seed_and_its_damaged_copies_decode_without_crashing) {
    auto files = corpus();
    BOOST_TEST_MESSAGE("replaying " << files.size() << " seeds");
    BOOST_REQUIRE(!files.empty());
    std::mt19937 rng(1234);
    for (const auto& f : files) {
        if (f.extension() != ".eventlog") continue;
        std::string bytes = slurp(f);
        if (bytes.size() > (4u << 20)) continue;  // keep the default suite fast
        run(bytes);
        for (int i = 1; i <= 16; ++i) run(bytes.substr(0, bytes.size() * static_cast<std::size_t>(i) / 17));
        for (int i = 0; i < 16 && !bytes.empty(); ++i) {
            std::string damaged = bytes;
            for (int j = 0; j < 4; ++j) damaged[rng() % damaged.size()] = static_cast<char>(rng());
            run(damaged);
        }
    }
}
