// The non-moving collector's concurrent phases (GHC >= 8.10, `+RTS -xn`): CONC_MARK, CONC_SYNC
// and CONC_SWEEP begin/end pairs become intervals; the heap census, pruned segments and
// remembered-set flushes are moments. These events come from the global buffer (no capability)
// except the flush, which names its capability.
//
// GHC 9.0 posts CONC_SYNC_BEGIN twice before its two CONC_SYNC_END: a phase is open from the
// first begin until the end that balances them, and counts how many begins it absorbed.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/event.hpp"

namespace el2fx::gc {

enum class ConcurrentPhase : std::uint8_t { mark, sync, sweep };

struct ConcurrentPhaseSpan {
    ConcurrentPhase phase = ConcurrentPhase::mark;
    std::uint64_t start = 0;
    std::optional<std::uint64_t> end;             // none: still open when the log ended
    std::uint32_t begins = 1;                     // begin events folded into this span
    std::optional<std::uint64_t> marked_objects;  // CONC_MARK_END's count (summed if several)
};

struct NonmovingCensus {
    std::uint64_t time = 0;
    std::uint32_t block_size = 0;  // bytes
    std::uint32_t active_segments = 0, filled_segments = 0, live_blocks = 0;
};

struct NonmovingPruned {
    std::uint64_t time = 0;
    std::uint32_t pruned_segments = 0, free_segments = 0;
};

struct RemSetFlush {
    std::uint64_t time = 0;
    eventlog::CapNo cap = 0;
};

// What one event gave; at most one member is set.
struct NonmovingRecord {
    std::optional<ConcurrentPhaseSpan> phase;
    std::optional<NonmovingCensus> census;
    std::optional<NonmovingPruned> pruned;
    std::optional<RemSetFlush> flush;
    bool empty() const { return !phase && !census && !pruned && !flush; }
};

class NonmovingTracker {
public:
    // Whether handle() can return anything for an event of this type (few do: callers skip
    // the others instead of building an empty record for each).
    static bool concerns(std::uint16_t tag);
    // Returns what the event completes (an empty record for most events).
    NonmovingRecord handle(const eventlog::Event& event);
    // Phases still open at the end of the log.
    std::vector<ConcurrentPhaseSpan> finish();

    NonmovingRecord begin(ConcurrentPhase phase, std::uint64_t time);
    NonmovingRecord end(ConcurrentPhase phase, std::uint64_t time, std::optional<std::uint32_t> marked = std::nullopt);
    // Ends without a begin (the log started mid-phase), ignored.
    std::uint64_t unmatched_ends() const { return unmatched_ends_; }

private:
    struct OpenPhase {
        std::uint32_t depth = 0;
        ConcurrentPhaseSpan span;
    };
    OpenPhase open_[3];
    std::uint64_t unmatched_ends_ = 0;
};

}  // namespace el2fx::gc
