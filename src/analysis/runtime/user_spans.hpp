// Paired user spans: `traceEvent "START x"` … `traceEvent "STOP x"` (ghc-events-analyze's
// convention) and GHC's own `GHC:started: x` … `GHC:finished: x` (withTiming) become one
// span named x. Pairing is per owner (the caller passes the Haskell thread that emitted
// the message): a close ends the most recent open span of the same name and convention
// on the same owner, so spans nest and may overlap; the same name open on two threads
// at once gives two spans. A close with nothing to end, and an open still open at the
// end, are reported as unmatched edges, never dropped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace el2fx::runtime {

enum class SpanConvention : std::uint8_t {
    start_stop,  // "START x" / "STOP x"
    ghc_timing,  // "GHC:started: x" / "GHC:finished: x"
};
enum class SpanEdge : std::uint8_t { open, close };

struct SpanMessage {
    SpanEdge edge;
    SpanConvention convention;
    std::string_view name;  // points into the parsed text
};

// The span edge a message announces, or nullopt for an ordinary message (including
// "START " with no name). The name is everything after the prefix, as written.
std::optional<SpanMessage> parse_span_message(std::string_view text);

// "START/STOP" or "GHC:started/GHC:finished".
std::string_view convention_text(SpanConvention convention);

using SpanOwner = std::uint64_t;

struct PairedSpan {
    SpanOwner owner = 0;
    std::string name;
    SpanConvention convention = SpanConvention::start_stop;
    std::uint64_t start = 0, end = 0;
    std::uint32_t depth = 0;  // spans of the owner open when it opened (0: outermost)
};

struct UnmatchedEdge {
    SpanOwner owner = 0;
    std::string name;
    SpanConvention convention = SpanConvention::start_stop;
    SpanEdge edge = SpanEdge::open;  // open: never closed; close: nothing to close
    std::uint64_t time = 0;
    std::uint32_t depth = 0;
};

class UserSpanPairer {
public:
    // Room for `spans` paired spans (a caller that knows how many closes will come).
    void reserve(std::size_t spans) { spans_.reserve(spans); }
    void open(SpanOwner owner, std::uint64_t time, SpanConvention convention, std::string_view name);
    void close(SpanOwner owner, std::uint64_t time, SpanConvention convention, std::string_view name);
    void edge(SpanOwner owner, std::uint64_t time, const SpanMessage& message);
    // Every span still open becomes an unmatched open edge (owners in first-open order,
    // spans in the order they opened). The pairer is empty afterwards.
    void finish();

    // Spans in the order they closed.
    const std::vector<PairedSpan>& spans() const { return spans_; }
    // Unmatched closes as they came, then (after finish) the opens never closed.
    const std::vector<UnmatchedEdge>& unmatched() const { return unmatched_; }
    std::size_t open_count() const;

private:
    struct Open {
        std::string name;
        SpanConvention convention;
        std::uint64_t start;
        std::uint32_t depth;
    };
    std::vector<Open>& stack(SpanOwner owner);

    std::unordered_map<SpanOwner, std::size_t> owner_index_;
    std::vector<std::pair<SpanOwner, std::vector<Open>>> open_;  // per owner, in open order
    std::vector<PairedSpan> spans_;
    std::vector<UnmatchedEdge> unmatched_;
};

}  // namespace el2fx::runtime
