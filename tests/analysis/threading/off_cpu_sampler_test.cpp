// The off-CPU sampler: every state × event cell of samply's ContextSwitchHandler,
// and the seed's own `it_works` scenario with the same numbers.
#include <boost/test/unit_test.hpp>

#include "analysis/threading/off_cpu_sampler.hpp"
#include "printing.hpp"
#include "util/error.hpp"

using el2fx::analysis::OffCpuSampleGroup;
using el2fx::analysis::OffCpuSampler;
using State = OffCpuSampler::State;

BOOST_AUTO_TEST_SUITE(off_cpu_sampler)

BOOST_AUTO_TEST_CASE(sampler_zero_interval_is_rejected) { BOOST_CHECK_THROW(OffCpuSampler(0), el2fx::Error); }

BOOST_AUTO_TEST_CASE(sampler_initial_state_is_unknown) {
    OffCpuSampler s(10);
    BOOST_TEST((s.state() == State::unknown));
    BOOST_TEST(s.consume_cpu_delta() == 0u);
}

// ---- unknown ----

BOOST_AUTO_TEST_CASE(sampler_unknown_switch_out_enters_off_without_cpu_delta) {
    OffCpuSampler s(10);
    s.switch_out(5);
    BOOST_TEST((s.state() == State::off));
    BOOST_TEST(s.consume_cpu_delta() == 0u);
    // The off time counts from this switch-out.
    BOOST_TEST((s.switch_in(25) == OffCpuSampleGroup{15, 25, 2}));
}

BOOST_AUTO_TEST_CASE(sampler_unknown_switch_in_enters_on_without_group) {
    OffCpuSampler s(10);
    BOOST_TEST(!s.switch_in(100).has_value());
    BOOST_TEST((s.state() == State::on));
    BOOST_TEST(s.consume_cpu_delta() == 0u);
}

BOOST_AUTO_TEST_CASE(sampler_unknown_sample_enters_on_with_zero_delta) {
    OffCpuSampler s(10);
    BOOST_TEST(!s.sample(100).has_value());
    BOOST_TEST((s.state() == State::on));
    BOOST_TEST(s.consume_cpu_delta() == 0u);
}

// ---- on ----

BOOST_AUTO_TEST_CASE(sampler_on_switch_out_adds_on_time_enters_off) {
    OffCpuSampler s(10);
    (void)s.switch_in(0);
    s.switch_out(7);
    BOOST_TEST((s.state() == State::off));
    BOOST_TEST(s.consume_cpu_delta() == 7u);
}

BOOST_AUTO_TEST_CASE(sampler_on_switch_in_adds_on_time_stays_on) {
    OffCpuSampler s(10);
    (void)s.sample(0);
    BOOST_TEST(!s.switch_in(4).has_value());  // a sample came just before the switch-in
    BOOST_TEST((s.state() == State::on));
    BOOST_TEST(s.consume_cpu_delta() == 4u);
}

BOOST_AUTO_TEST_CASE(sampler_on_sample_adds_on_time_stays_on) {
    OffCpuSampler s(10);
    (void)s.switch_in(0);
    BOOST_TEST(!s.sample(6).has_value());
    BOOST_TEST(s.consume_cpu_delta() == 6u);
    BOOST_TEST(!s.sample(9).has_value());
    BOOST_TEST(s.consume_cpu_delta() == 3u);
}

// ---- off ----

BOOST_AUTO_TEST_CASE(sampler_off_switch_out_is_a_tolerated_duplicate) {
    OffCpuSampler s(10);
    (void)s.switch_in(0);
    s.switch_out(5);
    s.switch_out(5);  // the same record twice, as samply saw in perf.data
    s.switch_out(9);  // a later duplicate does not move the switch-out time either
    BOOST_TEST((s.state() == State::off));
    BOOST_TEST(s.consume_cpu_delta() == 5u);
    BOOST_TEST((s.switch_in(15) == OffCpuSampleGroup{15, 15, 1}));
}

BOOST_AUTO_TEST_CASE(sampler_off_switch_in_below_interval_yields_no_group_keeps_off_time) {
    OffCpuSampler s(10);
    (void)s.switch_in(0);
    s.switch_out(1);
    BOOST_TEST(!s.switch_in(5).has_value());  // 4 off
    BOOST_TEST((s.state() == State::on));
    s.switch_out(6);
    BOOST_TEST((s.switch_in(12) == OffCpuSampleGroup{12, 12, 1}));  // 4 + 6 = one interval
}

BOOST_AUTO_TEST_CASE(sampler_off_switch_in_over_interval_yields_group_keeps_remainder) {
    OffCpuSampler s(10);
    (void)s.switch_in(0);
    s.switch_out(10);
    // 33 off: three intervals, 3 left; begin = 43 - (33 - 10), end = 43 - 3.
    BOOST_TEST((s.switch_in(43) == OffCpuSampleGroup{20, 40, 3}));
    s.switch_out(50);
    BOOST_TEST(!s.switch_in(56).has_value());  // 3 + 6 = 9 < 10
    s.switch_out(60);
    BOOST_TEST((s.switch_in(61) == OffCpuSampleGroup{61, 61, 1}));  // 9 + 1
}

BOOST_AUTO_TEST_CASE(sampler_off_sample_acts_as_switch_in) {
    OffCpuSampler s(10);
    (void)s.switch_in(0);
    s.switch_out(10);
    BOOST_TEST((s.sample(35) == OffCpuSampleGroup{20, 30, 2}));  // 25 off, 5 left
    BOOST_TEST((s.state() == State::on));
    BOOST_TEST(s.consume_cpu_delta() == 10u);
}

BOOST_AUTO_TEST_CASE(sampler_consume_cpu_delta_resets_to_zero) {
    OffCpuSampler s(10);
    (void)s.switch_in(0);
    s.switch_out(8);
    BOOST_TEST(s.consume_cpu_delta() == 8u);
    BOOST_TEST(s.consume_cpu_delta() == 0u);
}

// samply's test, with the same numbers (interval 10):
//
// 0         10        20        30        40        50        60
// 01234567890123456789012345678901234567890123456789012345678901
// ===__========__=_____==____===___________________=============
//             ^           v            v         v   ^         ^
BOOST_AUTO_TEST_CASE(sampler_it_works) {
    OffCpuSampler s(10);
    BOOST_TEST(!s.switch_in(0).has_value());
    s.switch_out(3);
    BOOST_TEST(!s.switch_in(5).has_value());
    BOOST_TEST(!s.sample(12).has_value());
    BOOST_TEST(s.consume_cpu_delta() == 10u);
    s.switch_out(13);
    BOOST_TEST(!s.switch_in(15).has_value());
    s.switch_out(16);
    BOOST_TEST(!s.switch_in(21).has_value());
    s.switch_out(23);
    BOOST_TEST((s.switch_in(27) == OffCpuSampleGroup{24, 24, 1}));
    BOOST_TEST(s.consume_cpu_delta() == 4u);
    s.switch_out(30);
    BOOST_TEST((s.switch_in(48) == OffCpuSampleGroup{37, 47, 2}));
    BOOST_TEST(s.consume_cpu_delta() == 3u);
    BOOST_TEST(!s.sample(51).has_value());
    BOOST_TEST(s.consume_cpu_delta() == 3u);
    BOOST_TEST(!s.sample(61).has_value());
    BOOST_TEST(s.consume_cpu_delta() == 10u);
}

BOOST_AUTO_TEST_SUITE_END()
