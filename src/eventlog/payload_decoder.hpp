// Turns one event's payload bytes into its typed struct, by tag.
#pragma once

#include <cstddef>
#include <cstdint>

#include "eventlog/event_types.hpp"

namespace el2fx::eventlog {

// Bytes are viewed, not copied: the payload is valid while `data` is.
// An unknown tag gives UnknownEvent; a payload too short for the known layout
// gives UnknownEvent with too_short set. Extra trailing bytes are ignored.
Payload decode_payload(std::uint16_t tag, const std::uint8_t* data, std::size_t size);
// The same, into an existing payload (the decoder's hot path: no copy).
void decode_payload_into(std::uint16_t tag, const std::uint8_t* data, std::size_t size, Payload& out);

// True when this table has a layout for the tag.
bool is_known_tag(std::uint16_t tag);

// The GHC name of a tag ("STOP_THREAD"), or empty when unknown.
std::string_view tag_name(std::uint16_t tag);

}  // namespace el2fx::eventlog
