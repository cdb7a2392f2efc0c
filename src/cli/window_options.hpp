// --from, --to, --from-marker, --to-marker: one window of a log (src/window), for convert
// and summary.
#pragma once

#include <cxxopts.hpp>

#include "window/window_spec.hpp"

namespace el2fx::cli {

void add_window_options(cxxopts::Options& options);
// Throws cxxopts' exception (a usage error, exit status 2) for a bad time or --from at or
// after --to.
window::WindowSpec read_window_options(const cxxopts::ParseResult& args);

}  // namespace el2fx::cli
