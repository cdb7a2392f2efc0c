#include "cli/summary_command.hpp"

#include <cerrno>
#include <cstring>

#include "cli/exit_codes.hpp"
#include "cli/input_warnings.hpp"
#include "cli/progress_line.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "analysis/gc/gc_analysis.hpp"
#include "analysis/gc/rts_summary_json.hpp"
#include "analysis/gc/rts_summary_text.hpp"
#include "util/error.hpp"
#include "window/event_window.hpp"

namespace el2fx::cli {

int run_summary(const SummaryCommand& command, std::FILE* out, std::FILE* err) {
    eventlog::InputFile input(command.input);
    Diagnostics diagnostics;
    util::Progress progress;
    ProgressLine line(progress, err, command.quiet);
    if (line.enabled()) input.count_reads(&progress);
    progress.begin("index", input.size().value_or(0));
    eventlog::TimeOrderedReader reader(input, diagnostics);
    progress.begin("events", input.size().value_or(0));
    gc::GcAnalysis analysis(/*keep_records=*/false);
    eventlog::EventPrefetcher events(reader, diagnostics);  // the merge beside the analysis
    window::EventWindow windowed(command.window);  // inactive: every event
    while (const eventlog::Event* event = windowed.next(events)) analysis.handle(*event);
    gc::SummaryEnd end;
    end.truncated = reader.stream_end().truncated_at.has_value();
    if (command.window.active()) {
        end.window_start = windowed.bounds().from;
        if (windowed.bounds().cut) end.window_cut = windowed.bounds().to;
    }
    gc::RtsSummary summary = analysis.finish(end).summary;
    line.stop();  // before the summary and the warnings

    std::string text;
    if (command.json) {
        text = gc::render_summary_json(summary, command.input);
    } else {
        text = "+RTS -s of " + command.input;
        if (!summary.rts_identifier.empty()) text += " (" + summary.rts_identifier + ")";
        text += ", computed from its events";
        if (command.window.active()) {
            const window::WindowBounds b = windowed.bounds();
            text += ", in the window " + window::format_time(b.from) + " to " +
                    (b.to ? window::format_time(*b.to) : std::string("the log's end"));
        }
        text += "\n\n";
        text += gc::render_summary_text(summary);
    }
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fflush(out) != 0)
        throw Error(std::string("cannot write the output: ") + std::strerror(errno));
    bool lost = report_input_warnings(err, command.input, reader.stream_end(), diagnostics);
    return lost && command.strict ? kDataLoss : kOk;
}

}  // namespace el2fx::cli
