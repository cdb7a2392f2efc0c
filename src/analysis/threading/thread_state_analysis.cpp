#include "analysis/threading/thread_state_analysis.hpp"

namespace el2fx::analysis {

std::optional<ThreadStateSpan> ThreadStateAnalysis::run_thread(std::uint64_t time, eventlog::CapNo cap) {
    if (phase_ == Phase::finished) {
        diagnostics_.add(Diagnostic::event_after_thread_finished);
        return std::nullopt;
    }
    if (phase_ == Phase::in_span && current_.state == ThreadState::running) return std::nullopt;
    auto span = close_span(time);
    phase_ = Phase::in_span;
    current_ = ThreadActivity::running(cap);
    since_ = time;
    return span;
}

std::optional<ThreadStateSpan> ThreadStateAnalysis::stop_thread(std::uint64_t time, std::uint16_t status,
                                                                eventlog::ThreadId blocker) {
    if (phase_ == Phase::finished) {
        diagnostics_.add(Diagnostic::event_after_thread_finished);
        return std::nullopt;
    }
    // The seed draws no StopThread from [*]; such a thread ran from an unknown
    // time, so it gets no Running span but its blocked time is still known.
    if (phase_ == Phase::not_started) diagnostics_.add(Diagnostic::thread_stopped_before_running);
    auto span = close_span(time);
    if (status == static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished)) {
        phase_ = Phase::finished;
    } else {
        phase_ = Phase::in_span;
        current_ = ThreadActivity::blocked(BlockReason{status, blocker});
        since_ = time;
    }
    return span;
}

std::optional<ThreadStateSpan> ThreadStateAnalysis::stopped_at_start(std::uint64_t time, std::uint16_t status,
                                                                     eventlog::ThreadId blocker) {
    if (phase_ != Phase::not_started ||
        status == static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished))
        return stop_thread(time, status, blocker);
    phase_ = Phase::in_span;
    current_ = ThreadActivity::blocked(BlockReason{status, blocker});
    since_ = time;
    return std::nullopt;
}

void ThreadStateAnalysis::wakeup_thread() {
    if (phase_ == Phase::finished) diagnostics_.add(Diagnostic::event_after_thread_finished);
}

std::optional<ThreadStateSpan> ThreadStateAnalysis::finish(std::uint64_t end) {
    auto span = close_span(end);
    if (phase_ == Phase::in_span) phase_ = Phase::not_started;
    return span;
}

std::optional<ThreadStateSpan> ThreadStateAnalysis::close_span(std::uint64_t time) {
    if (phase_ != Phase::in_span) return std::nullopt;
    return ThreadStateSpan{since_, time, current_};
}

}  // namespace el2fx::analysis
