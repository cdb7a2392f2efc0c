// Capability usage: GC, mutator and idle spans that tile a capability's life,
// including the rule for a GC that starts while a mutator span is open.
#include <boost/test/unit_test.hpp>

#include <random>
#include <vector>

#include "analysis/threading/capability_usage_analysis.hpp"
#include "printing.hpp"

using el2fx::Diagnostic;
using el2fx::Diagnostics;
using namespace el2fx::analysis;

namespace {
constexpr std::uint16_t kYield = 3;
constexpr std::uint16_t kFinished = 5;

const CapabilityActivity kIdle = CapabilityActivity::idle();
const CapabilityActivity kGc = CapabilityActivity::gc();
CapabilityActivity mutator(std::uint32_t t) { return CapabilityActivity::mutator(t); }

// Collects the spans an analysis returns.
struct Collected {
    std::vector<CapabilitySpan> spans;
    void operator+=(std::optional<CapabilitySpan> s) {
        if (s) spans.push_back(*s);
    }
};
}  // namespace

BOOST_AUTO_TEST_SUITE(capability_usage_analysis)

BOOST_AUTO_TEST_CASE(usage_starts_idle_at_first_event) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    BOOST_TEST(u.activity() == kIdle);
    BOOST_TEST(u.start_time() == 100u);
    BOOST_TEST((u.finish(150) == CapabilitySpan{100, 150, kIdle}));
}

BOOST_AUTO_TEST_CASE(usage_idle_run_thread_yields_idle_span_enters_mutator) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    BOOST_TEST((u.run_thread(120, 3) == CapabilitySpan{100, 120, kIdle}));
    BOOST_TEST(u.activity() == mutator(3));
}

BOOST_AUTO_TEST_CASE(usage_mutator_stop_thread_yields_mutator_span_enters_idle) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(120, 3);
    BOOST_TEST((u.stop_thread(170, 3, kYield) == CapabilitySpan{120, 170, mutator(3)}));
    BOOST_TEST(u.activity() == kIdle);
}

BOOST_AUTO_TEST_CASE(usage_idle_start_gc_yields_idle_span_enters_gc) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    BOOST_TEST((u.start_gc(130) == CapabilitySpan{100, 130, kIdle}));
    BOOST_TEST(u.activity() == kGc);
}

BOOST_AUTO_TEST_CASE(usage_gc_end_gc_yields_gc_span_enters_idle) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.start_gc(130);
    BOOST_TEST((u.end_gc(160) == CapabilitySpan{130, 160, kGc}));
    BOOST_TEST(u.activity() == kIdle);
}

BOOST_AUTO_TEST_CASE(usage_gc_start_gc_stays_gc) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.start_gc(130);
    BOOST_TEST(!u.start_gc(140).has_value());
    BOOST_TEST((u.end_gc(160) == CapabilitySpan{130, 160, kGc}));
}

BOOST_AUTO_TEST_CASE(usage_idle_end_gc_stays_idle) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    BOOST_TEST(!u.end_gc(130).has_value());
    BOOST_TEST((u.finish(150) == CapabilitySpan{100, 150, kIdle}));
}

BOOST_AUTO_TEST_CASE(usage_mutator_errors_keep_mutator_span) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(110, 3);
    BOOST_TEST(!u.run_thread(120, 4).has_value());
    BOOST_TEST(!u.stop_thread(130, 4, kYield).has_value());
    BOOST_TEST((u.stop_thread(140, 3, kYield) == CapabilitySpan{110, 140, mutator(3)}));
    BOOST_TEST(d.count(Diagnostic::mutator_run_thread_mismatch) == 1u);
    BOOST_TEST(d.count(Diagnostic::mutator_stop_thread_mismatch) == 1u);
}

BOOST_AUTO_TEST_CASE(usage_false_run_after_thread_finished_stays_idle) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(110, 3);
    (void)u.stop_thread(140, 3, kFinished);
    BOOST_TEST(!u.run_thread(141, 3).has_value());
    BOOST_TEST(u.activity() == kIdle);
}

BOOST_AUTO_TEST_CASE(usage_gc_start_during_mutator_cuts_mutator_span) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(110, 3);
    BOOST_TEST((u.start_gc(150) == CapabilitySpan{110, 150, mutator(3)}));
    BOOST_TEST(u.activity() == kGc);
    BOOST_TEST(d.count(Diagnostic::gc_during_mutator_span) == 1u);
}

BOOST_AUTO_TEST_CASE(usage_mutator_resumes_after_gc_when_no_stop_came) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(110, 3);
    (void)u.start_gc(150);
    BOOST_TEST((u.end_gc(170) == CapabilitySpan{150, 170, kGc}));
    BOOST_TEST(u.activity() == mutator(3));
    BOOST_TEST((u.stop_thread(200, 3, kYield) == CapabilitySpan{170, 200, mutator(3)}));
}

BOOST_AUTO_TEST_CASE(usage_stop_thread_during_gc_leaves_idle_after_gc) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(110, 3);
    (void)u.start_gc(150);
    BOOST_TEST(!u.stop_thread(160, 3, kYield).has_value());  // GC time stays GC
    BOOST_TEST((u.end_gc(170) == CapabilitySpan{150, 170, kGc}));
    BOOST_TEST(u.activity() == kIdle);
}

