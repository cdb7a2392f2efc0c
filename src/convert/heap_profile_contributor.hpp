// A heap profile (`+RTS -hc/-hm/-hd/-hy/-hr/-hb/-hT/-hi/-he -l`) as counter tracks, like
// eventlog2html's bands: the ConvertOptions::heap_bands bands with the most residency over the
// run get a counter each (their residency at every census), the rest are added up in "other".
// Each census is also a marker on the process track listing its own largest bands. -hc bands
// are named by their cost-centre stacks ("main/runAll/stageBuild"), -hi bands by their info
// table and its source location (IPE events); biographical censuses (-hb) are placed by their
// own time field.
#pragma once

#include <cstddef>

#include "convert/profile_contributor.hpp"
#include "profiling/cost_centre_table.hpp"
#include "profiling/heap_profile.hpp"
#include "profiling/info_tables.hpp"

namespace el2fx::convert {

class HeapProfileContributor : public ProfileContributor {
public:
    // How many of a census's largest bands its marker lists.
    static constexpr std::size_t kMarkerBands = 5;

    explicit HeapProfileContributor(const ConvertOptions& options) : band_limit_(options.heap_bands) {}

    std::string_view name() const override { return "heap profile"; }
    void handle(const eventlog::Event& event) override;
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
