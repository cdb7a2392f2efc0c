// `eventlog2fxprof compare BEFORE AFTER` and `compare BEFORE… -- AFTER…`: the runs' figures
// side by side (compare::Comparison), as a table or (--json) JSON, with --fail-if gates for CI.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "compare/fail_if.hpp"

namespace el2fx::cli {

struct CompareCommand {
    std::vector<std::string> before, after;
    std::vector<compare::Gate> gates;
    bool json = false;
    bool strict = false;
    bool colour = false;  // the table's changes in colour (a terminal without NO_COLOR)
};

// Returns the exit code: kOk, kGateFailed when a gate failed, kDataLoss with --strict when an
// input lost data (before the gates), kUsageError when a gate names a figure the runs lack.
// Throws el2fx::Error on an unreadable input.
int run_compare(const CompareCommand& command, std::FILE* out, std::FILE* err);

}  // namespace el2fx::cli
