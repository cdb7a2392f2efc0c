// What the CLI tells the user about recoverable problems in an input.
#pragma once

#include <cstdio>
#include <string>

#include "eventlog/stream.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::cli {

// Writes one "warning: ..." line per problem to `err`. Returns true if any data was lost.
bool report_input_warnings(std::FILE* err, const std::string& input, const eventlog::StreamEnd& end,
                           const Diagnostics& diagnostics);

}  // namespace el2fx::cli
