// What a reader of events in time order may pass over without decoding it, and what it tells
// of what it passed over: a window's prelude (src/window) wants few types of the events before
// the window's start, and decoding is most of what reading them costs.
#pragma once

#include <bitset>
#include <cstdint>
#include <vector>

namespace el2fx::eventlog {

using TagSet = std::bitset<1u << 16>;

struct SkipBefore {
    std::uint64_t before = 0;        // records stamped before this…
    const TagSet* wanted = nullptr;  // …of a type not here are passed over
    std::uint64_t last_time = 0;     // the latest time passed over
    std::vector<bool> caps;          // the capabilities of the records passed over
};

}  // namespace el2fx::eventlog
