#include "cli/convert_command.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include "cli/exit_codes.hpp"
#include "cli/input_warnings.hpp"
#include "cli/progress_line.hpp"
#include "convert/converter.hpp"
#include "convert/event_coverage.hpp"
#include "util/error.hpp"
#include "util/units.hpp"

namespace el2fx::cli {

namespace {

// Each pass with its two threads' CPU time: the reader's (the merge and what runs beside it)
// and the analyses'; the busier one bounds the pass.
void print_timings(std::FILE* err, const std::string& input, const convert::PhaseTimes& t, double write) {
    std::fprintf(err, "%s: index %.2f s, census %.2f s (CPU: reader %.2f s, analyses %.2f s", input.c_str(), t.index,
                 t.census, t.census_cpu.reader, t.census_cpu.analyses);
    // Whether the census needed a pass of its own (run/block_census.hpp), and if so why.
    if (t.census_from_blocks) std::fprintf(err, "; from the blocks");
    if (t.blocks_declined) std::fprintf(err, "; a pass, as the blocks cannot tell it: %s", t.blocks_declined);
    std::fprintf(err, "), events %.2f s (CPU: reader %.2f s, analyses %.2f s", t.events, t.events_cpu.reader,
                 t.events_cpu.analyses);
    if (t.lives_beside_reader) std::fprintf(err, "; the threads' lives beside the reader");
    std::fprintf(err, ")");
    if (write > 0) std::fprintf(err, ", write %.2f s", write);
    std::fprintf(err, "; total %.2f s\n", t.index + t.census + t.events + write);
}

// --sources: one line, naming a few of the files not embedded (Profile Info lists them all).
void print_sources(std::FILE* dest, const convert::SourcesReport& s) {
    std::fprintf(dest, "Embedded %zu source file%s (%.1f KB)", s.embedded.size(), s.embedded.size() == 1 ? "" : "s",
                 static_cast<double>(s.bytes) / 1024.0);
    if (!s.missing.empty()) {
        std::fprintf(dest, "; not embedded: ");
        for (std::size_t i = 0; i < s.missing.size() && i < 3; ++i)
            std::fprintf(dest, "%s%s (%s)", i ? ", " : "", s.missing[i].first.c_str(), s.missing[i].second.c_str());
        if (s.missing.size() > 3) std::fprintf(dest, " and %zu more", s.missing.size() - 3);
    }
    std::fprintf(dest, " (Profile Info: \"Source files\").\n");
}

// One line when the output budget coarsened the detail: what, why, and how to get it back.
void print_budget(std::FILE* err, const std::string& display, const convert::ConversionReport& r) {
    if (!r.detail.coarsened) return;
    const std::string what = convert::describe_coarsening(r.detail, r.wanted_detail);
    const std::string budget = util::format_bytes(r.max_profile_bytes);
    const std::string length = util::format_duration(r.duration_ns);
    if (r.detail.over_budget) {
        std::fprintf(err,
                     "%s: %s of eventlog: the profile is estimated at %s, over the %s of --max-profile-size%s%s; "
                     "use --from/--to for a window, or let the budget choose --interval, --marker-resolution "
                     "and the thread tracks\n",
                     display.c_str(), length.c_str(), util::format_bytes(r.detail.estimated_bytes).c_str(),
                     budget.c_str(), what.empty() ? "" : " even with ", what.c_str());
        return;
    }
    std::fprintf(err, "%s: %s of eventlog: %s to stay within %s; use --from/--to for full detail\n", display.c_str(),
                 length.c_str(), what.c_str(), budget.c_str());
}

std::vector<convert::RunInput> run_inputs(const ConvertCommand& command) {
    std::vector<convert::RunInput> inputs;
    const std::vector<std::string>& paths =
        command.inputs.empty() ? std::vector<std::string>{command.input} : command.inputs;
    if (!command.names.empty() && command.names.size() != paths.size())
        throw Error("--names gives " + std::to_string(command.names.size()) + " names for " +
                    std::to_string(paths.size()) + " eventlogs");
    for (std::size_t i = 0; i < paths.size(); ++i)
        inputs.push_back({paths[i], command.names.empty() ? std::string() : command.names[i]});
    return inputs;
}

// Several eventlogs (or one with --names): one profile, a process per run.
int run_compare(const ConvertCommand& command, std::FILE* out, std::FILE* err) {
    std::string output = output_path(command);
    std::vector<convert::RunInput> inputs = run_inputs(command);
    util::Progress progress;
    convert::ConvertOptions options = command.options;
    const convert::RunsReport report = [&] {
        ProgressLine line(progress, err, command.quiet);  // cleared before any message below
        options.progress = line.enabled() ? &progress : nullptr;  // else nothing is counted
        return convert::convert_eventlogs(inputs, output, options);
    }();
    bool lost = false;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        lost =
            report_input_warnings(err, inputs[i].path, report.runs[i].stream_end, report.runs[i].diagnostics) || lost;
        print_budget(err, inputs[i].path, report.runs[i]);
    }
    if (!command.quiet && output != "-") {
        std::fprintf(out, "Wrote %s (%.1f KB): %zu runs side by side, each starting at 0:\n", output.c_str(),
                     static_cast<double>(report.output_bytes) / 1024.0, inputs.size());
        for (std::size_t i = 0; i < inputs.size(); ++i)
            std::fprintf(out, "  %s: %u capabilities, %zu thread tracks\n", inputs[i].path.c_str(),
                         report.runs[i].run.capabilities, report.runs[i].mapping.thread_tracks);
        std::fprintf(out, "Open it in https://profiler.firefox.com (\"Load a profile from file\").\n");
    }
    if (!command.quiet && !command.options.source_dirs.empty() && !report.runs.empty())
        print_sources(output == "-" ? err : out, report.runs.front().sources);
    // --stats: the table of each run, in the order of the eventlogs (standard error when the
    // profile goes to standard output).
    if (command.stats) {
        std::FILE* dest = output == "-" ? err : out;
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            std::fprintf(dest, "%sRun %zu of %zu: ", i ? "\n" : "", i + 1, inputs.size());
            if (!inputs[i].name.empty()) std::fprintf(dest, "%s, ", inputs[i].name.c_str());
            std::fprintf(dest, "%s\n", inputs[i].path.c_str());
            std::fputs(convert::coverage_report(report.runs[i].run.events_by_tag, command.options).c_str(), dest);
        }
    }
    if (command.timings) {
        for (std::size_t i = 0; i < inputs.size(); ++i) print_timings(err, inputs[i].path, report.runs[i].timings, 0);
        std::fprintf(err, "profile written in %.2f s\n", report.write_seconds);
    }
    return lost && command.strict ? kDataLoss : kOk;
}

}  // namespace

