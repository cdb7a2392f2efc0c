// A decoded event made by hand, for feeding analyses without writing an eventlog.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "eventlog/event.hpp"
#include "eventlog/field_io.hpp"
#include "eventlog/worker_part.hpp"

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

// A decoded event's payload written back in the event table's layout, as the prefetcher's
// worker gives a WorkerPart the event (view(): valid while this lives).
class FramedEvent {
public:
    explicit FramedEvent(const eventlog::Event& e) : time_(e.time), tag_(e.tag), cap_(e.cap) {
        std::visit(
            [&](const auto& payload) {
                if constexpr (requires { payload.fields(); }) eventlog::field_io::write_fields(bytes_, payload);
            },
            e.payload);
    }
    eventlog::WorkerEvent view() const {
        return {time_, tag_, cap_, reinterpret_cast<const std::uint8_t*>(bytes_.data()), bytes_.size()};
    }

private:
    std::uint64_t time_;
    std::uint16_t tag_;
    std::optional<eventlog::CapNo> cap_;
    std::string bytes_;
};

}  // namespace el2fx::testing
