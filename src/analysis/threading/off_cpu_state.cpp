#include "analysis/threading/off_cpu_state.hpp"

#include "analysis/threading/stop_status_text.hpp"
#include "eventlog/event_types.hpp"

namespace el2fx::analysis {

OffCpuKind off_cpu_kind(std::uint16_t status) {
    using eventlog::StopStatus;
    switch (static_cast<StopStatus>(status)) {
        case StopStatus::HeapOverflow:
        case StopStatus::StackOverflow: return OffCpuKind::waiting_for_gc;
        case StopStatus::ThreadYielding:
        case StopStatus::ThreadMigrating: return OffCpuKind::runnable;
        case StopStatus::ForeignCall:
        case StopStatus::BlockedOnCCall:
        case StopStatus::BlockedOnCCall_Interruptible: return OffCpuKind::foreign_call;
        default: return OffCpuKind::blocked;
    }
}

std::string_view off_cpu_kind_name(OffCpuKind kind) {
    switch (kind) {
        case OffCpuKind::waiting_for_gc: return "Waiting for GC";
        case OffCpuKind::runnable: return "Runnable";
        case OffCpuKind::foreign_call: return "In foreign call";
        case OffCpuKind::blocked: return "Blocked";
    }
    return "Blocked";
}

std::string off_cpu_marker_name(std::uint16_t status) {
    const OffCpuKind kind = off_cpu_kind(status);
    if (kind != OffCpuKind::blocked) return std::string(off_cpu_kind_name(kind));
    std::string text = stop_status_text(status);  // "blocked on an MVar", "thread blocked", …
    if (text.rfind("blocked", 0) != 0) return "Blocked (" + text + ")";
    text[0] = 'B';
    return text;
}

void StopStatusTally::add(std::uint16_t status, std::uint64_t duration) {
    std::size_t slot = status < kSlots - 1 ? status : kSlots - 1;
    if (slot == kSlots - 1) largest_unknown_ = status;
    if (!first_) first_ = status;
    totals_[slot] += duration;
}

std::uint16_t StopStatusTally::dominant() const {
    std::size_t best = 0;
    for (std::size_t i = 1; i < kSlots; ++i)
        if (totals_[i] > totals_[best]) best = i;
    if (totals_[best] == 0) return first_.value_or(0);
    return best == kSlots - 1 ? largest_unknown_ : static_cast<std::uint16_t>(best);
}

}  // namespace el2fx::analysis
