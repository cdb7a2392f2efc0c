#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/threading/sampling_interval.hpp"
#include "pass/pass_plan.hpp"
#include "window/window_spec.hpp"

namespace el2fx::util {
class Progress;
}

namespace el2fx::convert {

struct ConvertOptions {
    std::uint64_t sampling_interval_ns = analysis::kDefaultSamplingIntervalNs;
    bool sampling_interval_fixed = false;  // --interval given: the output budget leaves it as it is
    std::size_t max_threads = 64;          // Haskell thread tracks; the rest share one track
    bool all_threads = false;              // a track for every Haskell thread
    bool include_env = false;              // PROGRAM_ENV into the profile (never by default: secrets)
    // How the passes read the events (pass_plan.hpp): the tests' naive passes must give the
    // same profile as the planned ones.
    pass::PassMode pass_mode = pass::PassMode::planned;
    std::string input_name;                     // names the profile when the log has no program arguments
    bool user_messages = true;                  // traceEvent messages as markers (false: START/STOP spans only)
    std::uint64_t spark_burst_gap_ns = 10'000;  // spark events closer than this make one marker; 0: one each
    bool redact_args = false;                   // program arguments → "[redacted]" (argv[0] keeps its file name)
    bool redact_paths = false;                  // absolute paths in any text → their file names
    // Spans shorter than this are merged into one marker per group (span_detail.hpp);
    // nullopt: chosen from the log's duration; 0: every span keeps its own marker.
    std::optional<std::uint64_t> marker_resolution_ns;
    // --sources: directories whose files the profile's source locations name are embedded
    // (source_locations.hpp); empty: no source text in the profile.
    std::vector<std::string> source_dirs;
    // The written JSON's size limit (output_budget.hpp): the detail grows coarser to stay within
    // it; 0: no limit. Several runs in one profile share it.
    std::uint64_t max_profile_bytes = 200'000'000;
    // Each folded thread's samples start at its name; false (the output budget's choice for
    // hundreds of thousands of threads): all at one "a folded thread" frame.
    bool folded_thread_names = true;
    std::size_t heap_bands = 9;  // heap-profile bands in the chart (a colour each); the rest make "other"
    window::Window window;       // --from/--to/--from-marker/--to-marker (src/window); bounds: once found
    // Where the conversion says how far it has got (bytes read per phase), for a display on
    // another thread; nullptr: nowhere. Not the conversion's own: it outlives it.
    util::Progress* progress = nullptr;
};

}  // namespace el2fx::convert
