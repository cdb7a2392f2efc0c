// The assembler's transitions: a sample per FF CA, chunks joined per (capability, thread),
// symbol tables, layout proofs, and what it counts instead of failing.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "analysis/stack_profiler/frame_order.hpp"
#include "analysis/stack_profiler/stack_assembler.hpp"
#include "messages.hpp"

using namespace el2fx::stack_profiler;
using namespace el2fx::testing::stack_messages;

namespace {

std::vector<std::uint64_t> values(const AssembledSample* s) {
    std::vector<std::uint64_t> out;
    if (s)
        for (const Entry& e : s->entries) out.push_back(e.value);
    return out;
}

using V = std::vector<std::uint64_t>;

}  // namespace

BOOST_AUTO_TEST_SUITE(stack_assembler)

BOOST_AUTO_TEST_CASE(idle_to_sample_on_a_final_message) {
    StackAssembler a;
    const AssembledSample* s = a.message(100, stack(true, 2, 12, ipes({1, 2, 3})));
    BOOST_REQUIRE(s);
    BOOST_TEST(s->time == 100u);
    BOOST_TEST(s->cap == 2u);
    BOOST_TEST(s->thread == 12u);
    BOOST_TEST(values(s) == (V{1, 2, 3}));
    BOOST_TEST(a.counts().samples == 1u);
    BOOST_TEST(a.counts().entries == 3u);
}

BOOST_AUTO_TEST_CASE(pending_chunks_join_the_final_message_in_the_order_written) {
    StackAssembler a;
    BOOST_TEST(!a.message(100, stack(false, 0, 6, ipes({1, 2}))));
    BOOST_TEST(!a.message(150, stack(false, 0, 6, ipes({3}))));
    const AssembledSample* s = a.message(200, stack(true, 0, 6, ipes({4, 5})));
    BOOST_TEST(values(s) == (V{1, 2, 3, 4, 5}));
    BOOST_TEST(s->time == 200u);
    BOOST_TEST(a.counts().chunks == 2u);
    BOOST_TEST(a.counts().max_depth == 5u);
    // Pending is empty again: the next sample starts afresh.
    BOOST_TEST(values(a.message(300, stack(true, 0, 6, ipes({9})))) == (V{9}));
}

BOOST_AUTO_TEST_CASE(chunks_of_different_threads_interleaved_join_per_thread_and_are_counted) {
    StackAssembler a;
    a.message(1, stack(false, 0, 6, ipes({1})));
    a.message(2, stack(false, 1, 7, ipes({10})));
    BOOST_TEST(values(a.message(3, stack(true, 0, 6, ipes({2})))) == (V{1, 2}));
    BOOST_TEST(values(a.message(4, stack(true, 1, 7, ipes({11})))) == (V{10, 11}));
    BOOST_TEST(a.counts().interleaved == 2u);  // the second thread's chunk, then the first's FF CA
    BOOST_TEST(a.counts().samples == 2u);
}

BOOST_AUTO_TEST_CASE(the_same_thread_on_another_capability_is_another_stack) {
    // The payload's capability is the sampled thread's: a batch keeps it throughout.
    StackAssembler a;
    a.message(1, stack(false, 0, 6, ipes({1})));
    BOOST_TEST(values(a.message(2, stack(true, 1, 6, ipes({2})))) == (V{2}));
    a.finish();
    BOOST_TEST(a.counts().truncated == 1u);
}

BOOST_AUTO_TEST_CASE(chunks_left_at_the_end_are_a_truncated_sample_not_a_stack) {
    StackAssembler a;
    a.message(1, stack(false, 0, 6, ipes({1, 2, 3})));
    a.finish();
    BOOST_TEST(a.counts().samples == 0u);
    BOOST_TEST(a.counts().truncated == 1u);
    BOOST_TEST(a.counts().truncated_entries == 3u);
    a.finish();  // nothing pending any more
    BOOST_TEST(a.counts().truncated == 1u);
}

BOOST_AUTO_TEST_CASE(an_empty_stack_is_a_sample_counted_as_empty) {
    StackAssembler a;
    const AssembledSample* s = a.message(1, stack(true, 2, 10, {}));
    BOOST_REQUIRE(s);
    BOOST_TEST(s->entries.empty());
    BOOST_TEST(a.counts().empty_samples == 1u);
}

BOOST_AUTO_TEST_CASE(definitions_are_kept_and_redefinitions_accepted) {
    StackAssembler a;
    a.message(1, string_def(0, 7, "Main.hs"));
    a.message(2, string_def(1, 4, "ping"));
    a.message(3, location_def(0, 159, 10, 0));
    a.message(4, string_def(0, 7, "Main.hs"));  // eventlog-socket re-publishes on restart
    BOOST_REQUIRE(a.string(0));
    BOOST_TEST(*a.string(0) == "Main.hs");
    BOOST_REQUIRE(a.location(0));
    BOOST_TEST(a.location(0)->line == 159u);
    BOOST_TEST(a.location(0)->file == 0u);
    BOOST_TEST(!a.string(7));
    BOOST_TEST(!a.location(1));
    BOOST_TEST(a.counts().redefined_differently == 0u);
    a.message(5, string_def(1, 4, "pong"));
    BOOST_TEST(*a.string(1) == "pong");
    BOOST_TEST(a.counts().redefined_differently == 1u);
    BOOST_TEST((a.layout() == Layout::v0_3));  // the 26-byte FF CD
}

