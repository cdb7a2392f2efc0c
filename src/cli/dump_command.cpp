#include "cli/dump_command.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "cli/exit_codes.hpp"
#include "analysis/threading/spans_text.hpp"
#include "analysis/threading/threading_analysis.hpp"
#include "cli/input_warnings.hpp"
#include "cli/progress_line.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/event_stats.hpp"
#include "eventlog/show_text.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/error.hpp"

namespace el2fx::cli {
namespace {

// Buffers text and writes it in large pieces; a failed write (a closed pipe, a
// full disk) is an error, not a silent truncation.
class TextOutput {
public:
    explicit TextOutput(std::FILE* out) : out_(out) { buffer_.reserve(kFlushAt + 4096); }
    std::string& buffer() { return buffer_; }
    void maybe_flush() {
        if (buffer_.size() >= kFlushAt) flush();
    }
    void flush() {
        if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size())
            throw Error(std::string("cannot write the output: ") + std::strerror(errno));
        buffer_.clear();
        if (std::fflush(out_) != 0) throw Error(std::string("cannot write the output: ") + std::strerror(errno));
    }

private:
    static constexpr std::size_t kFlushAt = 1 << 16;
    std::FILE* out_;
    std::string buffer_;
};

class StatsSink : public eventlog::EventSink {
public:
    void on_header(const eventlog::Header& header) override { stats.on_header(header); }
    void on_event(const eventlog::Event& event) override { stats.on_event(event); }
    eventlog::EventStats stats;
};

}  // namespace

int run_dump(DumpOptions options, std::FILE* out, std::FILE* err) {
    eventlog::InputFile input(options.input);
    Diagnostics diagnostics;
    TextOutput text(out);
    eventlog::StreamEnd end;
    // Events printed on a terminal would run through the line: it is shown only when they go
    // elsewhere, or when nothing is printed before the end (--stats).
    util::Progress progress;
    ProgressLine line(progress, err, options.quiet || (!options.stats && ::isatty(::fileno(out))));
    if (line.enabled()) input.count_reads(&progress);
    auto begin_phase = [&](const char* phase) { progress.begin(phase, input.size().value_or(0)); };

    if (options.stats) {
        auto sink = std::make_unique<StatsSink>();  // large: keep it off the stack
        begin_phase("read");
        end = eventlog::decode_stream(input, *sink, diagnostics);
        text.buffer() += "file: " + options.input + "\n";
        text.buffer() += sink->stats.report(end.bytes);
        if (end.truncated_at)
            text.buffer() += "truncated at byte " + std::to_string(*end.truncated_at) +
                             (end.truncated_mid_event ? " (mid-event)\n" : " (no end-of-data marker)\n");
        for (const eventlog::LostData& lost : end.lost)
            text.buffer() += "corrupt data at bytes " + std::to_string(lost.begin) + "-" + std::to_string(lost.end) +
                             " (" + std::string(eventlog::corruption_text(lost.kind)) + ")\n";
        text.buffer() += "diagnostics:";
        bool any = false;
        for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
            auto d = static_cast<Diagnostic>(i);
            if (diagnostics.count(d) == 0) continue;
            any = true;
            text.buffer() +=
                "\n  " + std::string(Diagnostics::info(d).id) + ": " + std::to_string(diagnostics.count(d));
        }
        text.buffer() += any ? "\n" : " none\n";
    } else if (options.spans) {
        begin_phase("index");
        eventlog::TimeOrderedReader reader(input, diagnostics);
        begin_phase("events");
        analysis::ThreadingResult result = analysis::analyse_threading(reader, diagnostics);
        analysis::write_spans_text(text.buffer(), result);
        end = reader.stream_end();
    } else {
        begin_phase("index");
        eventlog::TimeOrderedReader reader(input, diagnostics);
        begin_phase("events");
        options.filter.resolve(reader.header());
        eventlog::append_header_text(text.buffer(), reader.header());
        eventlog::EventPrefetcher events(reader, diagnostics);  // the merge beside the printing
        while (const eventlog::Event* event = events.next()) {
            if (!options.filter.accepts(*event)) continue;
            eventlog::append_event_text(text.buffer(), *event, reader.header());
            text.maybe_flush();
        }
        text.buffer() += "\n";  // ghc-events show ends with an empty line
        end = reader.stream_end();
    }
    line.stop();  // before the last text and the warnings
    text.flush();
    bool lost = report_input_warnings(err, options.input, end, diagnostics);
    return lost && options.strict ? kDataLoss : kOk;
}

}  // namespace el2fx::cli
