// The words for why a thread stopped, and when they depend on more than the status (the
// converter keeps one string per status where they do not).
#include <boost/test/unit_test.hpp>

#include <cstdint>

#include "analysis/threading/stop_status_text.hpp"
#include "eventlog/event_types.hpp"

using namespace el2fx::analysis;
using el2fx::eventlog::StopStatus;

namespace {

BlockReason reason(StopStatus status, el2fx::eventlog::ThreadId blocker) {
    return BlockReason{.status = static_cast<std::uint16_t>(status), .blocker = blocker};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stop_status_text_words)

BOOST_AUTO_TEST_CASE(a_black_hole_s_known_owner_is_named) {
    BOOST_TEST(block_reason_text(reason(StopStatus::BlockedOnBlackHole, 9)) ==
               "blocked on black hole owned by thread 9");
    BOOST_TEST(block_reason_names_blocker(reason(StopStatus::BlockedOnBlackHole, 9)));
    BOOST_TEST(block_reason_text(reason(StopStatus::BlockedOnBlackHole, 0)) == "blocked on black hole");
    BOOST_TEST(!block_reason_names_blocker(reason(StopStatus::BlockedOnBlackHole, 0)));
}

BOOST_AUTO_TEST_CASE(other_statuses_are_worded_by_the_status_alone) {
    // A blocker of another status (an MVar's, a throwTo's target) is not in the words.
    for (std::uint16_t status = 0; status < 40; ++status) {
        if (status == static_cast<std::uint16_t>(StopStatus::BlockedOnBlackHole)) continue;
        const BlockReason with{.status = status, .blocker = 17};
        const BlockReason without{.status = status, .blocker = 0};
        BOOST_TEST(!block_reason_names_blocker(with), status);
        BOOST_TEST(block_reason_text(with) == block_reason_text(without), status);
        BOOST_TEST(block_reason_text(with) == stop_status_text(status), status);
    }
    BOOST_TEST(stop_status_text(static_cast<std::uint16_t>(StopStatus::BlockedOnMVar)) == "blocked on an MVar");
    BOOST_TEST(stop_status_text(200) == "unknown status 200");
}

BOOST_AUTO_TEST_SUITE_END()
