// How far a long piece of work has got, for a display on another thread (cli/progress_line):
// the work publishes, the display takes snapshots; neither waits for the other. The work
// counts bytes in large steps only (a read of a chunk or a block, never an event), so the
// counting costs nothing next to the work, and it never reads a clock but at a phase's start.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

namespace el2fx::util {

class Progress {
public:
    // A new phase ("index", "census", "events", "write"; a string that outlives the work) of
    // `total` bytes, 0 when not known (standard input before it is spooled, the profile's JSON).
    void begin(const char* phase, std::uint64_t total);
    // `bytes` more done (read) in this phase; from any thread.
    void add(std::uint64_t bytes) { bytes_.fetch_add(bytes, std::memory_order_relaxed); }
    // The work is over: nothing to show.
    void end() { begin(nullptr, 0); }

    struct Snapshot {
        const char* phase = nullptr;  // nullptr: no phase under way
        std::uint64_t done = 0;       // bytes, in this phase
        std::uint64_t total = 0;      // 0: not known
        double seconds = 0;           // since the phase began
    };
    Snapshot snapshot() const;

private:
    mutable std::mutex mutex_;  // the phase's fields, taken at a phase's start and by snapshots
    const char* phase_ = nullptr;
    std::uint64_t start_ = 0;  // bytes_ when the phase began
    std::uint64_t total_ = 0;
    std::chrono::steady_clock::time_point began_{};
    std::atomic<std::uint64_t> bytes_{0};
};

}  // namespace el2fx::util
