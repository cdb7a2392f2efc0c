// The CPU time the calling thread has used, for --timings: which of a phase's two threads
// bounds it (wall time alone cannot tell a busy phase from one that waits).
#pragma once

#include <ctime>

namespace el2fx::util {

// Seconds of CPU (user and system) this thread has used so far; 0 where the clock is missing.
inline double thread_cpu_seconds() {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace el2fx::util
