// What the record and attach tests check of a run of eventlog2fxprof: the profile it wrote, its
// one error line; and where it runs (a workspace with a private TMPDIR).
#pragma once

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "check/profile_check.hpp"
#include "fxprof/gzip.hpp"
#include "spawned.hpp"
#include "temp_file.hpp"

namespace el2fx::testing::attach {

constexpr double kSeconds = 60;  // generous: sanitizer builds on a busy machine

inline std::string binary() { return env_or_empty("EL2FX_BINARY"); }
inline std::string fixture(const std::string& name) { return env_or_empty("EL2FX_FIXTURES") + "/" + name; }

// A directory for the profile, and a private TMPDIR whose emptiness afterwards shows that the
// FIFO and the spool file were removed.
struct Workspace {
    TempDir dir;
    std::filesystem::path tmp = dir.path / "tmp";
    Workspace() { std::filesystem::create_directories(tmp); }
    std::string out(const std::string& name = "out.json.gz") const { return (dir.path / name).string(); }
    std::vector<std::string> env() const { return {"TMPDIR=" + tmp.string(), "EL2FX_TEST_SECRET=hunter2-secret"}; }
    bool tmp_empty() const { return std::filesystem::is_empty(tmp); }
};

inline std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> result;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        result.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return result;
}

// The profile is there, the profiler would load it, and the environment is not in it.
inline void check_profile(const std::string& path) {
    BOOST_REQUIRE_MESSAGE(std::filesystem::exists(path), path + " was not written");
    const std::vector<std::string> problems = el2fx::check::validate_profile_file(path);
    BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
    const std::string json = el2fx::fxprof::gunzip(slurp(path));
    BOOST_TEST(json.find("hunter2-secret") == std::string::npos);
}

// The one error line (after what the command printed before it, if anything).
inline void check_error(const Spawned& run, int status, int want_status, const std::string& needle) {
    BOOST_TEST(status == want_status);
    const std::vector<std::string> err = lines(run.err);
    BOOST_REQUIRE(!err.empty());
    BOOST_TEST(err.back().find("eventlog2fxprof: error: ") == 0u, err.back());
    BOOST_TEST(err.back().find(needle) != std::string::npos, err.back());
    std::size_t errors = 0;
    for (const std::string& l : err) errors += l.find("error") != std::string::npos;
    BOOST_TEST(errors == 1u);
}

}  // namespace el2fx::testing::attach
