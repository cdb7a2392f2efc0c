// Reading the input through a mapping: the same bytes and the same events as reading it, and
// a file cut short while mapped is a located error, not the end of the process (SIGBUS).
#include <boost/test/unit_test.hpp>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eventlog/byte_source.hpp"
#include "eventlog/file_mapping.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_builder.hpp"
#include "temp_file.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::TempFile;

namespace {

std::string pattern(std::size_t size) {
    std::string s(size, '\0');
    for (std::size_t i = 0; i < size; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
    return s;
}

// A log of several capabilities' blocks, each spanning many pages.
std::string large_log() {
    EventlogBuilder b;
    b.declare_block_marker().declare<RunThread>().declare<StopThread>();
    for (std::uint32_t block = 0; block < 8; ++block) {
        const std::uint64_t t0 = 1000 + block * 1'000'000;
        b.begin_block(t0, static_cast<CapNo>(block % 2));
        for (std::uint32_t i = 0; i < 20'000; ++i) {
            b.event(t0 + 10 * i, RunThread{i % 50 + 1});
            b.event(t0 + 10 * i + 5, StopThread{i % 50 + 1, 3, 0});
        }
        b.end_block();
    }
    return b.finish();
}

struct Key {
    std::uint64_t time, offset;
    bool operator==(const Key&) const = default;
};

std::vector<Key> read_all(const std::string& path, InputFile::Access access) {
    InputFile input(path, access);
    Diagnostics d;
    TimeOrderedReader reader(input, d);
    std::vector<Key> out;
    while (const Event* e = reader.next()) out.push_back({e->time, e->offset});
    BOOST_TEST(d.total() == 0u);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(file_mapping)

BOOST_AUTO_TEST_CASE(mapped_bytes_are_the_files_whatever_was_loaded_or_let_go) {
    const std::string bytes = pattern(5 * 4096 + 123);
    TempFile f(bytes);
    InputFile input(f.path);
    const FileMapping* m = input.mapping();
    BOOST_REQUIRE(m);
    BOOST_TEST(m->size() == bytes.size());
    BOOST_TEST(std::memcmp(m->bytes(), bytes.data(), bytes.size()) == 0);
    m->load(4000, 9000);
    m->release(0, 3 * 4096 + 17);
    m->release(bytes.size() - 1, 100);  // past the end: only the pages it holds
    BOOST_TEST(std::memcmp(m->bytes(), bytes.data(), bytes.size()) == 0);
    BOOST_TEST(m->intact());
    BOOST_TEST(input.mapping() == m);  // made once
}

// Letting go around a range reaches out to the huge pages holding it, but never past the
// mapping: the memory right after it keeps what was written there.
BOOST_AUTO_TEST_CASE(letting_go_around_a_range_stays_within_the_mapping) {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    // Mappings are placed downwards from the last one: the file's usually ends at this page.
    void* placed = ::mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    BOOST_REQUIRE(placed != MAP_FAILED);
    auto* after = static_cast<std::uint8_t*>(placed);
    std::memset(after, 0x5a, page);
    const std::string bytes = pattern(2 * page + 123);
    TempFile f(bytes);
    InputFile input(f.path);
    const FileMapping* m = input.mapping();
    BOOST_REQUIRE(m);
    const bool neighbour = m->bytes() + 3 * page == after;
    if (!neighbour) BOOST_TEST_MESSAGE("the mapping does not end where the page was placed: that page shows nothing");
    m->load(0, bytes.size());
    m->release_around(page + 5, 10);
    m->release_around(bytes.size() - 1, 100);  // past the end
    m->release_around(0, bytes.size());
    BOOST_TEST(std::memcmp(m->bytes(), bytes.data(), bytes.size()) == 0);  // read again from the file
    BOOST_TEST(after[0] == 0x5a);
    BOOST_TEST(after[page - 1] == 0x5a);
    BOOST_TEST(m->intact());
    ::munmap(placed, page);
}

BOOST_AUTO_TEST_CASE(reads_only_and_unmappable_inputs_have_no_mapping) {
    TempFile f(pattern(100));
    InputFile read(f.path, InputFile::Access::reads_only);
    BOOST_TEST(!read.mapping());
    TempFile empty("");
    InputFile none(empty.path);
    BOOST_TEST(!none.mapping());
}

BOOST_AUTO_TEST_CASE(a_file_cut_short_while_mapped_reads_zeros_and_is_no_longer_intact) {
    const std::string bytes = pattern(4 * 4096);
    TempFile f(bytes);
    InputFile input(f.path);
    const FileMapping* m = input.mapping();
    BOOST_REQUIRE(m);
    BOOST_REQUIRE(::truncate(f.path.c_str(), 4096) == 0);
    BOOST_TEST(m->bytes()[100] == static_cast<std::uint8_t>(bytes[100]));  // still in the file
    BOOST_TEST(m->intact());
    volatile const std::uint8_t* past = m->bytes() + 2 * 4096 + 5;
    BOOST_TEST(*past == 0);  // SIGBUS without the guard
    BOOST_TEST(!m->intact());
}

BOOST_AUTO_TEST_CASE(the_events_are_the_same_mapped_or_read) {
    const std::string log = large_log();
    TempFile f(log);
    const std::vector<Key> mapped = read_all(f.path, InputFile::Access::mapped_where_possible);
    const std::vector<Key> read = read_all(f.path, InputFile::Access::reads_only);
    BOOST_TEST(mapped.size() == 8u * 40'000u + 8u);
    BOOST_CHECK(mapped == read);
}

// With many capabilities' blocks read at once, each cursor mapping its block would hold
// megabytes: past a few, the cursors read their blocks instead, to the same events.
BOOST_AUTO_TEST_CASE(many_blocks_at_once_are_read_not_mapped_to_the_same_events) {
    EventlogBuilder b;
    b.declare_block_marker().declare<RunThread>().declare<StopThread>();
    for (std::uint32_t block = 0; block < 24; ++block) {
        const std::uint64_t t0 = 1000 + (block / 12) * 1'000'000 + block % 12;  // twelve capabilities at once
        b.begin_block(t0, static_cast<CapNo>(block % 12));
        for (std::uint32_t i = 0; i < 2'000; ++i) {
            b.event(t0 + 20 * i, RunThread{i % 50 + 1});
            b.event(t0 + 20 * i + 5, StopThread{i % 50 + 1, 3, 0});
        }
        b.end_block();
    }
    TempFile f(b.finish());
    {
        InputFile input(f.path);
        BOOST_REQUIRE(input.mapping());
        Diagnostics d;
        TimeOrderedReader reader(input, d);
        BOOST_TEST(!reader.cursors_mapped());
    }
    const auto mapped = read_all(f.path, InputFile::Access::mapped_where_possible);
    BOOST_TEST(mapped.size() == 24u * 4'001u);
    BOOST_TEST((mapped == read_all(f.path, InputFile::Access::reads_only)));

    TempFile few(large_log());  // two capabilities
    InputFile input(few.path);
    Diagnostics d;
    TimeOrderedReader reader(input, d);
    BOOST_TEST(reader.cursors_mapped());
}

BOOST_AUTO_TEST_CASE(a_log_cut_short_during_a_pass_is_a_located_error) {
    TempFile f(large_log());
    InputFile input(f.path);
    Diagnostics d;
    TimeOrderedReader reader(input, d);
    BOOST_REQUIRE(reader.next());  // mapped whole, and read from
    BOOST_REQUIRE(input.mapping());
    BOOST_REQUIRE(::truncate(f.path.c_str(), 64 * 1024) == 0);
    try {
        while (reader.next()) {}
        BOOST_FAIL("a pass over a log cut short ended without an error");
    } catch (const Error& e) {
        BOOST_TEST(e.message() == "the input changed while it was being read");
        BOOST_TEST(e.context().file == f.path);
    }
}

// The guard answers for its mappings only: any other SIGBUS ends the process as before.
BOOST_AUTO_TEST_CASE(a_sigbus_elsewhere_still_ends_the_process) {
    TempFile guarded(pattern(4096));
    TempFile other(pattern(3 * 4096));
    for (const bool sent : {true, false}) {
        const pid_t child = ::fork();
        BOOST_REQUIRE(child >= 0);
        if (child == 0) {
            InputFile input(guarded.path);
            if (!input.mapping()) ::_exit(3);  // the guard is installed with the first mapping
            if (sent) ::raise(SIGBUS);
            const int fd = ::open(other.path.c_str(), O_RDONLY);
            void* at = ::mmap(nullptr, 3 * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
            if (at == MAP_FAILED || ::ftruncate(::open(other.path.c_str(), O_WRONLY), 0) != 0) ::_exit(4);
            volatile const char* past = static_cast<const char*>(at) + 4096;
            (void)*past;
            ::_exit(0);
        }
        int status = 0;
        BOOST_REQUIRE(::waitpid(child, &status, 0) == child);
        // Ended by the signal; under a sanitizer, whose handler was there before the guard's,
        // by its report's exit status. Never carried on (0), never failed to set up (3, 4).
        if (WIFSIGNALED(status)) {
            BOOST_TEST(WTERMSIG(status) == SIGBUS);
        } else {
            BOOST_REQUIRE(WIFEXITED(status));
            BOOST_TEST(WEXITSTATUS(status) != 0);
            BOOST_TEST(WEXITSTATUS(status) != 3);
            BOOST_TEST(WEXITSTATUS(status) != 4);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()
