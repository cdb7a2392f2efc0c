#include "analysis/ghc_profiling/heap_profile.hpp"

#include <algorithm>
#include <array>

namespace el2fx::profiling {

BreakdownInfo describe_breakdown(std::uint32_t code) {
    static constexpr std::array<BreakdownInfo, 10> kInfo = {{
        {"-h?", "an unknown breakdown"},
        {"-hc", "cost-centre stack"},
        {"-hm", "module"},
        {"-hd", "closure description"},
        {"-hy", "type"},
        {"-hr", "retainer set"},
        {"-hb", "biography"},
        {"-hT", "closure type"},
        {"-hi", "info table"},
        {"-he", "era"},
    }};
    return code < kInfo.size() ? kInfo[code] : kInfo[0];
}

pass::Interests HeapProfile::interests() {
    using namespace eventlog;
    return pass::Interests::of({HeapProfBegin::tag, HeapProfSampleBegin::tag, HeapProfSampleCostCentre::tag,
                                HeapProfSampleString::tag, HeapProfSampleEnd::tag, HeapBioProfSampleBegin::tag});
}

void HeapProfile::handle(const eventlog::Event& event) {
    using namespace eventlog;
    if (const auto* begin = event.as<HeapProfBegin>()) {
        if (info_) {
            // A second profile: keep its censuses only if it counts the same way.
            ignoring_ = begin->breakdown != info_->breakdown;
            return;
        }
        HeapProfileInfo info;
        info.breakdown = begin->breakdown;
        info.sampling_period_ns = begin->sampling_period;
        info.begin_time = event.time;
        const std::pair<std::string_view, CString> filters[] = {
            {"module", begin->module_filter},
            {"closure description", begin->closure_descr_filter},
            {"type", begin->type_descr_filter},
            {"cost centre", begin->cost_centre_filter},
            {"cost-centre stack", begin->cost_centre_stack_filter},
            {"retainer", begin->retainer_filter},
            {"biography", begin->biography_filter},
        };
        for (const auto& [what, text] : filters)
            if (!text.bytes.empty()) info.filters.emplace_back(what, std::string(text.bytes));
        info_ = std::move(info);
        return;
    }
    if (const auto* b = event.as<HeapProfSampleBegin>()) {
        if (ignoring_) return;
        open(event.time, b->era, false);
    } else if (const auto* bio = event.as<HeapBioProfSampleBegin>()) {
        if (ignoring_) return;
        open(bio->time, bio->era, true);
    } else if (const auto* cc = event.as<HeapProfSampleCostCentre>()) {
        if (ignoring_)
            ++stray_samples_;
        else if (!open_)
            ++stray_samples_;
        else
            add(band_for_stack(cc->stack), cc->residency);
    } else if (const auto* s = event.as<HeapProfSampleString>()) {
        if (ignoring_)
            ++stray_samples_;
        else if (!open_)
            ++stray_samples_;
        else
            add(band_for_label(s->label.bytes), s->residency);
    } else if (event.as<HeapProfSampleEnd>()) {
        if (open_) close(event.time);
    }
}

void HeapProfile::open(std::uint64_t time, std::uint64_t era, bool biographical) {
    if (open_) close(std::nullopt);  // GHC < 8.10: no SAMPLE_END
    open_ = HeapCensus{};
    open_->time = time;
    open_->era = era;
    open_->biographical = biographical;
    ++census_number_;
}

void HeapProfile::close(std::optional<std::uint64_t> end) {
    open_->end = end;
    censuses_.push_back(std::move(*open_));
    open_.reset();
}

void HeapProfile::finish() {
    if (open_) close(std::nullopt);
    std::stable_sort(censuses_.begin(), censuses_.end(),
                     [](const HeapCensus& a, const HeapCensus& b) { return a.time < b.time; });
}

std::uint32_t HeapProfile::band_for_stack(const eventlog::CostCentreStack& stack) {
    scratch_.resize(stack.size());
    for (std::size_t i = 0; i < scratch_.size(); ++i) scratch_[scratch_.size() - 1 - i] = stack[i];
    auto it = stack_bands_.find(scratch_);
    if (it != stack_bands_.end()) return it->second;
    auto band = static_cast<std::uint32_t>(bands_.size());
    bands_.push_back(HeapBand{true, scratch_, {}});
    stack_bands_.emplace(scratch_, band);
    return band;
}

std::uint32_t HeapProfile::band_for_label(std::string_view label) {
    std::string key(label);
    auto it = label_bands_.find(key);
    if (it != label_bands_.end()) return it->second;
    auto band = static_cast<std::uint32_t>(bands_.size());
    bands_.push_back(HeapBand{false, {}, key});
    label_bands_.emplace(std::move(key), band);
    return band;
}

void HeapProfile::add(std::uint32_t band, std::uint64_t bytes) {
    if (slot_.size() <= band) slot_.resize(band + 1), slot_census_.resize(band + 1, 0);
    open_->total += bytes;
    if (slot_census_[band] == census_number_) {  // the same band twice in one census
        open_->bands[slot_[band]].second += bytes;
        return;
    }
    slot_census_[band] = census_number_;
    slot_[band] = open_->bands.size();
    open_->bands.emplace_back(band, bytes);
}

std::vector<std::uint32_t> HeapProfile::top_bands(std::size_t n) const {
    std::vector<std::uint64_t> sums(bands_.size(), 0);
    for (const HeapCensus& c : censuses_)
        for (const auto& [band, bytes] : c.bands) sums[band] += bytes;
    std::vector<std::uint32_t> ranked;
    for (std::uint32_t b = 0; b < sums.size(); ++b)
        if (sums[b] > 0) ranked.push_back(b);
    std::stable_sort(ranked.begin(), ranked.end(), [&](std::uint32_t a, std::uint32_t b) { return sums[a] > sums[b]; });
    if (ranked.size() > n) ranked.resize(n);
    return ranked;
}

}  // namespace el2fx::profiling
