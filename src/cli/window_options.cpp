#include "cli/window_options.hpp"

#include "cli/event_filter.hpp"
#include "util/error.hpp"

namespace el2fx::cli {

void add_window_options(cxxopts::Options& options) {
    // clang-format off: one option per line
    options.add_options("Window")(
        "from", "only the window from this time on (ns since the RTS started, or with a unit: 1.5ms, 2s)",
        cxxopts::value<std::string>())(
        "to", "only the window up to this time", cxxopts::value<std::string>())(
        "from-marker", "the window starts at the first traceMarker or traceEvent message starting with this text",
        cxxopts::value<std::string>())(
        "to-marker", "the window ends at the first such message after its start", cxxopts::value<std::string>());
    // clang-format on
}

window::WindowSpec read_window_options(const cxxopts::ParseResult& args) {
    window::WindowSpec spec;
    try {
        if (args.count("from")) spec.from = parse_time(args["from"].as<std::string>());
        if (args.count("to")) spec.to = parse_time(args["to"].as<std::string>());
        if (args.count("from-marker")) spec.from_marker = args["from-marker"].as<std::string>();
        if (args.count("to-marker")) spec.to_marker = args["to-marker"].as<std::string>();
        if (spec.from && spec.from_marker) throw Error("give --from or --from-marker, not both");
        if (spec.to && spec.to_marker) throw Error("give --to or --to-marker, not both");
        window::check_spec(spec);
    } catch (const Error& e) {
        throw cxxopts::exceptions::exception(e.what());
    }
    return spec;
}

}  // namespace el2fx::cli
