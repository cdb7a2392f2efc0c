#include "convert/output_budget.hpp"

#include <algorithm>
#include <cmath>

#include "util/units.hpp"

namespace el2fx::convert {
namespace {

// Bytes of JSON per item, measured on real logs' profiles (a marker's row in the marker table
// with its data object; a sample's row; a counter's sample; a track's fixed tables).
constexpr double kMarkerBytes = 85;
constexpr double kSampleBytes = 20;
constexpr double kCounterSampleBytes = 17;
constexpr double kTrackBytes = 1'500;
constexpr double kFoldedThreadBytes = 120;  // its name: a string, a function, a frame, stacks
constexpr double kFixedBytes = 50'000;      // meta, categories, schemas, Profile Info
constexpr double kCountersPerRun = 4;       // allocation, heap size, live bytes, blocks
constexpr std::uint64_t kCoarsestInterval = 1'000'000'000;

// Markers of one kind of span stream at `spans` detail: spans at least a resolution long keep
// their own; the rest merge into groups of at most a window each (span_detail.hpp), and a
// long span closes the group before it. `share`: the part of the spans on drawn tracks.
double stream_markers(const run::LengthHistogram& h, double share, double streams, double duration,
                      const SpanDetail& spans) {
    const double all = share * static_cast<double>(h.count());
    if (spans.resolution == 0) return all;
    const double kept = share * h.at_least(spans.resolution);
    const double window = static_cast<double>(std::max(spans.window, spans.resolution));
    const double groups = std::min(all - kept, kept + streams + streams * duration / window);
    return kept + groups;
}

// Instants merge like zero-length spans.
double instant_markers(double count, double streams, double duration, const SpanDetail& spans) {
    if (spans.resolution == 0) return count;
    const double window = static_cast<double>(std::max(spans.window, spans.resolution));
    return std::min(count, streams + streams * duration / window);
}

}  // namespace

std::uint64_t SizeEstimate::total() const {
    const double bytes = markers + samples + folded_names + rest;
    return bytes >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(bytes);
}

SizeEstimate estimate_profile_size(const run::DetailCensus& c, std::uint64_t duration_ns, const Detail& detail) {
    const double d = static_cast<double>(std::max<std::uint64_t>(duration_ns, 1));
    const double caps = static_cast<double>(std::max<std::uint64_t>(c.capabilities, 1));
    const std::size_t drawn_threads = std::min<std::size_t>(c.threads, detail.thread_tracks);
    const double threads = static_cast<double>(drawn_threads);
    const double share = c.run_share_of_busiest(drawn_threads);
    const SpanDetail& s = detail.spans;

    double markers = 0;
    markers += stream_markers(c.running, share, threads, d, s);      // "Running" on a thread's track
    markers += stream_markers(c.stopped, share, 2 * threads, d, s);  // why it stopped (a row per reason)
    markers += stream_markers(c.running, 1, caps, d, s);             // "Mutator" on a capability's
    markers += stream_markers(c.idle, 1, caps, d, s);                // "Idle"
    markers += stream_markers(c.gc, 1 + 2 / caps, caps + 2, d, s);   // a pause per capability, the collection
    markers += instant_markers(share * static_cast<double>(c.moments), 2 * threads, d, s);  // woken, migrated
    markers += instant_markers(static_cast<double>(c.other_events), 4 * (caps + 1), d, s);
    // Created, labelled: a marker each, on drawn threads only.
    markers +=
        static_cast<double>(c.thread_events) * threads / static_cast<double>(std::max<std::uint64_t>(c.threads, 1));
    markers += 2 * static_cast<double>(c.messages);  // each message keeps its marker (START/STOP: a span too)

    // Samples. A capability's track samples every tick. A thread's track samples while it
    // runs, plus an off-CPU sample group (about one per switch, when switches are sparser than
    // ticks): about two per run, at most one per tick per track, blended where the two meet
    // (measured on service-like logs). Folded threads sample on "other threads".
    const double interval = static_cast<double>(std::max<std::uint64_t>(detail.sampling_interval_ns, 1));
    const double running = static_cast<double>(c.running.total_ns());
    const double runs = static_cast<double>(c.running.count());
    const double by_switches = 2 * runs + running / interval;
    const double by_ticks = (threads + 1) * d / interval;
    const double samples = caps * d / interval + by_switches * by_ticks / (by_switches + by_ticks);

    const double counter_samples =
        kCountersPerRun * std::min(static_cast<double>(c.other_events), s.resolution == 0
                                                                            ? static_cast<double>(c.other_events)
                                                                            : d / static_cast<double>(s.resolution));

    SizeEstimate e;
    e.markers = kMarkerBytes * markers + static_cast<double>(c.message_bytes);
    e.samples = kSampleBytes * samples;
    if (detail.folded_names) e.folded_names = kFoldedThreadBytes * (static_cast<double>(c.threads) - threads);
    e.rest = kFixedBytes + kTrackBytes * (threads + caps + 1) + kCounterSampleBytes * counter_samples;
    return e;
}

DetailChoice choose_detail(const run::DetailCensus& census, std::uint64_t duration, const BudgetRequest& request) {
    DetailChoice choice;
    choice.max_bytes = request.max_bytes;
    choice.detail = request.wanted;
    choice.wanted_bytes = choice.estimated_bytes = estimate_profile_bytes(census, duration, request.wanted);
    if (request.max_bytes == 0 || choice.wanted_bytes <= request.max_bytes) return choice;

    auto fits = [&](const Detail& d) {
        choice.estimated_bytes = estimate_profile_bytes(census, duration, d);
        return choice.estimated_bytes <= request.max_bytes;
    };
    Detail d = request.wanted;
    choice.coarsened = true;
    const double max = static_cast<double>(request.max_bytes);
    auto done = [&] {
        choice.detail = d;
        return choice;
    };
    // 0. Folded threads' names, when there are so many that they alone take a quarter.
    if (estimate_profile_size(census, duration, d).folded_names > max / 4) {
        d.folded_names = false;
        if (fits(d)) return done();
    }
    // 1. The sampling interval, until samples take at most 40%.
    if (!request.interval_fixed) {
        const std::uint64_t coarsest = std::max(d.sampling_interval_ns, std::min(kCoarsestInterval, duration / 20));
        while (d.sampling_interval_ns < coarsest && estimate_profile_size(census, duration, d).samples > 0.4 * max) {
            d.sampling_interval_ns = std::min(d.sampling_interval_ns * 2, coarsest);
            if (fits(d)) return done();
        }
    }
    // 2. The marker resolution, up to a tenth of the run (a coarser one draws nothing useful).
    if (!request.resolution_fixed) {
        const std::uint64_t coarsest = std::max<std::uint64_t>(duration / 10, d.spans.resolution);
        std::uint64_t r = std::max<std::uint64_t>(d.spans.resolution, 1000);
        while (r < coarsest) {
            r = std::min(r * 2, coarsest);
            d.spans = span_detail_for(r);
            if (fits(d)) return done();
        }
    }
    // 3. The sampling interval again, up to a second or a twentieth of the run.
    if (!request.interval_fixed) {
        const std::uint64_t coarsest = std::max(d.sampling_interval_ns, std::min(kCoarsestInterval, duration / 20));
        while (d.sampling_interval_ns < coarsest) {
            d.sampling_interval_ns = std::min(d.sampling_interval_ns * 2, coarsest);
            if (fits(d)) return done();
        }
    }
    // 4. Thread tracks.
    if (!request.threads_fixed) {
        d.thread_tracks = std::min<std::size_t>(d.thread_tracks, census.threads);
        while (d.thread_tracks > 1) {
            d.thread_tracks /= 2;
            if (fits(d)) return done();
        }
    }
    choice.detail = d;
    choice.over_budget = true;
    return choice;
}

std::string describe_coarsening(const DetailChoice& choice, const Detail& wanted) {
    std::string text;
    auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
    const Detail& d = choice.detail;
    if (d.sampling_interval_ns != wanted.sampling_interval_ns)
        add("sampling every " + util::format_duration(d.sampling_interval_ns));
    if (d.spans.resolution != wanted.spans.resolution)
        add("spans shorter than " + util::format_duration(d.spans.resolution) + " merged");
    if (d.thread_tracks != wanted.thread_tracks) add(std::to_string(d.thread_tracks) + " thread tracks");
    if (d.folded_names != wanted.folded_names) add("folded threads without their names");
    return text;
}

std::string budget_summary(const DetailChoice& choice, const Detail& wanted) {
    if (choice.max_bytes == 0)
        return "none (--max-profile-size 0); estimated " + util::format_bytes(choice.wanted_bytes);
    std::string text = util::format_bytes(choice.max_bytes) + " of JSON; estimated " +
                       util::format_bytes(choice.wanted_bytes) + " at full detail";
    if (!choice.coarsened) return text + ": nothing coarsened";
    const std::string what = describe_coarsening(choice, wanted);
    text += ", so " + (what.empty() ? std::string("nothing could be coarsened") : what) + " (estimated " +
            util::format_bytes(choice.estimated_bytes) + ")";
    if (choice.over_budget)
        text += "; still over: the options given (--interval, --marker-resolution, --all-threads) fix the rest";
    return text;
}

}  // namespace el2fx::convert
