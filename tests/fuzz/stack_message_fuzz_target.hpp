#pragma once

#include <cstddef>
#include <cstdint>

// ghc-stack-profiler's message decoder and sample assembler on arbitrary bytes: the input is a
// sequence of messages, each a 1-byte selector (which layout the log is told to be, and whether
// to end the log here) and a 2-byte big-endian length, then its payload. Every message is also
// decoded under each layout and its entries read to the end. Any crash, hang, sanitizer report
// or exception is a bug; the assembler's counts must add up.
int fuzz_stack_messages(const std::uint8_t* data, std::size_t size);
