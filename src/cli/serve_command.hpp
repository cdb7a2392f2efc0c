// `eventlog2fxprof serve PROFILE.json.gz…` (and `convert --open`): serves profiles on
// loopback under a secret path and prints the Firefox Profiler link that loads them, as
// `samply load` does; opens it when a desktop browser is there. Serves until Ctrl-C.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <cxxopts.hpp>

#include "serve/server.hpp"

namespace el2fx::cli {

struct ServeCommand {
    std::vector<std::string> files;
    serve::ServerOptions server;
    std::string profiler_origin = "https://profiler.firefox.com";
    bool browser = true;  // open the link with xdg-open when DISPLAY or WAYLAND_DISPLAY is set
};

// The options `serve` and `convert --open` share: --port, --address, --no-browser,
// --profiler-url.
void add_serve_options(cxxopts::Options& options);
// Reads them (throws el2fx::Error for a bad value).
void read_serve_options(const cxxopts::ParseResult& args, ServeCommand& command);

// Prints the links to `out`, one line per request to `err`; returns the exit code (0 after
// SIGINT or SIGTERM). Throws el2fx::Error when a file is missing or no port can be had.
int run_serve(const ServeCommand& command, std::FILE* out, std::FILE* err);

}  // namespace el2fx::cli
