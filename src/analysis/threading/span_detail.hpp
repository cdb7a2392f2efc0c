// Level of detail for span markers. A long eventlog holds millions of short spans (a minor GC
// every millisecond on every capability); one marker each makes a profile the profiler cannot
// draw and a file larger than the eventlog. Spans shorter than the marker resolution are below
// what the profile's samples resolve anyway, so runs of them become one "merged" marker per
// stream (a track's spans of one kind), while every span at least that long keeps its own.
//
//   offer(span)  long (>= resolution)   → the pending group is flushed, then the span itself
//                short, group empty      → starts the group
//                short, fits the window  → joins the group (group end - group start <= window)
//                short, does not fit     → the group is flushed, the span starts a new one
//   finish()                             → the pending group is flushed
//   flush: a group of one span is emitted as that span (nothing was merged); a larger group
//          as one merged span covering it, with the count, total and longest duration.
//
// So a stream of duration D gives at most 2·D/resolution + D/window + 1 markers, whatever
// the number of spans. Instants are spans of length 0. Resolution 0 keeps every span.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace el2fx::analysis {

struct MergedSpans {
    std::uint64_t start = 0, end = 0;  // the first span's start, the latest end
    std::uint64_t count = 0;           // spans merged
    std::uint64_t total = 0;           // sum of their durations
    std::uint64_t longest = 0;
    bool operator==(const MergedSpans&) const = default;
};

struct SpanDetail {
    std::uint64_t resolution = 0;  // spans at least this long keep their own marker; 0: all do
    std::uint64_t window = 0;      // a merged marker covers at most this much time
    bool operator==(const SpanDetail&) const = default;
};

// The default detail for a log of `duration` ns: the sampling interval, coarser for long logs
// so that a stream never needs more than ~kMaxStreamMarkers markers; windows of ten resolutions.
inline constexpr std::uint64_t kMaxStreamMarkers = 100'000;
inline SpanDetail default_span_detail(std::uint64_t duration, std::uint64_t sampling_interval) {
    std::uint64_t resolution = std::max<std::uint64_t>(sampling_interval, duration / kMaxStreamMarkers);
    return {resolution, resolution * 10};
}
// An explicit resolution (--marker-resolution): windows of ten resolutions; 0 keeps every span.
inline SpanDetail span_detail_for(std::uint64_t resolution) { return {resolution, resolution * 10}; }

// What a group remembers of its spans' payloads besides the figures: nothing by default. A
// tally (add(payload, duration), reset()) is handed to the sink with the group, e.g. to name
// it by the payload that took most of its time.
struct NoTally {
    template <typename Payload>
    void add(const Payload&, std::uint64_t) {}
    void reset() {}
};

// Sink: void span(std::uint64_t start, std::uint64_t end, const Payload&) for a span kept as it
// is, void merged(const MergedSpans&) for a group (merged(const MergedSpans&, const Tally&) with
// a tally). Spans must come in start-time order.
template <typename Payload, typename Tally = NoTally>
class SpanDetailFilter {
public:
    explicit SpanDetailFilter(SpanDetail detail) : detail_(detail) {}

    // offer()'s common case, inline: a short span that fits the pending group joins it here
    // (true); otherwise nothing happened, and the span must be offer()ed.
    bool join_if_fits(std::uint64_t start, std::uint64_t end, const Payload& payload) {
        end = std::max(end, start);
        const std::uint64_t length = end - start;  // a resolution of 0 makes every span long
        if (length < detail_.resolution && group_.count > 0 &&
            std::max(group_.end, end) - group_.start <= detail_.window) {
            join(end, length, payload);
            return true;
        }
        return false;
    }

    template <typename Sink>
    void offer(std::uint64_t start, std::uint64_t end, const Payload& payload, Sink& sink) {
        if (!join_if_fits(start, end, payload)) offer_otherwise(start, std::max(end, start), payload, sink);
    }

    template <typename Sink>
    void finish(Sink& sink) {
        flush(sink);
    }

private:
    // The other transitions of offer() (end >= start): out of line, as they come once per group at most.
    template <typename Sink>
    [[gnu::noinline]] void offer_otherwise(std::uint64_t start, std::uint64_t end, const Payload& payload, Sink& sink) {
        const std::uint64_t length = end - start;
        if (length >= detail_.resolution) {
            flush(sink);
            sink.span(start, end, payload);
            return;
        }
        flush(sink);  // a group it does not fit (or none)
        group_ = MergedSpans{start, end, 0, 0, 0};
        first_.emplace(payload);
        join(end, length, payload);
    }
    void join(std::uint64_t end, std::uint64_t length, const Payload& payload) {
        group_.end = std::max(group_.end, end);
        group_.count += 1;
        group_.total += length;
        group_.longest = std::max(group_.longest, length);
        tally_.add(payload, length);
    }

    template <typename Sink>
    void flush(Sink& sink) {
        if (group_.count == 1) {
            sink.span(group_.start, group_.end, *first_);
        } else if (group_.count > 1) {
            if constexpr (std::is_same_v<Tally, NoTally>) {
                sink.merged(group_);
            } else {
                sink.merged(group_, tally_);
            }
        }
        group_ = MergedSpans{};
        first_.reset();
        tally_.reset();
    }

    SpanDetail detail_;
    MergedSpans group_{};
    std::optional<Payload> first_;
    Tally tally_{};
};

}  // namespace el2fx::analysis
