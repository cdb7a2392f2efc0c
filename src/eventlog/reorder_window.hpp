// How far out of order a run of records is: the lookahead a stable sort by time needs.
// An event at index i must overtake every earlier event with a larger time; the earliest such
// event is found by binary search over the (non-decreasing) running maximum of the last
// kMaxReorderWindow times. Memory is fixed: one ring of kMaxReorderWindow times.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace el2fx::eventlog {

// Largest lookahead a range gets; a range more disordered than this is merged
// approximately and counted as reorder_window_exceeded.
constexpr std::uint32_t kMaxReorderWindow = 4096;

class ReorderWindow {
public:
    ReorderWindow() : prefix_max_(kMaxReorderWindow) {}

    // Starts a new run of records.
    void restart() {
        count_ = 0;
        window_ = 1;
    }

    // The next record's time; false if the run needs more than kMaxReorderWindow (the window
    // then stays at kMaxReorderWindow).
    bool add(std::uint64_t time) {
        bool fits = true;
        const std::uint64_t running_max =
            count_ == 0 ? time : std::max(time, prefix_max_[(count_ - 1) % kMaxReorderWindow]);
        if (count_ > 0 && time < running_max) {
            // Oldest index still in the ring, and the first of those with a larger time.
            const std::uint64_t lo = count_ > kMaxReorderWindow ? count_ - kMaxReorderWindow : 0;
            if (prefix_max_[lo % kMaxReorderWindow] > time && lo > 0) {
                window_ = kMaxReorderWindow;
                fits = false;
            } else {
                std::uint64_t a = lo, b = count_ - 1;  // prefix_max_[b] > time is known
                while (a < b) {
                    const std::uint64_t mid = a + (b - a) / 2;
                    if (prefix_max_[mid % kMaxReorderWindow] > time)
                        b = mid;
                    else
                        a = mid + 1;
                }
                window_ = static_cast<std::uint32_t>(std::max<std::uint64_t>(window_, count_ - a + 1));
            }
        }
        prefix_max_[count_ % kMaxReorderWindow] = running_max;
        ++count_;
        return fits;
    }

    // The lookahead that sorts the run so far exactly (1: already sorted).
    std::uint32_t window() const { return window_; }

private:
    std::vector<std::uint64_t> prefix_max_;
    std::uint64_t count_ = 0;
    std::uint32_t window_ = 1;
};

}  // namespace el2fx::eventlog
