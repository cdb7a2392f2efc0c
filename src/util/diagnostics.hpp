// Recoverable problems, counted in one declared table (Perfetto's "stats" idea):
// a bad record is skipped and counted here; only structural faults throw.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace el2fx {

enum class Severity { info, data_loss };

#define EL2FX_DIAGNOSTICS(X)                                                                                           \
    X(unknown_event_type, info, "events of a declared but unknown type, skipped")                                      \
    X(payload_too_short, data_loss, "events shorter than their known layout, skipped")                                 \
    X(payload_longer_than_known, info, "events with trailing bytes this tool does not know")                           \
    X(declared_size_too_large, info,                                                                                   \
      "variable-size events declared longer than written, framed where their fields end (GHC 9.10's IPE)")           \
    X(truncated_input, data_loss, "input ended before the end-of-data marker")                                         \
    X(corrupt_data_skipped, data_loss, "stretches of corrupt data skipped up to the next block marker")                \
    X(timestamp_out_of_range, data_loss,                                                                               \
      "events stamped after their block's end time (or at 2^63 ns or later), given the time of the event before them") \
    X(invalid_utf8, info, "strings with invalid UTF-8, shown with U+FFFD")                                             \
    X(events_outside_block, info, "events written outside any block")                                                  \
    X(block_overrun, data_loss, "blocks whose declared size does not match their events")                              \
    X(reorder_window_exceeded, data_loss, "events too far out of time order to be sorted")                             \
    X(mutator_run_thread_mismatch, data_loss, "RunThread for another thread while one runs")                           \
    X(mutator_stop_thread_mismatch, data_loss, "StopThread for another thread than the running one")                   \
    X(event_after_thread_finished, info, "thread events after the thread finished, ignored")                           \
    X(thread_stopped_before_running, info, "StopThread for a thread never seen running")                               \
    X(gc_during_mutator_span, info, "GC_START while a thread ran; GC cut out of its mutator span")                     \
    X(user_span_stop_without_start, info, "STOP/GHC:finished messages with no open span of that name on their thread") \
    X(user_span_start_without_stop, info, "START/GHC:started messages whose span was never stopped")                   \
    X(scheduler_event_without_capability, data_loss, "thread or GC events outside any capability block, ignored")  \
    X(stack_sample_frame_without_ipe, info, "stack-sample frames whose info table has no IPE event, shown by address") \
    X(stack_sample_undefined_symbol, info,                                                                             \
      "stack-sample frames naming a string or source location never defined, shown by id")                           \
    X(stack_sample_truncated, data_loss, "stack samples cut off by the end of the log (chunks without FF CA), dropped") \
    X(stack_sample_interleaved, info, "stack-sample messages while another thread's chunks were pending (joined per thread)") \
    X(stack_sample_oversized, data_loss, "stack samples of more than a million frames, dropped")                     \
    X(stack_profiler_message_malformed, info,                                                                          \
      "USER_BINARY_MSG events tagged FF CA..FF CD that parse in no known layout, kept as the program's messages")     \
    X(stack_profiler_unknown_format, data_loss,                                                                        \
      "ghc-stack-profiler messages in a format this tool does not read (pre-release or newer), skipped")              \
    X(stack_profiler_layout_conflict, data_loss, "ghc-stack-profiler messages in another release's layout than the log's first")

enum class Diagnostic : std::uint8_t {
#define EL2FX_DIAG_ENUM(id, sev, text) id,
    EL2FX_DIAGNOSTICS(EL2FX_DIAG_ENUM)
#undef EL2FX_DIAG_ENUM
        count_
};

struct DiagnosticInfo {
    std::string_view id;
    Severity severity;
    std::string_view description;
};

constexpr std::size_t kDiagnosticCount = static_cast<std::size_t>(Diagnostic::count_);

constexpr std::array<DiagnosticInfo, kDiagnosticCount> kDiagnosticInfo = {{
#define EL2FX_DIAG_INFO(id, sev, text) {#id, Severity::sev, text},
    EL2FX_DIAGNOSTICS(EL2FX_DIAG_INFO)
#undef EL2FX_DIAG_INFO
}};

class Diagnostics {
public:
    void add(Diagnostic d, std::uint64_t n = 1) {
        counts_[index(d)] += n;
        total_ += n;
    }
    // Sum of all counts: a cheap way to notice that something was just counted.
    std::uint64_t total() const { return total_; }
    std::uint64_t count(Diagnostic d) const { return counts_[index(d)]; }
    void merge(const Diagnostics& other) {
        for (std::size_t i = 0; i < kDiagnosticCount; ++i) counts_[i] += other.counts_[i];
        total_ += other.total_;
    }
    bool any_data_loss() const {
        for (std::size_t i = 0; i < kDiagnosticCount; ++i)
            if (counts_[i] && kDiagnosticInfo[i].severity == Severity::data_loss) return true;
        return false;
    }
    static const DiagnosticInfo& info(Diagnostic d) { return kDiagnosticInfo[index(d)]; }

private:
    static constexpr std::size_t index(Diagnostic d) { return static_cast<std::size_t>(d); }
    std::array<std::uint64_t, kDiagnosticCount> counts_{};
    std::uint64_t total_ = 0;
};

}  // namespace el2fx
