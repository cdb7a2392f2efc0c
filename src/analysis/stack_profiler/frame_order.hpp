// Which end of a sample's entries (in the order written) is the root of the stack
// (WIRE-FORMAT.md, section 10): 0.3+ writes the outermost frame first, 0.1–0.2 the innermost.
// On GHC < 9.14 both write the same bytes but for the order, so the layout is proved only by an
// 03 entry or an FF CD; otherwise the stacks' shape tells: a thread's outermost frame (its
// first continuation) stays the same from sample to sample while its innermost one changes.
// Until either tells, the current release's order (outermost first) is assumed; once one does,
// the decision stays (a proved layout overrides a shape guess).
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>

#include "analysis/stack_profiler/stack_message.hpp"

namespace el2fx::stack_profiler {

// Samples agreeing before the shape decides, and how far ahead of the other way they must be.
constexpr std::uint64_t kShapeVotes = 8;
constexpr std::uint64_t kShapeMargin = 3;

class FrameOrder {
public:
    enum class Basis : std::uint8_t { assumed, layout, shape };

    void prove(Layout layout);
    // Each sample of `thread`, entries in the order written.
    void sample(std::uint32_t thread, std::span<const Entry> entries);

    bool outermost_first() const { return outermost_first_; }
    Basis basis() const { return basis_; }
    // Consecutive samples of a thread whose first (outermost_votes) or last entry stayed while the other end moved.
    std::uint64_t outermost_votes() const { return votes_first_; }
    std::uint64_t innermost_votes() const { return votes_last_; }

private:
    struct Ends {
        Entry first, last;
    };
    bool outermost_first_ = true;
    Basis basis_ = Basis::assumed;
    std::uint64_t votes_first_ = 0, votes_last_ = 0;
    std::unordered_map<std::uint32_t, Ends> previous_;  // by thread: one entry per sampled thread
};

}  // namespace el2fx::stack_profiler
