// The runtime's remaining events, each shown where a Haskell developer would look:
//
// - tasks (OS threads: TASK_CREATE/MIGRATE/DELETE): instant markers on the capability
//   the task is on (a deleted task's last capability, from runtime::TaskTracker);
// - capabilities (CAP_CREATE/DELETE/ENABLE/DISABLE): instant markers on the
//   capability's track, and a "Capability disabled" interval from DISABLE to ENABLE;
// - capability sets (CAPSET_*): instant markers on the process track;
// - LOG_MSG (RTS debug messages): log markers on the capability (process track for
//   the global buffer);
// - ticky-ticky counters: the kTickyCounterTracks most entered counters as counter
//   tracks of entries (the RTS resets the counters at each sample, so each sample is
//   an increment; the graph is the running total, its slope the entry rate), every
//   TICKY_COUNTER_BEGIN_SAMPLE as a "Ticky sample" marker on the process track, and
//   the top kTickySummaryRows counters with entries and allocation in the info panel
//   (counter tracks cannot show a table, and a marker per counter per sample would be
//   thousands of rows);
// - the oldest and the non-GHC events (STARTUP, SHUTDOWN, Eden's VERSION,
//   PROGRAM_INVOCATION and 60-69, Mercury's INTERN_STRING and 100-113, ghc-events-perf's
//   140-142): "RTS event" markers named by their GHC name with every field as text, on
//   the capability that wrote them or the process track. Perf counters and tracepoints
//   carry their PERF_NAME and go to the capability whose task runs on their OS thread.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "convert/profile_contributor.hpp"
#include "analysis/runtime/runtime_lifecycle.hpp"
#include "analysis/runtime/ticky.hpp"

namespace el2fx::convert {

inline constexpr std::size_t kTickyCounterTracks = 10;
inline constexpr std::size_t kTickySummaryRows = 20;

class RuntimeEventsContributor : public ProfileContributor {
public:
    std::string_view name() const override { return "runtime events"; }
    void handle(const eventlog::Event& event) override;
    pass::Interests interests() const override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

private:
    enum class Kind : std::uint8_t {
        task_created,
        task_migrated,
        task_deleted,
        cap_created,
        cap_deleted,
        cap_disabled,
        cap_enabled,
        capset_created,
        capset_deleted,
        capset_assigned,
        capset_removed,
        log,
        generic
    };
    // A marker to add once the tracks exist. cap < 0: the process track. a, b, c by kind:
    //   task_created: task, OS thread, cap      task_migrated: task, from cap, to cap
    //   task_deleted: task, OS thread, whether the task was known (1) or not (0)
    //   cap_*: cap                              capset_*: capset, type (created) or cap
    struct Pending {
        std::uint64_t time = 0;
        std::int32_t cap = -1;
        Kind kind = Kind::generic;
        std::uint64_t a = 0, b = 0, c = 0;
        std::string text;  // log: the message; generic: the fields as text
        std::uint16_t tag = 0;
    };
    void add_markers(ProfileContext& context);
    void add_ticky(ProfileContext& context);
    void generic(const eventlog::Event& event, std::int32_t cap);

    runtime::TaskTracker tasks_;
    runtime::CapabilityLifecycle caps_;
    runtime::TickyAggregator ticky_;
    std::unordered_map<std::uint32_t, std::string> perf_names_;
    std::vector<Pending> pending_;
};

}  // namespace el2fx::convert
