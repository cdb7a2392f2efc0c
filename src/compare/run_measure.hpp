// Reads one eventlog once, in time order, and measures what `compare` shows of it: the GC
// analysis (its `+RTS -s` summary, exactly as `summary` computes it, and each collection's
// pause), the threading analysis (capabilities' GC / mutator / idle time, threads' blocked
// time) and GHC's profiling (time-profile ticks, heap-profile censuses). Memory grows with
// collections (one number each), capabilities, blocking reasons, cost-centre stacks, ticks and
// censuses, not with events.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compare/run_figures.hpp"
#include "eventlog/stream.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::compare {

// The run's heap over time, for a chart of several runs on one scale: times are from the run's
// first event (as each run's process starts at 0 in a profile of several runs).
struct TimedBytes {
    std::uint64_t time = 0;
    std::uint64_t bytes = 0;
};
struct BandSeries {
    std::string name;
    std::uint64_t peak = 0;
    std::vector<TimedBytes> censuses;  // one per census that counted the band
};
struct RunSeries {
    std::uint64_t end = 0;                         // the last event's time
    std::vector<TimedBytes> heap_size, heap_live;  // as the runtime posted them (HEAP_SIZE, HEAP_LIVE)
    std::vector<BandSeries> bands;                 // heap-profile bands, by name
};

struct MeasuredRun {
    RunFigures figures;
    RunSeries series;
    eventlog::StreamEnd end;  // what the reader found wrong, for the CLI's warnings
};

// Throws el2fx::Error on an unreadable or corrupt input.
MeasuredRun measure_run(const std::string& input, Diagnostics& diagnostics);

}  // namespace el2fx::compare
