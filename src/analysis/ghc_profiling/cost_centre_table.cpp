#include "analysis/ghc_profiling/cost_centre_table.hpp"

namespace el2fx::profiling {
namespace {

CostCentreKind kind_of(const CostCentre& cc) {
    if (cc.srcloc == "<built-in>") {
        if (cc.module == "IDLE") return CostCentreKind::idle;
        if (cc.module == "GC" && cc.label == "GC") return CostCentreKind::gc;
        return CostCentreKind::runtime;
    }
    return cc.is_caf ? CostCentreKind::caf : CostCentreKind::program;
}

}  // namespace

std::string CostCentre::display_name() const {
    if (!is_caf) return label;
    if (label == "CAF") return "CAF:" + module;
    if (label.starts_with("CAF")) return label;
    return label + " (CAF)";
}

pass::Interests CostCentreTable::interests() { return pass::Interests::of({eventlog::HeapProfCostCentre::tag}); }

void CostCentreTable::define(const eventlog::HeapProfCostCentre& event) {
    CostCentre cc;
    cc.id = event.cost_centre;
    cc.label = std::string(event.label.bytes);
    cc.module = std::string(event.module.bytes);
    cc.srcloc = std::string(event.srcloc.bytes);
    cc.is_caf = (event.flags & 1) != 0;
    define(std::move(cc));
}

void CostCentreTable::define(CostCentre cc) {
    cc.kind = kind_of(cc);
    cc.location = parse_source_location(cc.srcloc);
    auto it = index_.find(cc.id);
    if (it != index_.end()) {
        centres_[it->second] = std::move(cc);
        return;
    }
    index_.emplace(cc.id, centres_.size());
    centres_.push_back(std::move(cc));
}

const CostCentre* CostCentreTable::find(std::uint32_t id) const {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &centres_[it->second];
}

std::string CostCentreTable::name(std::uint32_t id) const {
    const CostCentre* cc = find(id);
    return cc ? cc->display_name() : "cost centre " + std::to_string(id);
}

CostCentreKind CostCentreTable::kind(std::uint32_t id) const {
    const CostCentre* cc = find(id);
    return cc ? cc->kind : CostCentreKind::program;
}

std::string CostCentreTable::stack_name(std::span<const std::uint32_t> root_first) const {
    if (root_first.empty()) return "MAIN";
    std::string out;
    for (std::uint32_t id : root_first) {
        if (!out.empty()) out += '/';
        out += name(id);
    }
    return out;
}

std::vector<std::uint32_t> root_first(const eventlog::CostCentreStack& stack) {
    std::vector<std::uint32_t> ids(stack.size());
    for (std::size_t i = 0; i < stack.size(); ++i) ids[stack.size() - 1 - i] = stack[i];
    return ids;
}

}  // namespace el2fx::profiling
