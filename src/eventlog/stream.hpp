// Reads a whole input through the push decoder, in file order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/byte_source.hpp"
#include "eventlog/lost_data.hpp"
#include "eventlog/push_decoder.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

struct StreamEnd {
    std::uint64_t bytes = 0;                    // bytes read
    std::optional<std::uint64_t> truncated_at;  // where the data stopped, for a truncated log
    bool truncated_mid_event = false;
    std::vector<LostData> lost;                      // corrupt stretches skipped (PushDecoder::lost)
    std::optional<std::uint64_t> first_bad_time_at;  // the first event whose timestamp was out of range
};

// Throws el2fx::Error, with the input's name, on an unreadable or corrupt input.
StreamEnd decode_stream(InputFile& input, EventSink& sink, Diagnostics& diagnostics);

}  // namespace el2fx::eventlog
