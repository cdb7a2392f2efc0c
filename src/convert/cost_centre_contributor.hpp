// The cost-centre time profile (`+RTS -p -l`) as call stacks: each HEAP_PROF_COST_CENTRE becomes
// a function (name: the label, resource: the module, file/line/column: the source span); each
// PROF_SAMPLE_COST_CENTRE tick becomes a sample whose stack is the cost-centre stack, root first.
//  - A capability's track gets every tick of that capability: "Idle" or "GC" when the runtime
//    says so (its IDLE and GC cost centres), otherwise the stack under the mutator frames of the
//    Haskell thread running there ("Mutator" > "12 worker" > main > ...), or alone when the
//    scheduler events name no thread.
//  - The running thread's track gets the same stack (under its name on the shared
//    "other threads" track).
//  - Ticks replace the virtual timer's samples where they cover (profiling::TickCoverage, from
//    the first pass, shared with the threading mapper through the context): all of a capability's,
//    a thread's on-CPU ones. The CPU time the replaced samples carried goes to the ticks
//    (profiling::distribute_replaced_cpu), so CPU deltas still add up to the Run/Stop time.
#pragma once

#include "convert/profile_contributor.hpp"
#include "analysis/ghc_profiling/cost_centre_table.hpp"
#include "analysis/ghc_profiling/time_profile.hpp"

namespace el2fx::convert {

class CostCentreContributor : public ProfileContributor {
public:
    explicit CostCentreContributor(const ConvertOptions& options);

    std::string_view name() const override { return "cost-centre time profile"; }
    void handle(const eventlog::Event& event) override;
    pass::Interests interests() const override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

    const profiling::CostCentreTable& cost_centres() const { return cost_centres_; }
    const profiling::TimeProfile& time_profile() const { return time_profile_; }

private:
    profiling::CostCentreTable cost_centres_;
    profiling::TimeProfile time_profile_;
};

}  // namespace el2fx::convert
