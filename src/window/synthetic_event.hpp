// An event the window states itself (not read from the log): stamped, on a capability or
// none, and marked Event::synthetic.
#pragma once

#include <cstdint>
#include <optional>

#include "eventlog/event.hpp"

namespace el2fx::window {

template <typename P>
eventlog::Event synthetic(std::uint64_t time, std::optional<eventlog::CapNo> cap, P payload) {
    eventlog::Event e;
    e.time = time;
    e.cap = cap;
    e.tag = P::tag;
    e.payload = std::move(payload);
    e.synthetic = true;
    return e;
}

}  // namespace el2fx::window
