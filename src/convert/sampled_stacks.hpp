// Stacks that real stack samples give the threading mapper's virtual samples: a part that knows
// where a Haskell thread's code was at a time (ghc-stack-profiler's samples) extends the stack of
// the thread's state at that time ("Running", "Blocked → MVar" …) with the Haskell call stack.
// Set in ProfileContext::sampled_stacks by that part's begin(); the mapper asks for every
// virtual sample of a thread with a track of its own, as it adds it.
#pragma once

#include <cstdint>

#include "eventlog/event_types.hpp"
#include "fxprof/handles.hpp"

namespace el2fx::convert {

class SampledStacks {
public:
    virtual ~SampledStacks() = default;
    // The stack of `thread`'s virtual sample at `time` whose state's stack is `state`.
    virtual fxprof::StackHandle stack_at(eventlog::ThreadId thread, std::uint64_t time, fxprof::StackHandle state) = 0;
};

}  // namespace el2fx::convert
