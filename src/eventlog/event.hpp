// A decoded event: when, where, and its typed payload.
#pragma once

#include <cstdint>
#include <optional>

#include "eventlog/event_types.hpp"

namespace el2fx::eventlog {

struct Event {
    std::uint64_t time = 0;    // ns since the RTS started
    std::uint64_t offset = 0;  // byte offset of the record in the input
    std::uint32_t size = 0;    // bytes of the whole record: tag, time, length, payload
    std::uint16_t tag = 0;
    std::optional<CapNo> cap;  // the block's capability; none in the global block
    Payload payload;
    // Made by a stage, not read from the input: src/window states what was true at a window's
    // start with events stamped there (a thread already stopped, a definition given before).
    bool synthetic = false;

    template <typename T>
    const T* as() const {
        return std::get_if<T>(&payload);
    }
};

}  // namespace el2fx::eventlog
