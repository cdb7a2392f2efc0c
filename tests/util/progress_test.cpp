// util::Progress: what a snapshot of it says, from the phase's start.
#include <boost/test/unit_test.hpp>

#include <string>
#include <thread>

#include "util/progress.hpp"

using el2fx::util::Progress;

BOOST_AUTO_TEST_SUITE(progress)

BOOST_AUTO_TEST_CASE(a_snapshot_counts_bytes_from_the_phase_start) {
    Progress progress;
    BOOST_TEST(!progress.snapshot().phase);
    progress.begin("index", 100);
    progress.add(60);
    progress.begin("census", 100);
    progress.add(30);
    const Progress::Snapshot s = progress.snapshot();
    BOOST_TEST(std::string(s.phase) == "census");
    BOOST_TEST(s.done == 30u);
    BOOST_TEST(s.total == 100u);
    progress.end();
    BOOST_TEST(!progress.snapshot().phase);
}

BOOST_AUTO_TEST_CASE(counted_from_several_threads) {
    Progress progress;
    progress.begin("index", 0);
    std::thread other([&] {
        for (int i = 0; i < 1000; ++i) progress.add(3);
    });
    for (int i = 0; i < 1000; ++i) progress.add(2);
    other.join();
    BOOST_TEST(progress.snapshot().done == 5000u);
    BOOST_TEST(progress.snapshot().total == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
