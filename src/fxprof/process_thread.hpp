// Processes and threads. Threads are grouped into processes by pid in the profiler: one global
// track per process (its main thread, if any), the other threads as local tracks under it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"
#include "fxprof/marker_table.hpp"
#include "fxprof/sample_table.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

using v70::WeightType;

struct Process {
    std::string name{};              // threads' processName
    std::string pid{};               // written as a string (since v47)
    Timestamp start{};               // processStartupTime
    std::optional<Timestamp> end{};  // processShutdownTime; null while running
    std::vector<ThreadHandle> threads{};
    std::optional<ThreadHandle> main_thread{};
};

struct Thread {
    ProcessHandle process;
    std::string name{};
    std::int64_t tid = 0;
    bool is_main = false;
    // Needed for markers displayed at timeline-overview to show in this thread's track.
    bool show_markers_in_timeline = true;
    Timestamp register_time{};
    std::optional<Timestamp> unregister_time{};
    // samples: every weight counts 1 per unit; tracing_ms: weights are nanoseconds of time
    // (written as milliseconds); bytes: weights are bytes.
    WeightType weight_type = WeightType::samples;
    SampleTable samples{};
    MarkerTable markers{};
};

}  // namespace el2fx::fxprof
