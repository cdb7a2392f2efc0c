// The program's own events: traceMarker (USER_MARKER), traceEvent (USER_MSG) and
// traceBinaryEvent (USER_BINARY_MSG), and the spans their messages announce.
//
// Marker names are the marker chart's rows: one per kind of event ("traceEvent",
// "traceMarker", "traceBinaryEvent", "START/STOP span", "GHC:started/finished span",
// "Unmatched span message"); the text is a field, shown as the label in the chart.
// - traceMarker: an instant "traceMarker" marker on the track of the Haskell thread
//   running on the emitting capability (running_thread), and on the process track, so
//   markers are found in one place by searching their text.
// - traceEvent: a "traceEvent" log marker on the emitting thread's track (off with
//   ConvertOptions::user_messages = false, `--no-user-messages`; spans stay).
// - "START x" / "STOP x" and "GHC:started: x" / "GHC:finished: x" messages: interval
//   markers labelled x, paired per Haskell thread (runtime::UserSpanPairer). A STOP with
//   nothing to stop and a START never stopped are instant warning markers, counted
//   as diagnostics. Spans come from messages only: GHC writes its withTiming edges
//   as messages always and as markers too with -ddump-timings, and pairing both would
//   show each span twice; marker texts stay markers.
// - traceBinaryEvent: a marker with the byte length and hex and text previews.
// Thread fields name the thread by the label it had at that moment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "convert/profile_contributor.hpp"
#include "analysis/runtime/user_spans.hpp"
#include "util/chunked_vector.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

class UserEventsContributor : public ProfileContributor {
public:
    UserEventsContributor(const ConvertOptions& options, Diagnostics& diagnostics);

    std::string_view name() const override { return "user events"; }
    void begin(ProfileContext& context) override { ctx_ = &context; }
    void handle(const eventlog::Event& event) override;
    pass::Interests interests() const override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    // The labels of threads the census forgot, as they were when they wrote (by id, then time):
    // the markers are named at the end, when those are gone (forgotten_labels.hpp).
    using ForgottenNames = std::unordered_map<eventlog::ThreadId, std::vector<std::pair<std::uint64_t, std::string>>>;
    std::span<const std::uint16_t> shown_tags() const override;

private:
    enum class Kind : std::uint8_t { message, marker, binary, span_edge };
    struct Record {
        std::uint64_t time = 0;
        std::optional<eventlog::CapNo> cap;
        std::optional<eventlog::ThreadId> running;  // the thread running on `cap` then
        Kind kind = Kind::message;
        runtime::SpanEdge edge = runtime::SpanEdge::open;
        runtime::SpanConvention convention = runtime::SpanConvention::start_stop;
        std::size_t offset = 0, length = 0;  // text (span edges: the name) in arena_
    };
    std::string_view text(const Record& r) const { return std::string_view(arena_).substr(r.offset, r.length); }
    void keep(std::uint64_t time, std::optional<eventlog::CapNo> cap, Kind kind, std::string_view bytes);

    bool user_messages_;
    Diagnostics& diagnostics_;
    std::string arena_;
    util::ChunkedVector<Record> records_;  // in blocks: a log may have 100,000s
    ProfileContext* ctx_ = nullptr;
    ForgottenNames forgotten_names_;
    std::uint64_t messages_ = 0, markers_ = 0, binary_ = 0;
    std::size_t span_closes_ = 0;  // span edges that close (records_)
};

}  // namespace el2fx::convert
