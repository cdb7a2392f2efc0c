// The state machine of a window's prelude: it takes the events before the window's start
// (in time order) and keeps only what the window needs to start in a consistent state, then
// states it as events stamped at the start, for analyses that begin there:
//
//   definitions   RTS identifier, program arguments and environment, pid, wall clock,
//                 heap set-up, capsets and capabilities, tasks, profiling set-up, cost
//                 centres, info tables, ticky counters: the latest of each kind (or every
//                 one still defined: a deleted task, capability or capset is forgotten),
//                 restamped (the wall clock moved by the same amount, so it still names
//                 the same instant);
//   capabilities  a BLOCK_MARKER each, so each one lives from the start;
//   collection    the one under way, cut at the start (collection_at_start.hpp);
//   heap levels   the last HEAP_SIZE, HEAP_LIVE and BLOCKS_SIZE;
//   threads       the last label of each thread not finished; a synthetic STOP_THREAD
//                 (Event::synthetic, same status and blocker) for each one stopped, on the
//                 capability it stopped on (or was migrated to); a RUN_THREAD for each one
//                 running, on its capability, last.
//
// Cumulative counters are not restated: their values before the start are baselines
// (Baselines) that the window subtracts from the values inside it.
//
// Memory grows with definitions and live threads, never with events.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "eventlog/event.hpp"
#include "eventlog/skip_before.hpp"
#include "window/collection_at_start.hpp"
#include "window/owned_event.hpp"

namespace el2fx::window {

// The cumulative counters' values at the window's start, per capability.
struct Baselines {
    std::vector<std::uint64_t> allocated;                          // HEAP_ALLOCATED
    std::vector<std::optional<eventlog::SparkCounters>> sparks;  // SPARK_COUNTERS ("remaining" is a level)

    // The value inside the window: since its start.
    std::uint64_t allocated_since(eventlog::CapNo cap, std::uint64_t total) const;
    eventlog::SparkCounters sparks_since(eventlog::CapNo cap, const eventlog::SparkCounters& total) const;
};

class WindowPrelude {
public:
    WindowPrelude() = default;
    // A prelude that took its events in an earlier pass: what the window needs inside.
    WindowPrelude(CollectionAtStart collection, Baselines baselines)
        : baselines_(std::move(baselines)), gc_(std::move(collection)) {}

    // One event before the window's start; events come in time order.
    void handle(const eventlog::Event& event);

    // The state at `from`, as events stamped `from` in the order above (each valid while
    // this prelude lives and takes no more events). Called once, when the window starts.
    std::vector<eventlog::Event> state_at(std::uint64_t from);

    // Inside the window: false for the events of a collection that is not the window's.
    bool passes(const eventlog::Event& event) { return gc_.passes(event); }

    const Baselines& baselines() const { return baselines_; }
    const CollectionAtStart& collection() const { return gc_; }

    // The types handle() looks at (with traceMarker and traceEvent messages: those a
    // --from-marker looks for too); of the others it only needs the capability.
    static const eventlog::TagSet& wanted(bool with_messages);
    // An event of another type was on this capability.
    void saw_capability(eventlog::CapNo cap) { capability(cap); }

private:
    struct ThreadState {
        enum class Phase : std::uint8_t { unknown, running, stopped } phase = Phase::unknown;
        eventlog::CapNo cap = 0;
        std::uint16_t status = 0;
        std::optional<eventlog::ThreadId> blocker;
        std::optional<OwnedEvent> label;
    };
    struct CapabilityState {
        bool seen = false;
        std::optional<eventlog::ThreadId> running;
    };

    CapabilityState& capability(eventlog::CapNo cap);
    void define(const eventlog::Event& event);
    void forget(const eventlog::Event& event);

    std::map<eventlog::ThreadId, ThreadState> threads_;  // not finished; ordered: a stable output
    std::vector<CapabilityState> capabilities_;
    std::vector<OwnedEvent> latest_;       // one per kind (RTS identifier, arguments, …)
    std::vector<OwnedEvent> definitions_;  // every one still defined, in order
    std::vector<OwnedEvent> levels_;       // the last HEAP_SIZE, HEAP_LIVE, BLOCKS_SIZE
    Baselines baselines_;
    CollectionAtStart gc_;
};

}  // namespace el2fx::window
