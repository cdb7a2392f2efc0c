// The contributors a conversion runs, besides the threading analyses (which make
// the tracks): each shows one family of events.
#pragma once

#include <memory>
#include <vector>

#include "convert/convert_options.hpp"
#include "convert/profile_contributor.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

std::vector<std::unique_ptr<ProfileContributor>> make_contributors(const ConvertOptions& options,
                                                                   Diagnostics& diagnostics);

}  // namespace el2fx::convert
