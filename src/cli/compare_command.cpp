#include "cli/compare_command.hpp"

#include <cerrno>
#include <cstring>

#include "cli/exit_codes.hpp"
#include "cli/input_warnings.hpp"
#include "compare/comparison.hpp"
#include "compare/comparison_json.hpp"
#include "compare/comparison_text.hpp"
#include "compare/run_measure.hpp"
#include "util/error.hpp"

namespace el2fx::cli {

int run_compare(const CompareCommand& command, std::FILE* out, std::FILE* err) {
    bool lost = false;
    auto measure = [&](const std::vector<std::string>& inputs) {
        std::vector<compare::RunFigures> runs;
        for (const std::string& input : inputs) {
            Diagnostics diagnostics;
            compare::MeasuredRun run = compare::measure_run(input, diagnostics);
            lost = report_input_warnings(err, input, run.end, diagnostics) || lost;
            runs.push_back(std::move(run.figures));
        }
        return runs;
    };
    std::vector<compare::RunFigures> before = measure(command.before);
    std::vector<compare::RunFigures> after = measure(command.after);
    const compare::Comparison comparison = compare::compare_runs(std::move(before), std::move(after));

    std::vector<compare::GateResult> gates;
    for (const compare::Gate& gate : command.gates) {
        try {
            gates.push_back(compare::evaluate_gate(gate, comparison));
        } catch (const Error& e) {  // a gate on a figure these runs lack: the command line's fault
            std::fprintf(err, "eventlog2fxprof compare: %s\n", e.what());
            return kUsageError;
        }
    }
    compare::TextOptions text_options;
    text_options.colour = command.colour;
    const std::string text = command.json ? compare::render_comparison_json(comparison, gates)
                                          : compare::render_comparison_text(comparison, gates, text_options);
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fflush(out) != 0)
        throw Error(std::string("cannot write the output: ") + std::strerror(errno));
    if (lost && command.strict) return kDataLoss;
    for (const compare::GateResult& g : gates)
        if (g.failed) return kGateFailed;
    return kOk;
}

}  // namespace el2fx::cli
