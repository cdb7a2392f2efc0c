// Which folded threads the consumer follows: a share set from a thread id on, asked by both
// sides; a thread's answer never changes once a later share is set above it.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "analysis/threading/folded_share.hpp"

using el2fx::analysis::FoldedShare;
namespace ev = el2fx::eventlog;

namespace {

std::size_t on_consumer(const FoldedShare& share, ev::ThreadId from, ev::ThreadId to) {
    std::size_t n = 0;
    for (ev::ThreadId id = from; id < to; ++id) n += share.on_consumer(id);
    return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(folded_share)

BOOST_AUTO_TEST_CASE(none_at_first_then_about_the_share_of_the_threads) {
    FoldedShare share;
    BOOST_TEST(share.latest() == 0u);
    BOOST_TEST(on_consumer(share, 0, 100000) == 0u);
    share.set(0, FoldedShare::kSteps / 4);  // no thread seen yet: from the first on
    BOOST_TEST(share.latest() == FoldedShare::kSteps / 4);
    // Ids in sequence, and ids that skip in a pattern, are shared alike.
    const std::size_t sequence = on_consumer(share, 1, 100001);
    BOOST_TEST(sequence > 24000u);
    BOOST_TEST(sequence < 26000u);
    std::size_t even = 0;
    for (ev::ThreadId id = 2; id <= 200000; id += 2) even += share.on_consumer(id);
    BOOST_TEST(even > 24000u);
    BOOST_TEST(even < 26000u);
    share.set(0, FoldedShare::kSteps);
    BOOST_TEST(on_consumer(share, 0, 1000) == 1000u);
    share.set(0, FoldedShare::kSteps + 5);  // at most all
    BOOST_TEST(share.latest() == FoldedShare::kSteps);
}

BOOST_AUTO_TEST_CASE(a_new_share_is_for_the_threads_from_its_first_id_on_only) {
    FoldedShare share;
    share.set(0, 4);
    std::vector<bool> before;
    for (ev::ThreadId id = 0; id < 5000; ++id) before.push_back(share.on_consumer(id));
    share.set(5000, 0);
    share.set(9000, 8);
    share.set(12000, 8);  // the same share: nothing changes
    share.set(20000, 2);
    bool same = true;
    for (ev::ThreadId id = 0; id < 5000; ++id) same = same && share.on_consumer(id) == before[id];
    BOOST_TEST(same);
    BOOST_TEST(on_consumer(share, 5000, 9000) == 0u);
    BOOST_TEST(on_consumer(share, 9000, 20000) > 4500u);  // about half of 11,000
    BOOST_TEST(on_consumer(share, 9000, 20000) < 6500u);
    BOOST_TEST(on_consumer(share, 20000, 36000) > 1500u);  // about an eighth of 16,000
    BOOST_TEST(on_consumer(share, 20000, 36000) < 2500u);
    BOOST_TEST(share.latest() == 2u);
}

BOOST_AUTO_TEST_CASE(a_share_set_again_before_any_thread_above_it_replaces_it) {
    FoldedShare share;
    share.set(100, 16);
    share.set(100, 0);  // nobody saw a thread from 100 on yet
    BOOST_TEST(on_consumer(share, 0, 10000) == 0u);
}

BOOST_AUTO_TEST_CASE(after_the_most_changes_the_share_stays) {
    FoldedShare share;
    for (std::size_t i = 1; i <= FoldedShare::kMaxChanges + 10; ++i) share.set(i * 10, i % 2 ? 16 : 0);
    const unsigned last = share.latest();
    // Every id still gets one answer, the same asked twice, and those past the last change
    // the last share.
    const ev::ThreadId beyond = static_cast<ev::ThreadId>(FoldedShare::kMaxChanges * 10 + 1000);
    BOOST_TEST(on_consumer(share, beyond, beyond + 100) == (last == 16 ? 100u : 0u));
    BOOST_TEST(on_consumer(share, 0, 1000) == on_consumer(share, 0, 1000));
    BOOST_TEST(on_consumer(share, 10, 20) == 10u);  // the first change's (16) from 10 on
    BOOST_TEST(on_consumer(share, 20, 30) == 0u);
}

// The two sides at once, as in a pass (and under ThreadSanitizer, tools/run-tests.sh): the
// reader's thread sets a share from the first id it has not seen yet, then hands ids over; the
// consumer asks about every id handed over, and about older ones again. Each id gets one
// answer, the same on both sides, however the share changed since.
BOOST_AUTO_TEST_CASE(set_while_the_consumer_asks_an_answer_never_changes) {
    FoldedShare share;
    constexpr ev::ThreadId kStep = 40;
    constexpr ev::ThreadId kIds = kStep * 4000;
    static_assert(kIds / kStep < FoldedShare::kMaxChanges);  // every change taken
    std::vector<std::uint8_t> worker_answer(kIds), consumer_answer(kIds);
    std::atomic<ev::ThreadId> handed{0};  // ids below it reached the consumer (a batch's hand-over)
    std::thread worker([&] {
        for (ev::ThreadId first = 0; first < kIds; first += kStep) {
            share.set(first, (first / kStep * 7) % (FoldedShare::kSteps + 1));
            for (ev::ThreadId id = first; id < first + kStep; ++id) worker_answer[id] = share.on_consumer(id);
            handed.store(first + kStep, std::memory_order_release);
        }
    });
    std::size_t changed = 0;
    for (ev::ThreadId asked = 0; asked < kIds;) {
        const ev::ThreadId upto = handed.load(std::memory_order_acquire);
        for (ev::ThreadId id = asked; id < upto; ++id) {
            consumer_answer[id] = share.on_consumer(id);
            const ev::ThreadId older = id / 3;  // one asked before, asked again
            changed += share.on_consumer(older) != consumer_answer[older];
        }
        asked = upto;
    }
    worker.join();
    BOOST_TEST(changed == 0u);
    BOOST_TEST(consumer_answer == worker_answer);
    std::size_t on = 0;
    for (std::uint8_t a : consumer_answer) on += a;
    BOOST_TEST(on > kIds / 4);  // shares of every size were set: about half of the ids
    BOOST_TEST(on < kIds * 3 / 4);
}

BOOST_AUTO_TEST_SUITE_END()
