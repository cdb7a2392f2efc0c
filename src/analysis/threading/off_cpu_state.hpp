// Why a Haskell thread is not running, in the words a reader of a profile needs. STOP_THREAD's
// status says why the thread stopped, and most stops are no concurrency problem: a heap
// overflow means "stopped so that the GC can run", a yield means "ready, waiting for its
// capability". Only the real blocking reasons (MVar, black hole, STM, throwTo, delay, I/O)
// are "Blocked". The thread-state automaton's spans stay as they are; this names them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace el2fx::analysis {

enum class OffCpuKind : std::uint8_t {
    waiting_for_gc,  // HeapOverflow; StackOverflow (the stack grows, as at a GC)
    runnable,        // ThreadYielding (preempted), ThreadMigrating: ready to run
    foreign_call,    // ForeignCall, BlockedOnCCall*: running C code outside the RTS
    blocked,         // MVar, black hole, STM, throwTo, delay, I/O, and any other status
};
inline constexpr std::size_t kOffCpuKinds = 4;

OffCpuKind off_cpu_kind(std::uint16_t status);

// "Waiting for GC", "Runnable", "In foreign call", "Blocked": the root frame of the kind.
std::string_view off_cpu_kind_name(OffCpuKind kind);

// The name of a stopped span's marker (its row in the marker chart): the kind's name, except
// for blocked threads, named by their reason ("Blocked on an MVar", "Blocked in STM retry").
std::string off_cpu_marker_name(std::uint16_t status);

// The off-CPU time of a group of spans by stop status, to name the group by the status that
// took most of it (a merged marker "Blocked on an MVar ×7").
class StopStatusTally {
public:
    void add(std::uint16_t status, std::uint64_t duration);
    void reset() {
        totals_.fill(0);
        first_.reset();
    }
    // The status with the most time (the lowest on a tie); the first one added when all took
    // no time; 0 when none was added.
    std::uint16_t dominant() const;

private:
    static constexpr std::size_t kSlots = 32;  // statuses 0..30; 31 holds larger, unknown ones
    std::array<std::uint64_t, kSlots> totals_{};
    std::uint16_t largest_unknown_ = kSlots - 1;
    std::optional<std::uint16_t> first_;
};

}  // namespace el2fx::analysis
