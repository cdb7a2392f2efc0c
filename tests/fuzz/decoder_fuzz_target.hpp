#pragma once

#include <cstddef>
#include <cstdint>

// Runs every decoding path on arbitrary bytes: the push decoder fed in uneven
// chunks, the ghc-events printer on every event, and the time-ordered reader.
// Any crash, hang, sanitizer report or exception other than el2fx::Error is a bug.
int fuzz_decoder(const std::uint8_t* data, std::size_t size);
