// `eventlog2fxprof [convert] FILE`: writes a Firefox Profiler profile.
#pragma once

#include <cstdio>
#include <string>

#include "convert/convert_options.hpp"

namespace el2fx::cli {

struct ConvertCommand {
    std::string input;
    std::string output;  // empty: beside the input
    convert::ConvertOptions options;
    bool strict = false;
    bool quiet = false;
};

int run_convert(const ConvertCommand& command, std::FILE* out, std::FILE* err);

}  // namespace el2fx::cli
