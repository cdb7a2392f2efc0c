// What the first pass over a window learnt at its start, so that a later pass over the same
// events can begin there: the reader skips what comes before (the blocks wholly before it are
// not read again) and the window states the same state at the start without a prelude.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/time_ordered_reader.hpp"
#include "window/collection_at_start.hpp"
#include "window/owned_event.hpp"
#include "window/window_prelude.hpp"

namespace el2fx::window {

struct WindowStart {
    std::uint64_t from = 0;                 // the window's start
    eventlog::OrderKey first;               // the first event read inside it: the reader resumes there
    std::optional<std::uint64_t> to;        // its end, if the first pass found it
    std::vector<OwnedEvent> stated;         // the events stated at the start, in order
    CollectionAtStart collection;           // the cut collection, as inside events find it
    Baselines baselines;                    // cumulative counters at the start
};

}  // namespace el2fx::window