BOOST_AUTO_TEST_CASE(a_v0_1_log_reads_its_03_entries_as_source_locations) {
    StackAssembler a;
    a.message(1, location_def_v0_1(1, 20, 3, 0, 2));
    BOOST_TEST((a.layout() == Layout::v0_1));
    BOOST_REQUIRE(a.location(1));
    BOOST_TEST(a.location(1)->has_function);
    const AssembledSample* s = a.message(2, stack(true, 0, 6, {{1, 5}, {3, 1}}, true));
    BOOST_REQUIRE(s);
    BOOST_REQUIRE_EQUAL(s->entries.size(), 2u);
    BOOST_TEST((s->entries[1].kind == EntryKind::location));
}

BOOST_AUTO_TEST_CASE(a_message_of_the_other_layout_is_a_counted_conflict) {
    StackAssembler a;
    a.message(1, stack(true, 0, 6, {{3, 1, 2}}));  // 0.3
    BOOST_TEST((a.layout() == Layout::v0_3));
    a.message(2, location_def_v0_1(1, 20, 3, 0, 2));  // 0.1
    BOOST_TEST(a.counts().layout_conflicts == 1u);
    BOOST_TEST((a.layout() == Layout::v0_3));
}

BOOST_AUTO_TEST_CASE(malformed_unknown_and_foreign_messages_are_counted_and_change_nothing) {
    StackAssembler a;
    a.message(1, stack(false, 0, 6, ipes({1})));
    BOOST_TEST(!a.message(2, stack(true, 0, 6, ipes({2})) + "junk"));
    BOOST_TEST(!a.message(3, "CA11........."));  // a pre-release message: tag, thread, capability, count
    BOOST_TEST(!a.message(4, "the program's own binary event"));
    BOOST_TEST(a.counts().malformed == 1u);
    BOOST_TEST(a.counts().unknown_format == 1u);
    BOOST_TEST(a.counts().other_binary == 1u);
    BOOST_TEST(values(a.message(5, stack(true, 0, 6, ipes({3})))) == (V{1, 3}));
}

BOOST_AUTO_TEST_CASE(a_stack_beyond_the_limit_is_dropped_whole_and_counted) {
    StackAssembler a;
    std::vector<RawEntry> chunk(7280, RawEntry{1, 42});
    const std::string message = stack(false, 0, 6, chunk);
    for (std::size_t n = 0; n * 7280 <= kMaxStackEntries; ++n) a.message(n, message);
    BOOST_TEST(!a.message(1000, stack(true, 0, 6, ipes({1}))));
    BOOST_TEST(a.counts().oversized == 1u);
    BOOST_TEST(a.counts().samples == 0u);
    BOOST_TEST(values(a.message(1001, stack(true, 0, 6, ipes({2})))) == (V{2}));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(frame_order)

std::vector<Entry> entries(std::initializer_list<std::uint64_t> v) {
    std::vector<Entry> out;
    for (std::uint64_t x : v) out.push_back(Entry{EntryKind::ipe, x, 0});
    return out;
}

BOOST_AUTO_TEST_CASE(outermost_first_is_assumed_until_something_tells) {
    FrameOrder o;
    BOOST_TEST(o.outermost_first());
    BOOST_TEST((o.basis() == FrameOrder::Basis::assumed));
}

BOOST_AUTO_TEST_CASE(a_stable_first_frame_says_outermost_first) {
    FrameOrder o;
    for (std::uint64_t i = 0; i <= kShapeVotes; ++i) o.sample(6, entries({100, 200, 300 + i}));
    BOOST_TEST((o.basis() == FrameOrder::Basis::shape));
    BOOST_TEST(o.outermost_first());
}

BOOST_AUTO_TEST_CASE(a_stable_last_frame_says_innermost_first) {
    FrameOrder o;
    for (std::uint64_t i = 0; i <= kShapeVotes; ++i) {
        o.sample(6, entries({300 + i, 200, 100}));
        o.sample(7, entries({500 + i, 400}));
    }
    BOOST_TEST((o.basis() == FrameOrder::Basis::shape));
    BOOST_TEST(!o.outermost_first());
}

BOOST_AUTO_TEST_CASE(mixed_evidence_decides_nothing) {
    FrameOrder o;
    for (std::uint64_t i = 0; i < 4 * kShapeVotes; ++i) {
        o.sample(6, entries({1, 10 + i}));
        o.sample(7, entries({10 + i, 1}));
    }
    BOOST_TEST((o.basis() == FrameOrder::Basis::assumed));
}

BOOST_AUTO_TEST_CASE(a_proved_layout_overrides_the_shape) {
    FrameOrder o;
    for (std::uint64_t i = 0; i <= kShapeVotes; ++i) o.sample(6, entries({100, 300 + i}));
    o.prove(Layout::v0_1);
    BOOST_TEST((o.basis() == FrameOrder::Basis::layout));
    BOOST_TEST(!o.outermost_first());
    o.prove(Layout::v0_3);  // the first proof stays (a conflict is the assembler's to count)
    BOOST_TEST(!o.outermost_first());
}

BOOST_AUTO_TEST_SUITE_END()
