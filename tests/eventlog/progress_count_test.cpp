// InputFile counts the bytes it reads into a util::Progress while the index checks blocks on
// both cores and the prefetcher merges on its own thread, and a display takes snapshots from
// yet another: each pass's count is about the input's size (the TSan stage runs this suite).
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

#include "eventlog/byte_source.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/diagnostics.hpp"
#include "util/progress.hpp"

using namespace el2fx;

BOOST_AUTO_TEST_SUITE(progress_count)

BOOST_AUTO_TEST_CASE(each_pass_counts_about_the_input_while_a_display_looks) {
    const char* dir = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE(dir);
    eventlog::InputFile file(std::string(dir) + "/gc-n4.eventlog");
    const std::uint64_t size = file.size().value();
    util::Progress progress;
    file.count_reads(&progress);
    std::atomic<bool> done{false};
    std::atomic<std::uint64_t> snapshots{0};
    std::thread display([&] {
        while (!done.load()) {
            const util::Progress::Snapshot s = progress.snapshot();
            if (s.phase) BOOST_CHECK_LE(s.done, 2 * size);
            ++snapshots;
            std::this_thread::yield();
        }
    });
    Diagnostics diagnostics;
    progress.begin("index", size);
    eventlog::TimeOrderedReader reader(file, diagnostics);
    const std::uint64_t indexed = progress.snapshot().done;
    progress.begin("events", size);
    std::uint64_t events = 0;
    {
        eventlog::EventPrefetcher prefetcher(reader, diagnostics);
        while (prefetcher.next()) ++events;
    }
    const std::uint64_t merged = progress.snapshot().done;
    // A loaded machine may not have run the display yet: let it look at least once (its
    // snapshots of the finished passes are still checked) rather than fail on scheduling.
    while (snapshots.load() == 0) std::this_thread::yield();
    done = true;
    display.join();
    BOOST_TEST(events > 0u);
    // The index reads every block, the merge every event; neither reads much twice.
    BOOST_TEST(indexed >= size * 9 / 10, indexed << " of " << size);
    BOOST_TEST(indexed <= size * 3 / 2, indexed << " of " << size);
    BOOST_TEST(merged >= size * 9 / 10, merged << " of " << size);
    BOOST_TEST(merged <= size * 3 / 2, merged << " of " << size);
}

BOOST_AUTO_TEST_SUITE_END()
