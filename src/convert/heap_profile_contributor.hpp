// A heap profile (`+RTS -hc/-hm/-hd/-hy/-hr/-hb/-hT/-hi/-he -l`) as one band chart, like hp2ps:
// the ConvertOptions::heap_bands bands with the most residency over the run and "other" (the
// rest added up), stacked on one scale in a marker-graph track of the process (one marker per
// census, profiling/heap_chart.hpp). Marker-graph tracks come after the capability and thread
// tracks, so the chart never pushes them off the first screen, where counter tracks (one per
// band, before) always came first. Each census is also a marker listing its own largest bands;
// Profile Info gives each chart band's colour and peak. -hc bands are named by their
// cost-centre stacks ("main/runAll/stageBuild"), -hi bands by their info table and its source
// location (IPE events); biographical censuses (-hb) are placed by their own time field.
#pragma once

#include <cstddef>

#include "convert/profile_contributor.hpp"
#include "analysis/ghc_profiling/cost_centre_table.hpp"
#include "analysis/ghc_profiling/heap_profile.hpp"
#include "analysis/ghc_profiling/info_tables.hpp"

namespace el2fx::convert {

class HeapProfileContributor : public ProfileContributor {
public:
    // How many of a census's largest bands its marker lists.
    static constexpr std::size_t kMarkerBands = 5;

    explicit HeapProfileContributor(const ConvertOptions& options) : band_limit_(options.heap_bands) {}

    std::string_view name() const override { return "heap profile"; }
    void handle(const eventlog::Event& event) override;
    pass::Interests interests() const override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

    const profiling::HeapProfile& heap_profile() const { return heap_; }

private:
    std::size_t band_limit_;
    profiling::HeapProfile heap_;
    profiling::CostCentreTable cost_centres_;
    profiling::InfoTableCatalog info_tables_;
};

}  // namespace el2fx::convert
