// A plain-text listing of the threading spans, one line per span, for golden
// tests and `dump --spans`:
//
//   cap 0: 1000-2000: gc
//   cap 0: 2000-2500: mutator thread 3
//   cap 0: 2500-4000: idle
//   thread 3: 2000-2500: running on cap 0
//   thread 3: 2500-4000: blocked on an MVar
//
// Capabilities by number, then threads by id; each one's spans by start time.
#pragma once

#include <string>

#include "analysis/threading/threading_result.hpp"

namespace el2fx::analysis {

void write_spans_text(std::string& out, const ThreadingResult& result);

}  // namespace el2fx::analysis
