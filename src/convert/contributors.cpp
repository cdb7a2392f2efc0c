#include "convert/contributors.hpp"

#include "convert/runtime_events_contributor.hpp"
#include "convert/sparks_contributor.hpp"
#include "convert/user_events_contributor.hpp"
#include "convert/cost_centre_contributor.hpp"
#include "convert/gc_heap_contributor.hpp"
#include "convert/heap_profile_contributor.hpp"
#include "convert/run_info_contributor.hpp"
#include "convert/window_contributor.hpp"
#include "convert/stack_sample_contributor.hpp"

namespace el2fx::convert {

Contributors make_contributors(const ConvertOptions& options, Diagnostics& diagnostics) {
    Contributors parts;
    auto threading = std::make_unique<ThreadingMapper>();
    parts.threading = threading.get();
    std::vector<std::unique_ptr<ProfileContributor>>& all = parts.all;
    all.push_back(std::move(threading));
    // After the threads: the eventlog's problems are marked once their markers are in.
    all.push_back(std::make_unique<RunInfoContributor>(options, diagnostics));
    all.push_back(std::make_unique<WindowContributor>());  // --from/--to: the window's section
    all.push_back(std::make_unique<CostCentreContributor>(options));
    // Its begin() offers the threading mapper the Haskell stacks of ghc-stack-profiler's samples.
    all.push_back(std::make_unique<StackSampleContributor>(diagnostics));
    // Counters are drawn in contributor order: the heap totals before the heap-profile bands.
    all.push_back(std::make_unique<GcHeapContributor>(options, diagnostics));
    all.push_back(std::make_unique<HeapProfileContributor>(options));
    all.push_back(std::make_unique<UserEventsContributor>(options, diagnostics));
    all.push_back(std::make_unique<SparksContributor>(options));
    all.push_back(std::make_unique<RuntimeEventsContributor>());
    return parts;
}

}  // namespace el2fx::convert
