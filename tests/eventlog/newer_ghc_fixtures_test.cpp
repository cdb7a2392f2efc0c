// The fixtures of newer GHCs (fixtures/ghc-VERSION/, written by GHC 9.6.6 and 9.10.3 in a
// chroot: tools/regen-newer-fixtures.sh) against the ghc-events library of the same Debian
// suite: beside each NAME.eventlog, NAME.ghc-events.txt.gz holds what that ghc-events prints
// (`ghc-events show`), and ghc-events-version.txt its version.
//
// `dump` prints ghc-events 0.21's text. The differences from older versions that we accept are
// applied to our text before the comparison (as_printed_by), each with its reason:
// - before 0.21 the block markers are not printed ("event block: cap N, end time: T" and the
//   empty line after it);
// - before 0.21 a thread stopped by a stack overflow prints no sizes ("stack overflow");
// - before 0.21 STOP_THREAD status 18 is named "waiting for data to be globalised": GHC 9.2 and
//   newer use 18 for a thread blocked in throwTo (BlockedOnMsgThrowTo, as 9.0 did), and so do we.
// Everything else must be equal, line for line.
#include <boost/test/unit_test.hpp>

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "dump_text.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/show_text.hpp"
#include "eventlog/stream.hpp"
#include "eventlog/time_ordered_reader.hpp"

namespace fs = std::filesystem;
using namespace el2fx;

