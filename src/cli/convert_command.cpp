#include "cli/convert_command.hpp"

#include "cli/exit_codes.hpp"
#include "cli/input_warnings.hpp"
#include "convert/converter.hpp"
#include "util/error.hpp"

namespace el2fx::cli {

int run_convert(const ConvertCommand& command, std::FILE* out, std::FILE* err) {
    std::string output = command.output;
    if (output.empty()) {
        if (command.input == "-") throw Error("reading standard input: say where the profile goes with -o FILE");
        output = convert::default_output_path(command.input);
    }
    convert::ConvertOptions options = command.options;
    if (options.input_name.empty()) options.input_name = command.input == "-" ? "stdin" : command.input;
    convert::ConversionReport report = convert::convert_eventlog(command.input, output, options);
    bool lost = report_input_warnings(err, command.input, report.stream_end, report.diagnostics);
    if (!command.quiet && output != "-") {
        std::fprintf(out, "Wrote %s (%.1f KB): %u capabilities, %zu thread tracks",
                     output.c_str(), static_cast<double>(report.output_bytes) / 1024.0, report.run.capabilities,
                     report.mapping.thread_tracks);
        if (report.mapping.folded_threads)
            std::fprintf(out, " + %zu threads folded into \"other threads\" (--max-threads, --all-threads)",
                         report.mapping.folded_threads);
        std::fprintf(out, ".\nOpen it in https://profiler.firefox.com (\"Load a profile from file\").\n");
    }
    return lost && command.strict ? kDataLoss : kOk;
}

}  // namespace el2fx::cli
