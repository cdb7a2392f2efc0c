#include "cli/compare_options.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cxxopts.hpp>
#include <unistd.h>

#include "cli/compare_command.hpp"
#include "cli/exit_codes.hpp"
#include "util/error.hpp"

namespace el2fx::cli {
namespace {

constexpr const char* kCompareExample =
    "\n"
    "Exit status: 0, or 5 when a --fail-if gate failed (1 unreadable input, 2 bad command line, 3 data lost\n"
    "with --strict). A CI regression gate, three runs of each build:\n"
    "  eventlog2fxprof compare base/*.eventlog -- new/*.eventlog \\\n"
    "      --fail-if 'gc_elapsed>+10%' --fail-if 'max_residency>+5%'\n"
    "A gate is FIGURE OP THRESHOLD: a figure's key (`--json` lists them: allocated, copied, max_residency,\n"
    "gc_elapsed, mut_elapsed, total_elapsed, productivity, gen1_collections, pause_p99, pause_max, cap0_idle,\n"
    "...), > or < (>=, <=), and the change of the medians in per cent (+10%) or in the figure's units\n"
    "(64MB, 2ms, 3; a ratio's 0.01 is one percentage point).\n";

}  // namespace

int compare_main(int argc, char** argv) {
    cxxopts::Options options("eventlog2fxprof compare",
                             "Compare runs: the +RTS -s figures, GC pauses, capabilities' utilisation, threads' "
                             "blocked time, cost centres and heap-profile bands of BEFORE and AFTER side by side, "
                             "with the change. Several runs per side (BEFORE... -- AFTER...): medians, their range, "
                             "and * where the two sides' ranges do not overlap.");
    // clang-format off: one option per line
    options.add_options()("json", "print JSON instead (every figure of every run; the guide documents it)")(
        "fail-if", "exit with status 5 if the change is beyond this (e.g. 'gc_elapsed>+10%'); repeatable",
        cxxopts::value<std::vector<std::string>>())(
        "strict", "exit with status 3 if any data was lost (truncated input, skipped events)")(
        "h,help", "show this help")("input", "eventlog files", cxxopts::value<std::vector<std::string>>());
    // clang-format on
    options.parse_positional({"input"});
    options.positional_help("BEFORE AFTER | BEFORE... -- AFTER...");
    // The sides split at "--"; options may come on either side of it.
    std::vector<char*> halves[2] = {{argv[0]}, {argv[0]}};
    int side = 0;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--") && side == 0) {
            side = 1;
            continue;
        }
        halves[side].push_back(argv[i]);
    }
    CompareCommand command;
    std::vector<std::string> inputs[2];
    for (int h = 0; h < 2; ++h) {
        auto args = options.parse(static_cast<int>(halves[h].size()), halves[h].data());
        if (args.count("help")) {
            std::fputs(options.help().c_str(), stdout);
            std::fputs(kCompareExample, stdout);
            return kOk;
        }
        if (args.count("input")) inputs[h] = args["input"].as<std::vector<std::string>>();
        command.json = command.json || args.count("json") > 0;
        command.strict = command.strict || args.count("strict") > 0;
        if (args.count("fail-if"))
            for (const std::string& e : args["fail-if"].as<std::vector<std::string>>()) {
                try {
                    command.gates.push_back(el2fx::compare::parse_gate(e));
                } catch (const el2fx::Error& error) {
                    throw cxxopts::exceptions::exception(error.what());
                }
            }
    }
    if (side == 0) {
        if (inputs[0].size() != 2) {
            std::fputs(
                "eventlog2fxprof compare: give two eventlogs, BEFORE AFTER, or several per side: "
                "BEFORE... -- AFTER...\n",
                stderr);
            return kUsageError;
        }
        command.before = {inputs[0][0]};
        command.after = {inputs[0][1]};
    } else {
        if (inputs[0].empty() || inputs[1].empty()) {
            std::fputs("eventlog2fxprof compare: each side of -- needs an eventlog: BEFORE... -- AFTER...\n", stderr);
            return kUsageError;
        }
        command.before = inputs[0];
        command.after = inputs[1];
    }
    const char* no_colour = std::getenv("NO_COLOR");
    command.colour = !command.json && ::isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
    return run_compare(command, stdout, stderr);
}

}  // namespace el2fx::cli
