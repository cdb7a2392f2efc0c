// The cost centres a profiled program declares (HEAP_PROF_COST_CENTRE, tag 161): what time-profile
// ticks and -hc heap bands name by number. Stacks on the wire list the innermost cost centre first
// and leave out MAIN; everything here takes and gives them root first.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eventlog/event.hpp"
#include "eventlog/event_types.hpp"
#include "pass/interests.hpp"
#include "analysis/ghc_profiling/source_location.hpp"

namespace el2fx::profiling {

// What the runtime means by a cost centre. Its own pseudo cost centres have the source
// "<built-in>": IDLE (a capability with nothing to run), GC, and the rest (SYSTEM, PINNED,
// OVERHEAD_of, DONT_CARE, MAIN), which the `.prof` report leaves out of the total time too.
enum class CostCentreKind : std::uint8_t { program, caf, idle, gc, runtime };

struct CostCentre {
    std::uint32_t id = 0;
    std::string label{};   // "stageNumeric.go", "CAF"
    std::string module{};  // "Main"
    std::string srcloc{};  // as written: "profiled.hs:(56,9)-(57,73)", "<entire-module>"
    bool is_caf = false;
    CostCentreKind kind = CostCentreKind::program;
    SourceLocation location{};  // parsed srcloc

    // The label, with the CAF flag kept: "CAF:Main" for a module's CAFs (label "CAF"),
    // "name (CAF)" for a named CAF whose label does not say so.
    std::string display_name() const;
};

class CostCentreTable {
public:
    // The cost centres' definitions (HEAP_PROF_COST_CENTRE), given and read.
    static pass::Interests interests();
    // Any event: a definition defines, the others are passed over.
    void handle(const eventlog::Event& event) {
        if (const auto* cc = event.as<eventlog::HeapProfCostCentre>()) define(*cc);
    }
    void define(const eventlog::HeapProfCostCentre& event);
    void define(CostCentre cc);  // a later definition of the same id replaces the earlier

    const CostCentre* find(std::uint32_t id) const;
    std::size_t size() const { return index_.size(); }
    // display_name(), or "cost centre N" for an id never defined.
    std::string name(std::uint32_t id) const;
    CostCentreKind kind(std::uint32_t id) const;  // program for an id never defined
    // "main/runAll/stageBuild" (root first); "MAIN" for the empty stack.
    std::string stack_name(std::span<const std::uint32_t> root_first) const;

private:
    std::vector<CostCentre> centres_;
    std::unordered_map<std::uint32_t, std::size_t> index_;
};

// A wire stack (innermost first) as ids root first.
std::vector<std::uint32_t> root_first(const eventlog::CostCentreStack& stack);

}  // namespace el2fx::profiling
