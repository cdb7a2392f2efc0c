// Linked into every suite that has test cases labelled "upstream". Meson runs those cases as
// `SUITE-upstream` with EL2FX_UPSTREAM_RUN=1; without the data that whole run is a SKIP (exit
// 77, meson's convention) rather than a pass.
#include "upstream_data.hpp"

#include <cstdio>

namespace {

struct SkipWithoutUpstreamData {
    SkipWithoutUpstreamData() {
        const char* run = std::getenv("EL2FX_UPSTREAM_RUN");
        if (!run || std::string(run) != "1" || el2fx::testing::upstream_data_dir()) return;
        std::printf("SKIP: no ghc-events test data: $EL2FX_SHARED/ghc-events-testdata is absent\n");
        std::fflush(stdout);
        std::_Exit(77);
    }
};

}  // namespace

BOOST_TEST_GLOBAL_FIXTURE(SkipWithoutUpstreamData);
