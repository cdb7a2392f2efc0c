// The real eventlogs of a directory (the fixtures, ../shared's ghc-events test data), for the
// tests that check a property on each of them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "eventlog/byte_source.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/diagnostics.hpp"
#include "util/error.hpp"
#include "temp_file.hpp"

namespace el2fx::testing {

// The .eventlog files in `dir` and its folders (the fixtures of each GHC), sorted by path.
inline std::vector<std::filesystem::path> eventlogs_in(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
        if (entry.is_regular_file() && entry.path().extension() == ".eventlog") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// `check(reader)` on a time-ordered reader of each eventlog in `dir` that indexes (one that
// does not is named in the log and passed over); fails if none did.
template <class Check>
void check_indexed_eventlogs_in(const std::filesystem::path& dir, Check&& check) {
    std::size_t files = 0;
    for (const std::filesystem::path& file : eventlogs_in(dir)) {
        BOOST_TEST_CONTEXT(file.filename().string()) {
            Diagnostics index;
            try {
                eventlog::InputFile input(file.string());
                eventlog::TimeOrderedReader reader(input, index);
                check(reader);
                ++files;
            } catch (const Error& e) {
                BOOST_TEST_MESSAGE(file.filename().string() << ": not indexed: " << e.what());
            }
        }
    }
    BOOST_TEST(files > 0u);
}

// An eventlog's bytes in a temporary file, indexed for time-ordered reads.
struct IndexedLog {
    explicit IndexedLog(const std::string& bytes) : file(bytes), input(file.path), reader(input, index) {}
    TempFile file;
    Diagnostics index;
    eventlog::InputFile input;
    eventlog::TimeOrderedReader reader;
};

}  // namespace el2fx::testing
