// A decoded event made by hand, for feeding analyses without writing an eventlog.
#pragma once

#include <cstdint>
#include <optional>

#include "eventlog/event.hpp"

namespace el2fx::testing {

template <typename Payload>
eventlog::Event make_event(std::uint64_t time, std::optional<eventlog::CapNo> cap, Payload payload) {
    eventlog::Event e;
    e.time = time;
    e.cap = cap;
    e.tag = Payload::tag;
    e.payload = payload;
    return e;
}

}  // namespace el2fx::testing
