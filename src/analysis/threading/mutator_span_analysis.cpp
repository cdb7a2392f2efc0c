#include "analysis/threading/mutator_span_analysis.hpp"

namespace el2fx::analysis {

void MutatorSpanAnalysis::run_thread(std::uint64_t time, eventlog::ThreadId thread) {
    if (finished_.contains(thread)) return;
    if (!running_) {
        running_ = Running{thread, time};
    } else if (running_->thread != thread) {
        diagnostics_.add(Diagnostic::mutator_run_thread_mismatch);
    }
}

std::optional<MutatorSpan> MutatorSpanAnalysis::stop_thread(std::uint64_t time, eventlog::ThreadId thread,
                                                            std::uint16_t status) {
    if (!running_) return std::nullopt;
    if (running_->thread != thread) {
        diagnostics_.add(Diagnostic::mutator_stop_thread_mismatch);
        return std::nullopt;
    }
    MutatorSpan span{running_->since, time, thread};
    running_.reset();
    if (status == static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished)) finished_.insert(thread);
    return span;
}

std::optional<MutatorSpan> MutatorSpanAnalysis::finish(std::uint64_t end) {
    if (!running_) return std::nullopt;
    MutatorSpan span{running_->since, end, running_->thread};
    running_.reset();
    return span;
}

}  // namespace el2fx::analysis
