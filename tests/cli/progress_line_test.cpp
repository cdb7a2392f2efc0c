// The progress line: its text (rate, time left, width), drawing and clearing it on a terminal
// (a pseudo-terminal here), and nothing at all when standard error is not a terminal.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <thread>
#include <unistd.h>

#include "cli/progress_line.hpp"
#include "util/progress.hpp"

using el2fx::cli::format_progress;
using el2fx::cli::format_time_left;
using el2fx::cli::ProgressLine;
using el2fx::util::Progress;

namespace {

Progress::Snapshot at(const char* phase, std::uint64_t done, std::uint64_t total, double seconds) {
    Progress::Snapshot s;
    s.phase = phase;
    s.done = done;
    s.total = total;
    s.seconds = seconds;
    return s;
}

// What is readable from `fd` now, waiting at most `wait_ms` for it (one read).
std::string read_some(int fd, int wait_ms) {
    char buf[4096];
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, wait_ms) <= 0) return {};
    const ssize_t r = ::read(fd, buf, sizeof buf);
    return r > 0 ? std::string(buf, static_cast<std::size_t>(r)) : std::string{};
}

// Everything readable from `fd` within a moment.
std::string drain(int fd) {
    std::string got;
    for (std::string more; !(more = read_some(fd, 200)).empty();) got += more;
    return got;
}

constexpr ProgressLine::Timing kQuick{std::chrono::milliseconds(0), std::chrono::milliseconds(10)};

}  // namespace

BOOST_AUTO_TEST_SUITE(progress_line)

BOOST_AUTO_TEST_CASE(phase_amount_percent_rate_and_time_left) {
    // 1.2 GB of 3 GB in 3 s: 400 MB/s, 1.8 GB to go: 4.5 s, shown as 5.
    BOOST_TEST(format_progress(at("census", 1'200'000'000, 3'000'000'000, 3), 120) ==
               "census  1.2 GB of 3 GB (40%)  400 MB/s  5 s left");
    // No total (standard input, before it is spooled): the amount and the rate.
    BOOST_TEST(format_progress(at("index", 50'000'000, 0, 2), 120) == "index  50 MB  25 MB/s");
    // Nothing counted (writing the profile): how long it has taken.
    BOOST_TEST(format_progress(at("write", 0, 0, 3.2), 120) == "write  3 s");
    // The first moments of a phase: no rate, no time left.
    BOOST_TEST(format_progress(at("events", 1000, 4000, 0.1), 120) == "events  1 kB of 4 kB (25%)");
    // More read than the total (a pass taken again): never past 100%.
    BOOST_TEST(format_progress(at("census", 5000, 4000, 1), 120) == "census  4 kB of 4 kB (100%)  5 kB/s  0 s left");
    BOOST_TEST(format_progress(Progress::Snapshot{}, 120).empty());
}

BOOST_AUTO_TEST_CASE(time_left_in_seconds_minutes_and_hours) {
    BOOST_TEST(format_time_left(0) == "0 s");
    BOOST_TEST(format_time_left(0.2) == "1 s");
    BOOST_TEST(format_time_left(59) == "59 s");
    BOOST_TEST(format_time_left(65) == "1 min 05 s");
    BOOST_TEST(format_time_left(3725) == "1 h 02 min");
}

BOOST_AUTO_TEST_CASE(a_narrow_terminal_loses_the_time_left_then_the_rate) {
    const Progress::Snapshot s = at("census", 1'200'000'000, 3'000'000'000, 3);
    const std::string full = "census  1.2 GB of 3 GB (40%)  400 MB/s  5 s left";
    for (std::size_t width = 2; width < full.size() + 3; ++width)
        BOOST_TEST(format_progress(s, width).size() <= width - 1, width);
    BOOST_TEST(format_progress(s, full.size() + 1) == full);
    BOOST_TEST(format_progress(s, full.size()) == "census  1.2 GB of 3 GB (40%)  400 MB/s");
    BOOST_TEST(format_progress(s, 30) == "census  1.2 GB of 3 GB (40%)");
    BOOST_TEST(format_progress(s, 5) == "cens");
}

BOOST_AUTO_TEST_CASE(drawn_on_a_terminal_and_cleared_when_stopped) {
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
        BOOST_TEST_MESSAGE("no pseudo-terminal here: drawing not tried");
        if (master >= 0) ::close(master);
        return;
    }
    std::FILE* terminal = std::fopen(::ptsname(master), "w");
    BOOST_REQUIRE(terminal);
    Progress progress;
    progress.begin("census", 4000);
    progress.add(1000);
    {
        ProgressLine line(progress, terminal, false, kQuick);
        BOOST_TEST(line.enabled());
        // Wait for a first drawing (a loaded machine may be slow to run the line's thread).
        const std::string expected = "\rcensus  1 kB of 4 kB (25%)";
        std::string shown;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (shown.find(expected) == std::string::npos && std::chrono::steady_clock::now() < deadline)
            shown += read_some(master, 50);
        line.stop();
        shown += drain(master);
        BOOST_TEST(shown.find(expected) != std::string::npos, shown);
        BOOST_TEST(shown.find('\n') == std::string::npos, shown);  // one line, redrawn in place
        // Cleared: spaces over the last line, the cursor back at its start.
        BOOST_TEST(shown.size() >= 2);
        BOOST_TEST(shown.back() == '\r');
        const std::size_t before_clear = shown.rfind('\r', shown.size() - 2);
        const std::string clearing = shown.substr(before_clear + 1, shown.size() - before_clear - 2);
        BOOST_TEST(clearing.find_first_not_of(' ') == std::string::npos, clearing);
        BOOST_TEST(clearing.size() >= std::string("census  1 kB of 4 kB (25%)").size());
        // Nothing after it is stopped.
        progress.add(1000);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        BOOST_TEST(drain(master).empty());
    }
    std::fclose(terminal);
    ::close(master);
}

BOOST_AUTO_TEST_CASE(nothing_shown_before_the_delay_or_when_quiet) {
    const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) {
        BOOST_TEST_MESSAGE("no pseudo-terminal here: not tried");
        if (master >= 0) ::close(master);
        return;
    }
    std::FILE* terminal = std::fopen(::ptsname(master), "w");
    BOOST_REQUIRE(terminal);
    Progress progress;
    progress.begin("census", 4000);
    {
        ProgressLine line(progress, terminal, false,
                          ProgressLine::Timing{std::chrono::milliseconds(5000), std::chrono::milliseconds(10)});
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    {
        ProgressLine line(progress, terminal, /*quiet=*/true, kQuick);
        BOOST_TEST(!line.enabled());  // the work need not count either
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    BOOST_TEST(drain(master).empty());
    std::fclose(terminal);
    ::close(master);
}

BOOST_AUTO_TEST_CASE(nothing_written_when_not_a_terminal) {
    std::FILE* file = std::tmpfile();
    BOOST_REQUIRE(file);
    Progress progress;
    progress.begin("events", 4000);
    {
        ProgressLine line(progress, file, false, kQuick);
        BOOST_TEST(!line.enabled());
        for (int i = 0; i < 10; ++i) {
            progress.add(100);
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    BOOST_TEST(std::ftell(file) == 0L);
    std::fclose(file);
}

BOOST_AUTO_TEST_SUITE_END()
