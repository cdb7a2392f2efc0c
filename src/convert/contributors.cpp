#include "convert/contributors.hpp"

#include "convert/runtime_events_contributor.hpp"
#include "convert/sparks_contributor.hpp"
#include "convert/user_events_contributor.hpp"
#include "convert/cost_centre_contributor.hpp"
#include "convert/gc_heap_contributor.hpp"
#include "convert/heap_profile_contributor.hpp"

namespace el2fx::convert {

std::vector<std::unique_ptr<ProfileContributor>> make_contributors(const ConvertOptions& options,
                                                                   Diagnostics& diagnostics) {
    std::vector<std::unique_ptr<ProfileContributor>> all;
    all.push_back(std::make_unique<CostCentreContributor>(options));
    // Counters are drawn in contributor order: the heap totals before the heap-profile bands.
    all.push_back(std::make_unique<GcHeapContributor>(options, diagnostics));
    all.push_back(std::make_unique<HeapProfileContributor>(options));
    all.push_back(std::make_unique<UserEventsContributor>(options, diagnostics));
    all.push_back(std::make_unique<SparksContributor>(options));
    all.push_back(std::make_unique<RuntimeEventsContributor>());
    return all;
}

}  // namespace el2fx::convert
