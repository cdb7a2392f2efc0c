// What a heap-profile band is called: its cost-centre stack ("main/runAll/stageBuild") for -hc,
// its info table's name and source location for -hi, "era N" for -he, the runtime's label
// otherwise (a closure type, a type, a module, a closure description, a biography).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/ghc_profiling/cost_centre_table.hpp"
#include "analysis/ghc_profiling/heap_profile.hpp"
#include "analysis/ghc_profiling/info_tables.hpp"

namespace el2fx::profiling {

std::string band_name(const HeapBand& band, std::uint32_t breakdown, const CostCentreTable& cost_centres,
                      const InfoTableCatalog& info_tables);

// A sentence for Profile Info: what the band counts, and where it comes from when known.
std::string band_description(const HeapBand& band, std::uint32_t breakdown, const CostCentreTable& cost_centres,
                             const InfoTableCatalog& info_tables);

}  // namespace el2fx::profiling
