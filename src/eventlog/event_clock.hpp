// How many events a pass handed on, and the earliest and latest of their times: what an
// analysis that needs only these of most events (the `+RTS -s` summary's clock) can take at
// the end instead of seeing every event.
#pragma once

#include <algorithm>
#include <cstdint>

namespace el2fx::eventlog {

struct EventClock {
    std::uint64_t events = 0;
    std::uint64_t first_time = 0;  // the earliest (0 without events)
    std::uint64_t last_time = 0;   // the latest

    void add(std::uint64_t time) {
        first_time = events++ == 0 ? time : std::min(first_time, time);
        last_time = std::max(last_time, time);
    }
};

}  // namespace el2fx::eventlog
