// Work that EventPrefetcher's worker does beside the merge, on the events of the tags it wants,
// in time order: in a conversion's second pass the consumer is the busier core, and an
// analysis that needs only those events (not the profile) can run on the other. What the stage finds travels with the
// events in their batch (StageOutput); the consumer takes it event by event, at the point where
// it would have done the work itself, so nothing downstream sees a different order.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "eventlog/event.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

// What two threads write gets cache lines of its own: two lines, as Intel fetches lines in
// pairs. False sharing between neighbours written by the two threads costs more than the work
// moved between them saves.
constexpr std::size_t kSeparateCacheLines = 128;

// One batch's share of a stage's output. Filled on the worker, read on the consumer once the
// batch is handed over; cleared (on the worker) before the batch is filled again. Aligned: the
// worker fills one batch's output while the consumer reads (and writes its place in) another's,
// and outputs made one after the other would share cache lines.
class alignas(kSeparateCacheLines) StageOutput {
public:
    virtual ~StageOutput() = default;
    virtual void clear() = 0;
};

// Aligned too: a stage's state, written on the worker, must not share a line with the
// consumer's objects beside it (on the stack, as a rule).
class alignas(kSeparateCacheLines) WorkerStage {
public:
    using Tags = std::bitset<1 << 16>;

    virtual ~WorkerStage() = default;
    // An empty output for one of the prefetcher's batches.
    virtual std::unique_ptr<StageOutput> make_output() const = 0;
    // The tags of the events the stage handles (decoded on the worker).
    virtual const Tags& wanted_tags() const = 0;
    // Capabilities whose every event the stage handles, whatever its tag: by number, non-zero
    // for those, and every capability past the end (one not seen yet). None: only its tags.
    // One object for the stage's life (the stage changes it as it goes, on the worker).
    virtual const std::vector<std::uint8_t>* watched_caps() const { return nullptr; }
    // Each event it wants, in time order, on the worker. `index` is the event's place in its
    // batch; `latest` the latest time of any event so far, this one's included; what the
    // stage outputs for it goes to `out`.
    virtual void handle(const Event& event, std::size_t index, std::uint64_t latest, StageOutput& out) = 0;
    // After the last event (never after the reader's error): `index` is the number of events
    // in the last batch, `latest` the latest time of all.
    virtual void end(std::size_t index, std::uint64_t latest, StageOutput& out) = 0;
    // Where it counts, one object for its life (read on the worker after each call): the
    // consumer counts what it holds with the event that caused it, or at the end.
    virtual const Diagnostics& counted() const = 0;
};

// Whether `watched` (WorkerStage::watched_caps) takes every event of `cap`.
inline bool watched_cap(const std::vector<std::uint8_t>& watched, CapNo cap) {
    return cap >= watched.size() || watched[cap] != 0;
}

}  // namespace el2fx::eventlog
