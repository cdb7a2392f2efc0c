// A heap profile written to the eventlog (`+RTS -h<x> -l`): HEAP_PROF_BEGIN (160) says how the
// heap is broken down; each census is HEAP_PROF_SAMPLE_BEGIN (162) or, for -hb,
// HEAP_BIO_PROF_SAMPLE_BEGIN (166), then one HEAP_PROF_SAMPLE_COST_CENTRE (163, -hc) or
// HEAP_PROF_SAMPLE_STRING (164, the other breakdowns) per band, then HEAP_PROF_SAMPLE_END (165;
// GHC < 8.10 writes none: a census then ends at the next one). A band is what the census counts
// residency by: a cost-centre stack, a closure type, a module, a type, an info table, ...
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eventlog/event.hpp"
#include "pass/interests.hpp"

namespace el2fx::profiling {

// HEAP_PROF_BEGIN's breakdown codes (eventlog-facts §4.2).
enum class HeapBreakdown : std::uint32_t {
    cost_centre_stack = 1,    // -hc
    module = 2,               // -hm
    closure_description = 3,  // -hd
    type_description = 4,     // -hy
    retainer = 5,             // -hr
    biography = 6,            // -hb
    closure_type = 7,         // -hT
    info_table = 8,           // -hi
    era = 9,                  // -he
};

struct BreakdownInfo {
    std::string_view flag;  // "-hc"; "-h?" for a code this tool does not know
    std::string_view by;    // "cost-centre stack"
};
BreakdownInfo describe_breakdown(std::uint32_t code);

struct HeapProfileInfo {
    std::uint32_t breakdown = 0;
    std::uint64_t sampling_period_ns = 0;
    std::uint64_t begin_time = 0;
    // The -hc/-hm/... restrictions given on the command line; empty when none.
    std::vector<std::pair<std::string_view, std::string>> filters;
};

struct HeapBand {
    bool is_stack = false;
    std::vector<std::uint32_t> stack;  // -hc: cost-centre ids, root first
    std::string label;                 // the other breakdowns: the sample's label
};

struct HeapCensus {
    std::uint64_t time = 0;            // where it belongs: its begin, or a biographical census's own time
    std::optional<std::uint64_t> end;  // HEAP_PROF_SAMPLE_END's time, when written
    std::uint64_t era = 0;
    bool biographical = false;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> bands;  // (band, bytes), one entry per band
    std::uint64_t total = 0;
};

class HeapProfile {
public:
    // The heap-profile events (HEAP_PROF_BEGIN, the censuses' samples), given and read.
    static pass::Interests interests();
    // Any event: those of interests() count, the others are passed over.
    void handle(const eventlog::Event& event);
    // Closes an open census and puts the censuses in time order (biographical censuses are
    // written at the end of the log but belong where their time field says).
    void finish();

    const std::optional<HeapProfileInfo>& info() const { return info_; }
    const std::vector<HeapBand>& bands() const { return bands_; }
    const std::vector<HeapCensus>& censuses() const { return censuses_; }
    // The n bands with the most residency summed over all censuses (as eventlog2html and hp2ps
    // rank them), most first; bands never above 0 are left out. Ties: the band seen first.
    std::vector<std::uint32_t> top_bands(std::size_t n) const;
    // Band samples that came outside any census, and censuses of a second HEAP_PROF_BEGIN with
    // another breakdown (not mixed into the first profile's bands).
    std::uint64_t stray_samples() const { return stray_samples_; }

private:
    std::uint32_t band_for_stack(const eventlog::CostCentreStack& stack);
    std::uint32_t band_for_label(std::string_view label);
    void add(std::uint32_t band, std::uint64_t bytes);
    void open(std::uint64_t time, std::uint64_t era, bool biographical);
    void close(std::optional<std::uint64_t> end);

    std::optional<HeapProfileInfo> info_;
    bool ignoring_ = false;  // inside a second profile with another breakdown
    std::vector<HeapBand> bands_;
    std::map<std::vector<std::uint32_t>, std::uint32_t> stack_bands_;
    std::unordered_map<std::string, std::uint32_t> label_bands_;
    std::vector<HeapCensus> censuses_;
    std::optional<HeapCensus> open_;
    std::vector<std::size_t> slot_;           // band -> index in open_->bands
    std::vector<std::uint64_t> slot_census_;  // band -> census number the slot belongs to (+1)
    std::uint64_t census_number_ = 0;
    std::uint64_t stray_samples_ = 0;
    std::vector<std::uint32_t> scratch_;
};

}  // namespace el2fx::profiling
