#pragma once
// The upstream ghc-events test data ($EL2FX_SHARED/ghc-events-testdata): CI keeps it beside
// the repository, a user's clone has none. Test cases that read it carry the label "upstream"
// (`UPSTREAM_DATA` below) and run in a meson test of their own, `SUITE-upstream`
// (`--run_test=@upstream`); that run reports SKIP (exit 77, upstream_skip.cpp) when the data is
// absent, so a missing directory never passes silently. The suite's main test leaves them out
// (`--run_test=!@upstream`).
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace el2fx::testing {

// The directory, or none when $EL2FX_SHARED is unset or holds no ghc-events-testdata.
inline std::optional<std::filesystem::path> upstream_data_dir() {
    const char* shared = std::getenv("EL2FX_SHARED");
    if (!shared || !*shared) return std::nullopt;
    std::filesystem::path dir = std::filesystem::path(shared) / "ghc-events-testdata";
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
    return dir;
}

// The path of one upstream eventlog (`name` with its extension). A missing file fails the test
// case: the upstream run only starts when the directory is there, so a missing file is a defect.
inline std::string upstream_log(const std::string& name) {
    auto dir = upstream_data_dir();
    BOOST_REQUIRE_MESSAGE(dir, "$EL2FX_SHARED/ghc-events-testdata is absent");
    std::filesystem::path path = *dir / name;
    BOOST_REQUIRE_MESSAGE(std::filesystem::exists(path), path.string() << " is absent");
    return path.string();
}

}  // namespace el2fx::testing

// Decorator of a test case that reads the upstream data.
#define UPSTREAM_DATA *boost::unit_test::label("upstream")
