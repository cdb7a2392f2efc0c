#pragma once

#include <cstddef>
#include <cstdint>

// The whole product on arbitrary bytes. Any crash, hang, sanitizer report or exception
// other than el2fx::Error is a bug; so is a profile the validator rejects or summary JSON
// that does not parse (both abort with the problem on standard error).

// The conversion (census, analyses, contributors, profile builder) and the JSON writer
// into memory, through gzip; options vary with the input. Inputs over 1 MiB are skipped.
// The planned pass must give the profile (or the refusal) the naive pass gives.
int fuzz_convert(const std::uint8_t* data, std::size_t size);

// `eventlog2fxprof summary` (the +RTS -s recomputation), text or --json, into memory.
int fuzz_summary(const std::uint8_t* data, std::size_t size);