BOOST_AUTO_TEST_CASE(usage_run_thread_during_gc_starts_mutator_at_gc_end) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.start_gc(150);
    BOOST_TEST(!u.run_thread(160, 3).has_value());
    BOOST_TEST((u.end_gc(170) == CapabilitySpan{150, 170, kGc}));
    BOOST_TEST(u.activity() == mutator(3));
    BOOST_TEST(d.count(Diagnostic::gc_during_mutator_span) == 0u);
}

BOOST_AUTO_TEST_CASE(usage_spans_of_no_duration_are_not_returned) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(110, 3);
    (void)u.stop_thread(120, 3, kYield);
    BOOST_TEST(!u.run_thread(120, 4).has_value());  // the idle instant at 120 covers no time
    BOOST_TEST((u.stop_thread(130, 4, kYield) == CapabilitySpan{120, 130, mutator(4)}));
}

BOOST_AUTO_TEST_CASE(usage_finish_closes_open_span) {
    Diagnostics d;
    CapabilityUsageAnalysis u(100, d);
    (void)u.run_thread(110, 3);
    BOOST_TEST((u.finish(190) == CapabilitySpan{110, 190, mutator(3)}));
    BOOST_TEST(!u.finish(190).has_value());
}

// Whatever the events, the spans tile [start, end] and each one's activity is
// what the two automata say: GC over mutator over idle.
BOOST_AUTO_TEST_CASE(usage_spans_tile_the_life_for_random_events) {
    std::mt19937 rng(42);
    for (int round = 0; round < 200; ++round) {
        Diagnostics d;
        const std::uint64_t start = rng() % 100;
        CapabilityUsageAnalysis u(start, d);
        GcSpanAnalysis gc;
        MutatorSpanAnalysis m(d);
        Collected c;
        std::vector<std::pair<std::uint64_t, CapabilityActivity>> expected_changes{{start, kIdle}};
        std::uint64_t t = start;
        for (int i = 0; i < 60; ++i) {
            t += rng() % 4;  // often equal times
            const std::uint32_t thread = 1 + rng() % 3;
            switch (rng() % 4) {
                case 0:
                    c += u.run_thread(t, thread);
                    m.run_thread(t, thread);
                    break;
                case 1: {
                    const std::uint16_t status = rng() % 5 == 0 ? kFinished : kYield;
                    c += u.stop_thread(t, thread, status);
                    (void)m.stop_thread(t, thread, status);
                    break;
                }
                case 2:
                    c += u.start_gc(t);
                    gc.start_gc(t);
                    break;
                case 3:
                    c += u.end_gc(t);
                    (void)gc.end_gc(t);
                    break;
            }
            CapabilityActivity want = gc.in_gc() ? kGc : m.running_thread() ? mutator(*m.running_thread()) : kIdle;
            BOOST_TEST(u.activity() == want);
        }
        const std::uint64_t end = t + 5;
        c += u.finish(end);
        BOOST_REQUIRE(!c.spans.empty());
        BOOST_TEST(c.spans.front().start == start);
        BOOST_TEST(c.spans.back().end == end);
        for (std::size_t i = 0; i < c.spans.size(); ++i) {
            BOOST_TEST(c.spans[i].start < c.spans[i].end);
            if (i) BOOST_TEST(c.spans[i].start == c.spans[i - 1].end);
        }
    }
}

// GC phases (GC_WORK / GC_IDLE / GC_DONE, the census) change what samples say, never the spans.
BOOST_AUTO_TEST_CASE(usage_gc_phase_changes_samples_not_spans) {
    Diagnostics d;
    CapabilityUsageAnalysis u(0, d);
    BOOST_TEST(!u.start_gc(0));
    u.gc_phase(GcPhase::working);
    BOOST_TEST((u.sample_activity() == CapabilityActivity::gc(GcPhase::working)));
    BOOST_TEST((u.activity() == CapabilityActivity::gc()));  // the span has no phase
    u.gc_phase(GcPhase::done);
    BOOST_TEST((u.sample_activity() == CapabilityActivity::gc(GcPhase::done)));
    auto span = u.end_gc(10);
    BOOST_REQUIRE(span);
    BOOST_TEST((*span == CapabilitySpan{0, 10, CapabilityActivity::gc()}));  // one GC span, whatever the phases
    BOOST_TEST((u.sample_activity() == CapabilityActivity::idle()));
}

BOOST_AUTO_TEST_CASE(usage_gc_phase_outside_a_collection_is_ignored_and_a_new_one_starts_collecting) {
    Diagnostics d;
    CapabilityUsageAnalysis u(0, d);
    u.gc_phase(GcPhase::working);  // not in a collection
    BOOST_TEST((u.sample_activity() == CapabilityActivity::idle()));
    u.start_gc(5);
    BOOST_TEST((u.sample_activity() == CapabilityActivity::gc(GcPhase::collecting)));
    u.gc_phase(GcPhase::idle);
    u.end_gc(8);
    u.start_gc(20);  // the next collection starts without a phase
    BOOST_TEST((u.sample_activity() == CapabilityActivity::gc(GcPhase::collecting)));
}

BOOST_AUTO_TEST_SUITE_END()
