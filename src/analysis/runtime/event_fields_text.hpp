// Any event's payload as "field=value" text, driven by the event table's field lists,
// for events shown without a schema of their own (Eden, Mercury, perf, the oldest GHCs):
// "machine=2, realtime=1234". Text is sanitized UTF-8 (long text shortened), byte
// strings are shown by length, absent optional fields are left out.
#pragma once

#include <string>

#include "eventlog/event_types.hpp"

namespace el2fx::runtime {

std::string event_fields_text(const eventlog::Payload& payload);

// The GHC name of an event type in the table ("SPARK_STEAL"), or empty for a tag the
// table does not know.
std::string_view event_type_name(std::uint16_t tag);

}  // namespace el2fx::runtime
