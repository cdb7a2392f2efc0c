// `dump` against ghc-events 0.21: every upstream test eventlog that has a
// `.reference` (the text of `ghc-events show`) must print exactly that text. One
// test case per file, registered at start-up. Without the upstream data
// ($EL2FX_SHARED/ghc-events-testdata) the program exits 77, which meson reports as
// a skip.
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "dump_text.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/show_text.hpp"
#include "eventlog/time_ordered_reader.hpp"

namespace fs = std::filesystem;
using namespace el2fx;

namespace {

constexpr int kSkipped = 77;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t nl = text.find('\n', start);
        if (nl == std::string::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, nl - start));
        start = nl + 1;
    }
    return lines;
}

// Empty when equal; otherwise where the texts first differ, with both lines.
std::string first_difference(const std::string& got, const std::string& want) {
    if (got == want) return {};
    std::vector<std::string> g = split_lines(got), w = split_lines(want);
    std::size_t n = std::min(g.size(), w.size());
    std::size_t i = 0;
    while (i < n && g[i] == w[i]) ++i;
    std::ostringstream msg;
    msg << "first difference at line " << i + 1
        << "\n  dump:      " << (i < g.size() ? "\"" + g[i] + "\"" : "(end of output)")
        << "\n  reference: " << (i < w.size() ? "\"" + w[i] + "\"" : "(end of reference)");
    return msg.str();
}

void check_file(const fs::path& eventlog) {
    fs::path reference = eventlog;
    reference += ".reference";
    std::string difference = first_difference(el2fx::testing::dump_text(eventlog.string()), read_file(reference));
    BOOST_TEST(difference.empty(), eventlog.filename().string() << ": " << difference);
}

std::vector<fs::path> g_eventlogs;

bool register_tests() {
    boost::unit_test::test_suite& master = boost::unit_test::framework::master_test_suite();
    master.p_name.value = "ghc_events_differential";
    for (const fs::path& eventlog : g_eventlogs) {
        std::string name = eventlog.stem().string();
        std::replace_if(
            name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
        master.add(boost::unit_test::make_test_case([eventlog] { check_file(eventlog); }, name, __FILE__, __LINE__));
    }
    return true;
}

fs::path testdata_dir() {
    const char* shared = std::getenv("EL2FX_SHARED");
    return shared ? fs::path(shared) / "ghc-events-testdata" : fs::path();
}

}  // namespace

int main(int argc, char* argv[]) {
    fs::path dir = testdata_dir();
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) {
        std::printf("SKIP: no ghc-events test data (%s): set EL2FX_SHARED to the directory holding it\n",
                    dir.empty() ? "EL2FX_SHARED is not set" : (dir.string() + " is absent").c_str());
        return kSkipped;
    }
    std::vector<fs::path>& eventlogs = g_eventlogs;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
        fs::path reference = entry.path();
        reference += ".reference";
        if (entry.path().extension() == ".eventlog" && fs::exists(reference)) eventlogs.push_back(entry.path());
    }
    std::sort(eventlogs.begin(), eventlogs.end());
    if (eventlogs.empty()) {
        std::printf("SKIP: %s holds no *.eventlog with a .reference\n", dir.string().c_str());
        return kSkipped;
    }
    return boost::unit_test::unit_test_main(&register_tests, argc, argv);
}
