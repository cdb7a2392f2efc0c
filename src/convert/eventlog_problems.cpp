#include "convert/eventlog_problems.hpp"

#include "convert/data_loss.hpp"
#include "convert/run_info_contributor.hpp"
#include "convert/threading_marker_types.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

// What went wrong while reading: known only after the last event.
void add_problems(ProfileContext& ctx_, const Diagnostics& diagnostics_) {
    Profile& p_ = ctx_.profile;
    const CategoryHandle warning_ = ctx_.categories.warning;
    ExtraSectionHandle d = p_.add_extra_section(ctx_.section_label("Eventlog problems"));
    bool any = false;
    for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
        auto diag = static_cast<Diagnostic>(i);
        std::uint64_t n = diagnostics_.count(diag);
        if (n == 0) continue;
        any = true;
        p_.add_extra_entry(d, std::string(Diagnostics::info(diag).description),
                           ExtraValue::integer(static_cast<std::int64_t>(n)));
    }
    if (diagnostics_.count(Diagnostic::truncated_input) > 0 && ctx_.run.events > 0) {
        // Where the data stops, in the timeline: a killed program's log ends here.
        // One interning call per statement: compilers order a call's arguments differently.
        const DiagnosticInfo& info = Diagnostics::info(Diagnostic::truncated_input);
        const StringHandle name = p_.handle_for_string("Eventlog truncated: no data after this point");
        const StringHandle problem = p_.handle_for_string(info.description);
        const StringHandle id = p_.handle_for_string(info.id);
        p_.add_marker(ctx_.process_track, MarkerTiming::instant(at(run_end_time(ctx_))), name, warning_,
                      EventlogWarningMarker{.problem = problem, .diagnostic = id, .event = 0});
    }
    if (ctx_.run.events == 0) {
        any = true;
        p_.add_extra_entry(d, "No events",
                           ExtraValue::text("the eventlog holds no events: the program stopped "
                                            "before writing any; the profile is empty"));
        const StringHandle name = p_.handle_for_string("The eventlog holds no events");
        const StringHandle problem = p_.handle_for_string("the program stopped before writing any event");
        const StringHandle id = p_.handle_for_string("no_events");
        p_.add_marker(ctx_.process_track, MarkerTiming::instant(at(ctx_.run.first_time)), name, warning_,
                      EventlogWarningMarker{.problem = problem, .diagnostic = id, .event = 0});
    }
    if (!any) p_.add_extra_entry(d, "None", ExtraValue::text("the eventlog was read without problems"));
    if (ctx_.stream_end) add_data_loss_entries(p_, d, *ctx_.stream_end);
}

// On the capability's track (the first capability's when it has none).
void add_diagnostic_markers(ProfileContext& ctx_, const std::vector<DiagnosticMoment>& moments) {
    Profile& p_ = ctx_.profile;
    for (const DiagnosticMoment& m : moments) {
        std::optional<ThreadHandle> track;
        if (m.cap) track = ctx_.capability_track(*m.cap);
        if (!track && !ctx_.capability_tracks.empty()) track = ctx_.capability_tracks.begin()->second;
        if (!track) continue;
        const DiagnosticInfo& info = Diagnostics::info(m.diagnostic);
        // Interned one statement at a time: argument order differs between compilers.
        StringHandle problem = p_.handle_for_string(info.description);
        StringHandle id = p_.handle_for_string(info.id);
        p_.add_marker(*track, MarkerTiming::instant(at(m.time)), ctx_.eventlog_warning_name, ctx_.categories.warning,
                      EventlogWarningMarker{.problem = problem, .diagnostic = id, .event = m.tag});
    }
}

}  // namespace

void add_eventlog_problems(ProfileContext& context, const Diagnostics& diagnostics) {
    add_problems(context, diagnostics);
    if (context.diagnostic_moments) add_diagnostic_markers(context, *context.diagnostic_moments);
    if (context.stream_end) add_data_loss_markers(context, *context.stream_end, context.time_shift);
}

}  // namespace el2fx::convert
