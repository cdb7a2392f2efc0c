#include "analysis/ghc_profiling/band_names.hpp"

#include "analysis/ghc_profiling/closure_types.hpp"

namespace el2fx::profiling {
namespace {

// An -hi band as a Haskell developer reads it: the binding (the IPE label, else the info
// table's name), its type, the closure's kind and where it is defined.
std::string info_table_band_name(const InfoTable& t, const std::string& address) {
    std::string name = !t.label.empty() ? t.label : !t.table_name.empty() ? t.table_name : address;
    if (!t.ty_desc.empty()) name += " :: " + t.ty_desc;
    const std::string_view kind = closure_type_name(t.closure_desc);
    if (!kind.empty()) name += " (" + std::string(kind) + ")";
    if (has_source_location(t))
        name += " at " + t.src_loc;
    else if (!t.module.empty())
        name += " in " + t.module;
    return name;
}

}  // namespace

std::string band_name(const HeapBand& band, std::uint32_t breakdown, const CostCentreTable& cost_centres,
                      const InfoTableCatalog& info_tables) {
    if (band.is_stack) return cost_centres.stack_name(band.stack);
    switch (static_cast<HeapBreakdown>(breakdown)) {
        case HeapBreakdown::info_table:
            if (const InfoTable* t = info_tables.find_label(band.label)) return info_table_band_name(*t, band.label);
            return band.label;
        case HeapBreakdown::era: return "era " + band.label;
        default: return band.label.empty() ? std::string("(no label)") : band.label;
    }
}

std::string band_description(const HeapBand& band, std::uint32_t breakdown, const CostCentreTable& cost_centres,
                             const InfoTableCatalog& info_tables) {
    BreakdownInfo how = describe_breakdown(breakdown);
    std::string text = "Heap residency (" + std::string(how.flag) + ", by " + std::string(how.by) + ") of " +
                       band_name(band, breakdown, cost_centres, info_tables);
    if (band.is_stack && !band.stack.empty()) {
        if (const CostCentre* leaf = cost_centres.find(band.stack.back())) {
            text += "; innermost cost centre " + leaf->display_name() + " in " + leaf->module;
            if (!leaf->srcloc.empty()) text += " at " + leaf->srcloc;
        }
    }
    if (static_cast<HeapBreakdown>(breakdown) == HeapBreakdown::info_table) {
        if (const InfoTable* t = info_tables.find_label(band.label)) {
            text += "; info table " + band.label;
            if (!t->ty_desc.empty()) text += ", type " + t->ty_desc;
            if (!t->module.empty()) text += ", module " + t->module;
            if (!t->closure_desc.empty()) text += ", closure type " + std::string(closure_type_name(t->closure_desc));
            if (!t->table_name.empty()) text += ", " + t->table_name;
        }
    }
    return text;
}

}  // namespace el2fx::profiling
