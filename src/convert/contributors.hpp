// The parts of a conversion, in the order they run: each shows one family of events and
// declares which (shown_tags(): `convert --stats` and event_coverage.hpp).
#pragma once

#include <memory>
#include <vector>

#include "convert/convert_options.hpp"
#include "convert/profile_contributor.hpp"
#include "convert/profile_mapper.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

struct Contributors {
    // The first of `all`: it lays out the tracks the others draw on, and the threading
    // analysis streams into it.
    ThreadingMapper* threading = nullptr;
    std::vector<std::unique_ptr<ProfileContributor>> all;
};

Contributors make_contributors(const ConvertOptions& options, Diagnostics& diagnostics);

}  // namespace el2fx::convert
