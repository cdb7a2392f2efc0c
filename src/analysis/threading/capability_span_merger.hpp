// A capability's spans as the markers of its track keep them: its mutator spans and its idle
// spans are two streams, each merged below the marker resolution (span_detail.hpp); GC spans
// are the GC markers' and pass untouched. The markers (convert/threading_markers.hpp) run it
// on the spans they are handed: at a coarse resolution, a few markers for millions of spans.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/threading/activity.hpp"
#include "analysis/threading/capability_usage_analysis.hpp"
#include "analysis/threading/span_detail.hpp"

namespace el2fx::analysis {

// What a stream hands on: a span kept as it is (merged.count 0: [merged.start, merged.end],
// with its thread if a mutator's), or a group of merged.count spans.
struct KeptCapabilitySpan {
    CapabilityState state = CapabilityState::idle;  // mutator or idle
    eventlog::ThreadId thread = 0;                  // a mutator span kept as it is
    MergedSpans merged;
    bool kept_as_is() const { return merged.count == 0; }
    bool operator==(const KeptCapabilitySpan&) const = default;
};

class CapabilitySpanMerger {
public:
    explicit CapabilitySpanMerger(SpanDetail detail) : detail_(detail) {}

    // Out: void(eventlog::CapNo, const KeptCapabilitySpan&), for what the span's stream hands
    // on (nothing, one or two). A capability's spans come in time order.
    template <typename Out>
    void offer(eventlog::CapNo cap, const CapabilitySpan& span, Out&& out) {
        switch (span.activity.state) {
            case CapabilityState::mutator: {
                Sink<Out, CapabilityState::mutator> sink{cap, out};
                streams(cap).mutators.offer(span.start, span.end, span.activity.thread, sink);
                return;
            }
            case CapabilityState::idle: {
                Sink<Out, CapabilityState::idle> sink{cap, out};
                streams(cap).idles.offer(span.start, span.end, Idle{}, sink);
                return;
            }
            case CapabilityState::gc: return;
        }
    }
    // After the last span: the groups still pending, capability by capability in ascending
    // order, its mutators' before its idles'.
    template <typename Out>
    void finish(Out&& out) {
        for (std::size_t cap = 0; cap < caps_.size(); ++cap) {
            if (!caps_[cap]) continue;
            const auto c = static_cast<eventlog::CapNo>(cap);
            Sink<Out, CapabilityState::mutator> mutators{c, out};
            caps_[cap]->mutators.finish(mutators);
            Sink<Out, CapabilityState::idle> idles{c, out};
            caps_[cap]->idles.finish(idles);
        }
    }

private:
    struct Idle {};
    struct Streams {
        SpanDetailFilter<eventlog::ThreadId> mutators;
        SpanDetailFilter<Idle> idles;
    };
    // A filter's sink (span_detail.hpp) that hands on to `out`.
    template <typename Out, CapabilityState State>
    struct Sink {
        eventlog::CapNo cap;
        Out& out;
        template <typename Payload>
        void span(std::uint64_t start, std::uint64_t end, const Payload& payload) {
            KeptCapabilitySpan k{State, 0, MergedSpans{start, end, 0, 0, 0}};
            if constexpr (State == CapabilityState::mutator) k.thread = payload;
            out(cap, k);
        }
        void merged(const MergedSpans& group) { out(cap, KeptCapabilitySpan{State, 0, group}); }
    };
    Streams& streams(eventlog::CapNo cap) {
        if (cap >= caps_.size()) caps_.resize(std::size_t{cap} + 1);
        if (!caps_[cap]) caps_[cap].emplace(Streams{SpanDetailFilter<eventlog::ThreadId>(detail_),
                                                    SpanDetailFilter<Idle>(detail_)});
        return *caps_[cap];
    }

    SpanDetail detail_;
    std::vector<std::optional<Streams>> caps_;  // by capability number
};

}  // namespace el2fx::analysis
