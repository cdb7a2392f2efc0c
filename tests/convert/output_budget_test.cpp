// The output budget (output_budget.hpp): the estimate shrinks as the detail grows coarser,
// and the choice coarsens the marker resolution first, then the sampling interval, then the
// thread tracks, leaving alone what the user set, and only as far as the budget needs.
#include <boost/test/unit_test.hpp>

#include "analysis/run/detail_census.hpp"
#include "convert/output_budget.hpp"

using namespace el2fx::convert;
using el2fx::run::DetailCensus;

namespace {

constexpr std::uint64_t kMs = 1'000'000;
constexpr std::uint64_t kMinute = 60'000 * kMs;

// A service-like run: `threads` threads each running 100 µs then waiting 10 ms, for `duration`,
// on 2 capabilities with a 200 µs collection every 5 ms.
DetailCensus service(std::uint64_t duration, std::uint32_t threads) {
    DetailCensus d;
    d.threads = threads;
    d.capabilities = 2;
    const std::uint64_t runs_per_thread = duration / (10 * kMs);
    for (std::uint32_t t = 0; t < threads; ++t) d.runs_by_thread.push_back(static_cast<std::uint32_t>(runs_per_thread));
    // The histograms get a sample of the spans, scaled: add() is per span, so keep the count modest.
    for (std::uint64_t i = 0; i < runs_per_thread * threads; ++i) {
        d.running.add(100'000);
        d.stopped.add(10 * kMs);
    }
    for (std::uint64_t i = 0; i < 2 * duration / (5 * kMs); ++i) {
        d.gc.add(200'000);
        d.idle.add(50'000);
    }
    d.moments = threads * runs_per_thread;
    return d;
}

Detail wanted(std::uint64_t duration) { return {default_span_detail(duration, kMs), kMs, 64}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(output_budget)

BOOST_AUTO_TEST_CASE(estimate_shrinks_with_each_coarser_dimension) {
    const DetailCensus d = service(5 * kMinute, 50);
    const Detail fine = wanted(5 * kMinute);
    const std::uint64_t base = estimate_profile_bytes(d, 5 * kMinute, fine);
    Detail coarser_markers = fine;
    coarser_markers.spans = span_detail_for(fine.spans.resolution * 8);
    Detail coarser_samples = fine;
    coarser_samples.sampling_interval_ns *= 8;
    Detail fewer_tracks = fine;
    fewer_tracks.thread_tracks = 8;
    BOOST_TEST(estimate_profile_bytes(d, 5 * kMinute, coarser_markers) < base);
    BOOST_TEST(estimate_profile_bytes(d, 5 * kMinute, coarser_samples) < base);
    BOOST_TEST(estimate_profile_bytes(d, 5 * kMinute, fewer_tracks) < base);
    Detail every_span = fine;
    every_span.spans = span_detail_for(0);
    BOOST_TEST(estimate_profile_bytes(d, 5 * kMinute, every_span) > base);
}

BOOST_AUTO_TEST_CASE(estimate_grows_with_the_length_of_the_run) {
    const std::uint64_t short_run = estimate_profile_bytes(service(kMinute, 50), kMinute, wanted(kMinute));
    const std::uint64_t long_run = estimate_profile_bytes(service(10 * kMinute, 50), 10 * kMinute, wanted(kMinute));
    BOOST_TEST(long_run > 5 * short_run);
}

BOOST_AUTO_TEST_CASE(within_the_budget_nothing_changes) {
    const DetailCensus d = service(kMinute, 10);
    const BudgetRequest r{.max_bytes = 1'000'000'000, .wanted = wanted(kMinute)};
    const DetailChoice c = choose_detail(d, kMinute, r);
    BOOST_TEST(!c.coarsened);
    BOOST_TEST(!c.over_budget);
    BOOST_TEST((c.detail == r.wanted));
    BOOST_TEST(c.estimated_bytes == c.wanted_bytes);
    BOOST_TEST(describe_coarsening(c, r.wanted).empty());
}

BOOST_AUTO_TEST_CASE(no_budget_means_no_change_at_any_size) {
    const DetailCensus d = service(10 * kMinute, 50);
    const BudgetRequest r{.max_bytes = 0, .wanted = wanted(10 * kMinute)};
    const DetailChoice c = choose_detail(d, 10 * kMinute, r);
    BOOST_TEST(!c.coarsened);
    BOOST_TEST((c.detail == r.wanted));
}

BOOST_AUTO_TEST_CASE(over_the_budget_samples_then_markers_grow_coarser_and_only_as_needed) {
    const DetailCensus d = service(10 * kMinute, 50);
    const Detail w = wanted(10 * kMinute);
    const std::uint64_t full = estimate_profile_bytes(d, 10 * kMinute, w);
    const BudgetRequest r{.max_bytes = full / 3, .wanted = w};
    const DetailChoice c = choose_detail(d, 10 * kMinute, r);
    BOOST_TEST(c.coarsened);
    BOOST_TEST(!c.over_budget);
    BOOST_TEST(c.estimated_bytes <= r.max_bytes);
    BOOST_TEST(c.detail.thread_tracks == w.thread_tracks);  // tracks go last
    BOOST_TEST(c.detail.folded_names);
    // Samples first, to 40% of the budget, then the resolution.
    BOOST_TEST(c.detail.sampling_interval_ns > w.sampling_interval_ns);
    Detail finer_samples = c.detail;
    finer_samples.sampling_interval_ns /= 2;
    BOOST_TEST(estimate_profile_size(d, 10 * kMinute, finer_samples).samples > 0.4 * static_cast<double>(r.max_bytes));
    BOOST_TEST(c.detail.spans.resolution > w.spans.resolution);
    // Only as far as needed: half the resolution would not fit.
    Detail finer = c.detail;
    finer.spans = span_detail_for(c.detail.spans.resolution / 2);
    BOOST_TEST(estimate_profile_bytes(d, 10 * kMinute, finer) > r.max_bytes);
    BOOST_TEST(describe_coarsening(c, w).find("merged") != std::string::npos);
    BOOST_TEST(describe_coarsening(c, w).find("sampling every") != std::string::npos);
    BOOST_TEST(budget_summary(c, w).find("estimated") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(hundreds_of_thousands_of_threads_lose_their_names_first) {
    DetailCensus d;
    d.threads = 500'000;
    d.capabilities = 4;
    for (std::uint32_t t = 0; t < d.threads; ++t) {
        d.runs_by_thread.push_back(1);
        d.running.add(20'000);
    }
    const Detail w = wanted(kMinute);
    const std::uint64_t full = estimate_profile_bytes(d, kMinute, w);
    const BudgetRequest r{.max_bytes = full / 2, .wanted = w};
    const DetailChoice c = choose_detail(d, kMinute, r);
    BOOST_TEST(!c.detail.folded_names);
    BOOST_TEST(c.estimated_bytes <= r.max_bytes);
    BOOST_TEST(describe_coarsening(c, w) == "folded threads without their names");
}

BOOST_AUTO_TEST_CASE(a_resolution_the_user_set_stays_and_the_interval_grows) {
    const DetailCensus d = service(10 * kMinute, 50);
    Detail w = wanted(10 * kMinute);
    w.spans = span_detail_for(10 * kMs);
    const std::uint64_t full = estimate_profile_bytes(d, 10 * kMinute, w);
    const BudgetRequest r{.max_bytes = full * 3 / 4, .wanted = w, .resolution_fixed = true};
    const DetailChoice c = choose_detail(d, 10 * kMinute, r);
    BOOST_TEST(c.detail.spans.resolution == w.spans.resolution);
    BOOST_TEST(c.detail.sampling_interval_ns > w.sampling_interval_ns);
    BOOST_TEST(c.estimated_bytes <= r.max_bytes);
    BOOST_TEST(describe_coarsening(c, w).find("sampling every") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(with_resolution_and_interval_set_the_thread_tracks_go) {
    const DetailCensus d = service(10 * kMinute, 50);
    const Detail w = wanted(10 * kMinute);
    const std::uint64_t full = estimate_profile_bytes(d, 10 * kMinute, w);
    const BudgetRequest r{.max_bytes = full * 2 / 3, .wanted = w, .resolution_fixed = true, .interval_fixed = true};
    const DetailChoice c = choose_detail(d, 10 * kMinute, r);
    BOOST_TEST(c.detail.spans.resolution == w.spans.resolution);
    BOOST_TEST(c.detail.sampling_interval_ns == w.sampling_interval_ns);
    BOOST_TEST(c.detail.thread_tracks < 50u);
    BOOST_TEST(c.estimated_bytes <= r.max_bytes);
}

BOOST_AUTO_TEST_CASE(everything_fixed_and_over_is_said) {
    const DetailCensus d = service(10 * kMinute, 50);
    const Detail w = wanted(10 * kMinute);
    const BudgetRequest r{
        .max_bytes = 1000, .wanted = w, .resolution_fixed = true, .interval_fixed = true, .threads_fixed = true};
    const DetailChoice c = choose_detail(d, 10 * kMinute, r);
    BOOST_TEST(c.over_budget);
    BOOST_TEST((c.detail == w));
    BOOST_TEST(budget_summary(c, w).find("still over") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
