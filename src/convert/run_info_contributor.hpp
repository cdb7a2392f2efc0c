// The run as a whole (run::RunInfo, from the first pass): the profile's meta (product,
// arguments, start time, interval, range) and Profile Info's "GHC run" section (program,
// RTS, process id, capabilities, heap parameters, …) and, with --include-env only, the
// environment; after the last event, what went wrong while reading (eventlog_problems.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "convert/profile_contributor.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

// The end of the log; an eventlog without events still spans one interval.
std::uint64_t run_end_time(const ProfileContext& context);
// The program's name, else the eventlog's, else "GHC program".
std::string product_name(const ProfileContext& context);
// The run's process and its own track: named by the run when there are several.
std::string process_name(const ProfileContext& context);

// Runs after the threading mapper (its problems' markers follow the threads' markers).
class RunInfoContributor final : public ProfileContributor {
public:
    RunInfoContributor(const ConvertOptions& options, const Diagnostics& diagnostics)
        : include_env_(options.include_env), diagnostics_(diagnostics) {}

    std::string_view name() const override { return "run info"; }
    void begin(ProfileContext& context) override;
    void handle(const eventlog::Event&) override {}  // the first pass collected the facts
    pass::Interests interests() const override { return {}; }
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

private:
    bool include_env_;
    const Diagnostics& diagnostics_;
};

}  // namespace el2fx::convert
