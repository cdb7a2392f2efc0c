#include "analysis/threading/capability_usage_analysis.hpp"

namespace el2fx::analysis {

CapabilityUsageAnalysis::CapabilityUsageAnalysis(std::uint64_t start_time, Diagnostics& diagnostics)
    : diagnostics_(diagnostics), mutator_(diagnostics), start_time_(start_time), since_(start_time) {}

std::optional<CapabilitySpan> CapabilityUsageAnalysis::run_thread(std::uint64_t time, eventlog::ThreadId thread) {
    mutator_.run_thread(time, thread);
    return update(time);
}

std::optional<CapabilitySpan> CapabilityUsageAnalysis::stop_thread(std::uint64_t time, eventlog::ThreadId thread,
                                                                   std::uint16_t status) {
    // The mutator span it may return is the uncut one; this analysis derives its
    // own spans from the two automata's states.
    (void)mutator_.stop_thread(time, thread, status);
    return update(time);
}

std::optional<CapabilitySpan> CapabilityUsageAnalysis::start_gc(std::uint64_t time) {
    if (!gc_.in_gc() && mutator_.running_thread()) diagnostics_.add(Diagnostic::gc_during_mutator_span);
    if (!gc_.in_gc()) phase_ = GcPhase::collecting;
    gc_.start_gc(time);
    return update(time);
}

std::optional<CapabilitySpan> CapabilityUsageAnalysis::end_gc(std::uint64_t time) {
    (void)gc_.end_gc(time);
    return update(time);
}

std::optional<CapabilitySpan> CapabilityUsageAnalysis::finish(std::uint64_t end) {
    (void)gc_.finish(end);
    (void)mutator_.finish(end);
    // Unlike an event, the end closes the current span even when it is idle.
    return switch_to(end, CapabilityActivity::idle());
}

void CapabilityUsageAnalysis::gc_phase(GcPhase phase) {
    if (gc_.in_gc()) phase_ = phase;
}

std::optional<CapabilitySpan> CapabilityUsageAnalysis::update(std::uint64_t time) {
    CapabilityActivity next = derived_activity();
    if (next == current_) return std::nullopt;
    return switch_to(time, next);
}

std::optional<CapabilitySpan> CapabilityUsageAnalysis::switch_to(std::uint64_t time, CapabilityActivity next) {
    CapabilitySpan span{since_, time, current_};
    current_ = next;
    since_ = time;
    if (span.start == span.end) return std::nullopt;
    return span;
}

}  // namespace el2fx::analysis
