#include "cli/input_warnings.hpp"

namespace el2fx::cli {
namespace {

constexpr std::size_t kMaxLostLines = 10;  // then one line says how many more

double ms(std::uint64_t ns) { return static_cast<double>(ns) / 1e6; }

void report_lost(std::FILE* err, const std::string& input, const eventlog::LostData& lost) {
    const std::string_view why = eventlog::corruption_text(lost.kind);
    std::fprintf(err, "warning: %s: corrupt data at bytes %llu-%llu (%.*s, tag %u): ", input.c_str(),
                 static_cast<unsigned long long>(lost.begin), static_cast<unsigned long long>(lost.end),
                 static_cast<int>(why.size()), why.data(), static_cast<unsigned>(lost.tag));
    if (lost.cap)
        std::fprintf(err, "capability %u lost its events", static_cast<unsigned>(*lost.cap));
    else
        std::fprintf(err, "events of no capability (the global block) were lost");
    std::fprintf(err, " between %.3f ms and %.3f ms; %s (corrupt_data_skipped)\n", ms(lost.from_time), ms(lost.to_time),
                 lost.resynchronised ? "read on from the next block" : "no later block: the rest of the file is lost");
}

}  // namespace

bool report_input_warnings(std::FILE* err, const std::string& input, const eventlog::StreamEnd& end,
                           const Diagnostics& diagnostics) {
    if (end.truncated_at) {
        std::fprintf(err,
                     "warning: %s: truncated at byte %llu (%s): the program was probably killed; "
                     "every complete event before it was read\n",
                     input.c_str(), static_cast<unsigned long long>(*end.truncated_at),
                     end.truncated_mid_event ? "cut in the middle of an event" : "no end-of-data marker");
    }
    for (std::size_t i = 0; i < end.lost.size() && i < kMaxLostLines; ++i) report_lost(err, input, end.lost[i]);
    const std::uint64_t skipped = diagnostics.count(Diagnostic::corrupt_data_skipped);
    if (skipped > kMaxLostLines)
        std::fprintf(err, "warning: %s: %llu stretches of corrupt data in all (corrupt_data_skipped)\n", input.c_str(),
                     static_cast<unsigned long long>(skipped));
    if (const std::uint64_t bad = diagnostics.count(Diagnostic::timestamp_out_of_range)) {
        std::fprintf(err,
                     "warning: %s: %llu event%s stamped after %s block's end time (or at 2^63 ns or later), the "
                     "first at byte %llu: given the time of the event before (timestamp_out_of_range)\n",
                     input.c_str(), static_cast<unsigned long long>(bad), bad == 1 ? "" : "s",
                     bad == 1 ? "its" : "their", static_cast<unsigned long long>(end.first_bad_time_at.value_or(0)));
    }
    for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
        auto d = static_cast<Diagnostic>(i);
        if (d == Diagnostic::truncated_input || d == Diagnostic::corrupt_data_skipped ||
            d == Diagnostic::timestamp_out_of_range || diagnostics.count(d) == 0)
            continue;
        const DiagnosticInfo& info = Diagnostics::info(d);
        if (info.severity == Severity::info && d != Diagnostic::unknown_event_type &&
            d != Diagnostic::payload_too_short)
            continue;
        std::fprintf(err, "warning: %s: %llu %.*s (%.*s)\n", input.c_str(),
                     static_cast<unsigned long long>(diagnostics.count(d)), static_cast<int>(info.description.size()),
                     info.description.data(), static_cast<int>(info.id.size()), info.id.data());
    }
    return diagnostics.any_data_loss();
}

}  // namespace el2fx::cli
