// Typed events for the collectors' tests, without an eventlog file around them.
#pragma once

#include <cstdint>
#include <deque>
#include <initializer_list>
#include <optional>
#include <string>

#include "eventlog/event.hpp"
#include "eventlog/field_io.hpp"

namespace el2fx::testing {

// Keeps the bytes that the events' string views point at.
class EventMaker {
public:
    template <typename T>
    eventlog::Event make(std::uint64_t time, T payload, std::optional<eventlog::CapNo> cap = std::nullopt) {
        eventlog::Event e;
        e.time = time;
        e.tag = T::tag;
        e.cap = cap;
        e.payload = std::move(payload);
        return e;
    }
    std::string_view text(std::string s) { return store_.emplace_back(std::move(s)); }
    // A cost-centre stack as the wire has it: innermost first.
    eventlog::CostCentreStack stack(std::initializer_list<std::uint32_t> innermost_first) {
        std::string bytes;
        for (std::uint32_t id : innermost_first) eventlog::field_io::put_int(bytes, id);
        return eventlog::CostCentreStack{text(std::move(bytes))};
    }
    eventlog::Event cost_centre(std::uint32_t id, std::string label, std::string module, std::string srcloc,
                                bool caf = false) {
        return make(0, eventlog::HeapProfCostCentre{id,
                                                    {text(std::move(label))},
                                                    {text(std::move(module))},
                                                    {text(std::move(srcloc))},
                                                    static_cast<std::uint8_t>(caf)});
    }

private:
    std::deque<std::string> store_;
};

}  // namespace el2fx::testing
