// A decoded event kept past the next one: its text fields point into the decoder's
// buffer, so keeping it copies them into storage of its own.
#pragma once

#include <memory>
#include <string>

#include "eventlog/event.hpp"

namespace el2fx::window {

class OwnedEvent {
public:
    explicit OwnedEvent(const eventlog::Event& event);
    OwnedEvent(OwnedEvent&&) noexcept = default;
    OwnedEvent& operator=(OwnedEvent&&) noexcept = default;

    const eventlog::Event& event() const { return event_; }
    eventlog::Event& event() { return event_; }

private:
    eventlog::Event event_;
    std::unique_ptr<std::string> bytes_;  // every text field, one after another (a stable address)
};

}  // namespace el2fx::window
