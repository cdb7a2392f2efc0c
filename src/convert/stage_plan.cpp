#include "convert/stage_plan.hpp"

#include <algorithm>

#include "analysis/gc/gc_analysis.hpp"
#include "analysis/threading/capability_stage.hpp"

namespace el2fx::convert {
namespace {

// Nanoseconds per event on this kind of machine (medians of `--timings` and `perf` per
// thread on the service and dense benchmark logs, tools/bench.sh). Only their ratios matter.
constexpr double kMergePerEvent = 20;       // the worker's merge and copy, every event
constexpr double kConsumerPerEvent = 45;    // the consumer, every event, nothing staged
constexpr double kGcOnWorker = 19;          // per event the GC analysis takes, on the worker
constexpr double kGcSaved = 14;             // what that saves the consumer
constexpr double kCapabilityOnWorker = 33;  // per event the capabilities' part takes, recorded
constexpr double kCapabilitySaved = 15;     // what that saves the consumer (replayed there)

}  // namespace

StagePlan plan_stages(const std::vector<std::uint64_t>& events_by_tag, std::uint64_t events) {
    double gc = 0, capability = 0;
    for (std::size_t tag = 0; tag < events_by_tag.size(); ++tag) {
        const auto n = static_cast<double>(events_by_tag[tag]);
        if (gc::GcAnalysis::concerns(static_cast<std::uint16_t>(tag))) gc += n;
        if (std::find(analysis::CapabilityStage::kTags.begin(), analysis::CapabilityStage::kTags.end(), tag) !=
            analysis::CapabilityStage::kTags.end())
            capability += n;
    }
    const auto all = static_cast<double>(events);
    StagePlan best;
    double best_time = 0;
    bool first = true;
    // Fewer stages first: a plan with more must save 2% of the pass (a stage has costs the
    // estimate leaves out: its output, the worker's wake-ups).
    for (const StagePlan plan : {StagePlan{false, false}, StagePlan{true, false}, StagePlan{false, true},
                                 StagePlan{true, true}}) {
        double worker = kMergePerEvent * all, consumer = kConsumerPerEvent * all;
        if (plan.gc) {
            worker += kGcOnWorker * gc;
            consumer -= kGcSaved * gc;
        }
        if (plan.capabilities) {
            worker += kCapabilityOnWorker * capability;
            consumer -= kCapabilitySaved * capability;
        }
        const double time = std::max(worker, consumer);
        if (first || time < 0.98 * best_time) {
            best = plan;
            best_time = time;
            first = false;
        }
    }
    return best;
}

}  // namespace el2fx::convert
