#pragma once

#include <cstdint>
#include <optional>

#include "eventlog/event_types.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

// Where an analysis found the eventlog odd: shown as an instant marker.
struct DiagnosticMoment {
    std::uint64_t time = 0;
    std::optional<eventlog::CapNo> cap;
    Diagnostic diagnostic = Diagnostic::count_;
    std::uint16_t tag = 0;  // the event that caused it
};

}  // namespace el2fx::convert
