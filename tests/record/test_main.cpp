#define BOOST_TEST_MODULE record
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

// The test cases labelled "ghc" run programs that meson built from fixtures/src/record with
// GHC; they run as the meson test `record-ghc` (EL2FX_RECORD_GHC_RUN=1). Without GHC there are
// no programs: that whole run is a SKIP (exit 77, meson's convention), not a pass.
namespace {

struct SkipWithoutGhc {
    SkipWithoutGhc() {
        const char* run = std::getenv("EL2FX_RECORD_GHC_RUN");
        if (!run || std::string(run) != "1") return;
        const char* why = std::getenv("EL2FX_NO_GHC");
        if (!why && std::getenv("EL2FX_RECORDEE") && std::getenv("EL2FX_SERVICE")) return;
        std::printf("SKIP: the record tests need programs built by GHC: %s (install it: apt-get install ghc)\n",
                    why ? why : "EL2FX_RECORDEE or EL2FX_SERVICE is not set");
        std::fflush(stdout);
        std::_Exit(77);
    }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(SkipWithoutGhc);
