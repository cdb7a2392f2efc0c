#include "cli/input_warnings.hpp"

namespace el2fx::cli {

bool report_input_warnings(std::FILE* err, const std::string& input, const eventlog::StreamEnd& end,
                           const Diagnostics& diagnostics) {
    if (end.truncated_at) {
        std::fprintf(err,
                     "warning: %s: truncated at byte %llu (%s): the program was probably killed; "
                     "every complete event before it was read\n",
                     input.c_str(), static_cast<unsigned long long>(*end.truncated_at),
                     end.truncated_mid_event ? "cut in the middle of an event" : "no end-of-data marker");
    }
    for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
        auto d = static_cast<Diagnostic>(i);
        if (d == Diagnostic::truncated_input || diagnostics.count(d) == 0) continue;
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
