#include "convert/run_info_contributor.hpp"

#include <algorithm>
#include <array>

#include "convert/eventlog_problems.hpp"
#include "eventlog/event_types.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using namespace eventlog;

// What run::RunInfo takes from the events into the meta and the "GHC run" section.
constexpr std::array<std::uint16_t, 6> kShown = {RtsIdentifier::tag, ProgramArgs::tag, OsProcessPid::tag,
                                                 WallClockTime::tag, HeapInfoGHC::tag, CapCreate::tag};
constexpr std::array<std::uint16_t, 7> kShownWithEnv = {RtsIdentifier::tag, ProgramArgs::tag, OsProcessPid::tag,
                                                        WallClockTime::tag, HeapInfoGHC::tag, CapCreate::tag,
                                                        ProgramEnv::tag};

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

}  // namespace

std::uint64_t run_end_time(const ProfileContext& ctx_) {
    return std::max(ctx_.run.last_time, ctx_.run.first_time + ctx_.options.sampling_interval_ns);
}

std::string product_name(const ProfileContext& ctx_) {
    std::string name = ctx_.run.program_name();
    if (name.empty()) name = ctx_.options.input_name;
    return name.empty() ? std::string("GHC program") : name;
}

std::string process_name(const ProfileContext& ctx_) {
    return ctx_.process_name.empty() ? product_name(ctx_) : ctx_.process_name;
}

namespace {

void add_budget_entry(fxprof::Profile& p, fxprof::ExtraSectionHandle s, const DetailChoice& choice, const Detail& wanted) {
    p.add_extra_entry(s, "Output budget", fxprof::ExtraValue::text(budget_summary(choice, wanted)));
}

}  // namespace

std::span<const std::uint16_t> RunInfoContributor::shown_tags() const {
    if (include_env_) return kShownWithEnv;
    return kShown;
}

void RunInfoContributor::contribute(ProfileContext& context, std::uint64_t /*end*/) {
    add_eventlog_problems(context, diagnostics_);
}

void RunInfoContributor::begin(ProfileContext& ctx_) {
    Profile& p_ = ctx_.profile;
    const ConvertOptions& options_ = ctx_.options;
    const run::RunInfo& run = ctx_.run;
    // The program's name names the profile (top bar, window title), as samply's do. The
    // compare view names a pair by the product only when both share it (merge-compare.ts),
    // so two runs of one program read as it, two programs as the profiler's "Firefox".
    p_.set_product(product_name(ctx_));
    // Not Firefox Nightly: the Share panel removes personal data by default (format_v70.hpp).
    p_.set_update_channel(v70::kUpdateChannelRelease);
    p_.set_interval(Duration::from_nanos(static_cast<std::int64_t>(options_.sampling_interval_ns)));
    if (run.wall_clock_unix_ns) {
        p_.set_start_time(WallClock::from_unix_nanos(static_cast<std::int64_t>(*run.wall_clock_unix_ns) -
                                                     static_cast<std::int64_t>(run.wall_clock_event_time)));
    }
    p_.set_profiling_range(at(run.first_time), at(run_end_time(ctx_)));
    p_.set_imported_from("GHC eventlog");
    p_.set_keep_profile_thread_order(true);
    std::string args;
    for (const std::string& a : run.args) args += (args.empty() ? "" : " ") + a;
    p_.set_arguments(args);

    ExtraSectionHandle s = p_.add_extra_section(ctx_.section_label("GHC run"));
    p_.add_extra_entry(s, "Program", ExtraValue::text(product_name(ctx_)));
    if (!run.rts_identifier.empty()) p_.add_extra_entry(s, "RTS", ExtraValue::text(run.rts_identifier));
    if (!args.empty()) p_.add_extra_entry(s, "Arguments", ExtraValue::text(args));
    if (run.pid) p_.add_extra_entry(s, "Process id", ExtraValue::integer(*run.pid));
    p_.add_extra_entry(s, "Capabilities", ExtraValue::integer(run.capabilities));
    if (run.generations) p_.add_extra_entry(s, "Generations", ExtraValue::integer(*run.generations));
    if (run.alloc_area_size)
        p_.add_extra_entry(s, "Allocation area", ExtraValue::bytes(static_cast<std::int64_t>(*run.alloc_area_size)));
    if (!run.wall_clock_unix_ns)
        p_.add_extra_entry(s, "Start time", ExtraValue::text("unknown: the eventlog has no wall-clock event"));
    p_.add_extra_entry(s, "Events", ExtraValue::integer(static_cast<std::int64_t>(run.events)));
    p_.add_extra_entry(
        s, "Marker resolution",
        ctx_.span_detail.resolution == 0
            ? ExtraValue::text("every span has its own marker")
            : ExtraValue::duration(Duration::from_nanos(static_cast<std::int64_t>(ctx_.span_detail.resolution))));
    p_.add_extra_entry(s, "Sampling interval",
                       ExtraValue::duration(Duration::from_nanos(static_cast<std::int64_t>(ctx_.options.sampling_interval_ns))));
    if (ctx_.detail_choice && ctx_.wanted_detail) add_budget_entry(p_, s, *ctx_.detail_choice, *ctx_.wanted_detail);

    if (!run.env.empty()) {
        ExtraSectionHandle e = p_.add_extra_section(ctx_.section_label("Environment (included with --include-env)"));
        for (const std::string& kv : run.env) {
            std::size_t eq = kv.find('=');
            p_.add_extra_entry(e, kv.substr(0, eq), ExtraValue::text(eq == std::string::npos ? "" : kv.substr(eq + 1)));
        }
    }
}

}  // namespace el2fx::convert