namespace {

fs::path fixtures_dir() {
    const char* dir = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(dir, "EL2FX_FIXTURES is not set");
    return dir;
}

// The fixture folders of newer GHCs, and the eventlogs in them.
std::vector<fs::path> newer_ghc_dirs() {
    std::vector<fs::path> dirs;
    for (const auto& entry : fs::directory_iterator(fixtures_dir()))
        if (entry.is_directory() && entry.path().filename().string().starts_with("ghc-")) dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

std::vector<fs::path> eventlogs_in(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".eventlog") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string read_gzip(const fs::path& path) {
    gzFile in = gzopen(path.c_str(), "rb");
    BOOST_REQUIRE_MESSAGE(in, "cannot open " << path);
    std::string out;
    char buffer[1 << 16];
    for (int n; (n = gzread(in, buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<std::size_t>(n));
    gzclose(in);
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

bool older_than_0_21(const std::string& version) {
    int major = 0, minor = 0;
    std::sscanf(version.c_str(), "%d.%d", &major, &minor);
    return major == 0 && minor < 21;
}

// Our (0.21) text as ghc-events `version` prints it: the accepted differences at the top.
std::vector<std::string> as_printed_by(const std::string& version, const std::vector<std::string>& ours) {
    if (!older_than_0_21(version)) return ours;
    std::vector<std::string> out;
    for (std::size_t i = 0; i < ours.size(); ++i) {
        std::string line = ours[i];
        if (line.find(": event block: cap ") != std::string::npos) {
            if (i + 1 < ours.size() && ours[i + 1].empty()) ++i;
            continue;
        }
        if (const std::size_t at = line.find("(stack overflow, size "); at != std::string::npos)
            line = line.substr(0, at) + "(stack overflow)";
        if (const std::size_t at = line.find("(blocked in throwTo)"); at != std::string::npos)
            line = line.substr(0, at) + "(waiting for data to be globalised)";
        out.push_back(std::move(line));
    }
    return out;
}

std::string first_difference(const std::vector<std::string>& got, const std::vector<std::string>& want) {
    const std::size_t n = std::min(got.size(), want.size());
    std::size_t i = 0;
    while (i < n && got[i] == want[i]) ++i;
    if (i == n && got.size() == want.size()) return {};
    std::ostringstream msg;
    msg << "first difference at line " << i + 1 << "\n  dump:       " << (i < got.size() ? got[i] : "(end)")
        << "\n  ghc-events: " << (i < want.size() ? want[i] : "(end)");
    return msg.str();
}

// Counts what the streaming decoder (dump --stats, file order) says of a file.
struct Decoded : eventlog::EventSink {
    void on_event(const eventlog::Event& e) override {
        ++events;
        if (e.tag == eventlog::InfoProv::tag) ++ipe;
    }
    std::uint64_t events = 0, ipe = 0;
    Diagnostics diagnostics;
    eventlog::StreamEnd end;
};

Decoded decode(const fs::path& path) {
    Decoded d;
    eventlog::InputFile input(path.string());
    d.end = eventlog::decode_stream(input, d, d.diagnostics);
    return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(newer_ghc_fixtures)

BOOST_AUTO_TEST_CASE(there_are_fixtures_of_ghc_9_6_and_9_10) {
    std::vector<std::string> names;
    for (const fs::path& dir : newer_ghc_dirs()) names.push_back(dir.filename().string());
    BOOST_TEST((std::find(names.begin(), names.end(), "ghc-9.6.6") != names.end()));
    BOOST_TEST((std::find(names.begin(), names.end(), "ghc-9.10.3") != names.end()));
}

// Complete runs: every byte framed, nothing lost, nothing too short, the end marker reached.
BOOST_AUTO_TEST_CASE(every_fixture_decodes_whole) {
    for (const fs::path& dir : newer_ghc_dirs()) {
        for (const fs::path& file : eventlogs_in(dir)) {
            BOOST_TEST_CONTEXT(dir.filename().string() << "/" << file.filename().string()) {
                const Decoded d = decode(file);
                BOOST_TEST(d.events > 100u);
                BOOST_TEST(!d.end.truncated_at);
                BOOST_TEST(d.end.lost.empty());
                BOOST_TEST(!d.diagnostics.any_data_loss());
                BOOST_TEST(d.diagnostics.count(Diagnostic::payload_too_short) == 0u);
                BOOST_TEST(d.diagnostics.count(Diagnostic::unknown_event_type) == 0u);
            }
        }
    }
}

// GHC 9.6.5 and newer declare each IPE event one byte longer than they write it; every one is
// framed where its fields end, and counted so.
BOOST_AUTO_TEST_CASE(ipe_events_of_9_6_and_9_10_are_framed_by_their_fields) {
    for (const char* name : {"ghc-9.6.6/ipe-hi.eventlog", "ghc-9.10.3/ipe-hi.eventlog"}) {
        BOOST_TEST_CONTEXT(name) {
            const Decoded d = decode(fixtures_dir() / name);
            BOOST_TEST(d.ipe > 100u);
            BOOST_TEST(d.diagnostics.count(Diagnostic::declared_size_too_large) == d.ipe);
            BOOST_TEST(d.diagnostics.count(Diagnostic::payload_longer_than_known) == 0u);
        }
    }
}

BOOST_AUTO_TEST_CASE(dump_equals_the_ghc_events_of_the_same_suite) {
    std::size_t compared = 0;
    for (const fs::path& dir : newer_ghc_dirs()) {
        const fs::path version_file = dir / "ghc-events-version.txt";
        BOOST_REQUIRE_MESSAGE(fs::exists(version_file), version_file << " is missing");
        std::string version = read_file(version_file);
        version.erase(version.find_last_not_of(" \n") + 1);
        for (const fs::path& file : eventlogs_in(dir)) {
            fs::path reference = file;
            reference.replace_extension(".ghc-events.txt.gz");
            if (!fs::exists(reference)) continue;
            BOOST_TEST_CONTEXT(dir.filename().string()
                               << "/" << file.filename().string() << " (ghc-events " << version << ")") {
                const std::string difference =
                    first_difference(as_printed_by(version, lines_of(el2fx::testing::dump_text(file.string()))),
                                     lines_of(read_gzip(reference)));
                BOOST_TEST(difference.empty(), difference);
                ++compared;
            }
        }
    }
    BOOST_TEST(compared >= 20u);
}

BOOST_AUTO_TEST_SUITE_END()