std::optional<std::string> input_overwritten_by(const std::string& output, const std::vector<std::string>& inputs) {
    if (output == "-") return std::nullopt;  // a shell's `> FILE` has emptied it before we run anyway
    struct stat out {};
    if (::stat(output.c_str(), &out) != 0) return std::nullopt;  // not there yet: nothing to lose
    for (const std::string& input : inputs) {
        struct stat in {};
        const int rc = input == "-" ? ::fstat(STDIN_FILENO, &in) : ::stat(input.c_str(), &in);
        if (rc == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino) return input;
    }
    return std::nullopt;
}

std::string output_path(const ConvertCommand& command) {
    if (!command.output.empty()) return command.output;
    std::vector<convert::RunInput> inputs = run_inputs(command);
    for (const convert::RunInput& input : inputs)
        if (input.path == "-") throw Error("reading standard input: say where the profile goes with -o FILE");
    return convert::default_output_path(inputs);
}

int run_convert(const ConvertCommand& command, std::FILE* out, std::FILE* err) {
    std::string output = output_path(command);
    const std::vector<std::string> inputs =
        command.inputs.empty() ? std::vector<std::string>{command.input} : command.inputs;
    if (auto input = input_overwritten_by(output, inputs)) {
        std::fprintf(err,
                     "eventlog2fxprof: error: the output %s is the input %s (the same file): "
                     "writing the profile would destroy the eventlog; choose another -o\n",
                     output.c_str(), *input == "-" ? "(standard input)" : input->c_str());
        return kUsageError;
    }
    if (command.inputs.size() > 1 || !command.names.empty()) return run_compare(command, out, err);
    convert::ConvertOptions options = command.options;
    if (options.input_name.empty()) options.input_name = command.input == "-" ? "stdin" : command.input;
    util::Progress progress;
    const convert::ConversionReport report = [&] {
        ProgressLine line(progress, err, command.quiet);  // cleared before any message below
        options.progress = line.enabled() ? &progress : nullptr;  // else nothing is counted
        return convert::convert_eventlog(command.input, output, options);
    }();
    return report_conversion(report, command.input, output, options,
                             {.summary = out,
                              .err = err,
                              .quiet = command.quiet,
                              .stats = command.stats,
                              .timings = command.timings,
                              .strict = command.strict,
                              .open_hint = true,
                              .empty_reason = "the program stopped before writing any, or ran with no event class "
                                              "enabled"});
}

int report_conversion(const convert::ConversionReport& report, const std::string& display, const std::string& output,
                      const convert::ConvertOptions& options, const ConversionMessages& m) {
    const bool lost = report_input_warnings(m.err, display, report.stream_end, report.diagnostics);
    print_budget(m.err, display == "-" ? "(standard input)" : display, report);
    if (report.run.events == 0) {
        std::fprintf(m.err, "warning: %s: the eventlog holds no events",
                     display == "-" ? "(standard input)" : display.c_str());
        if (!m.empty_reason.empty()) std::fprintf(m.err, " (%s)", m.empty_reason.c_str());
        std::fputs(": the profile is empty", m.err);
        if (!m.empty_hint.empty()) std::fprintf(m.err, " (%s)", m.empty_hint.c_str());
        std::fputc('\n', m.err);
    }
    // The profile may be on standard output: what follows then goes to standard error.
    std::FILE* summary = output == "-" ? m.err : m.summary;
    if (!m.quiet && output != "-") {
        std::fprintf(summary, "Wrote %s (%.1f KB): %u capabilities, %zu thread tracks", output.c_str(),
                     static_cast<double>(report.output_bytes) / 1024.0, report.run.capabilities,
                     report.mapping.thread_tracks);
        if (report.mapping.folded_threads)
            std::fprintf(summary, " + %zu threads folded into \"other threads\" (--max-threads, --all-threads)",
                         report.mapping.folded_threads);
        std::fputs(".\n", summary);
        if (m.open_hint)
            std::fputs("Open it in https://profiler.firefox.com (\"Load a profile from file\").\n", summary);
    }
    if (!m.quiet && !options.source_dirs.empty()) print_sources(summary, report.sources);
    if (m.stats) std::fputs(convert::coverage_report(report.run.events_by_tag, options).c_str(), summary);
    if (m.timings) print_timings(m.err, display, report.timings, report.timings.write);
    return lost && m.strict ? kDataLoss : kOk;
}

}  // namespace el2fx::cli
