#include "util/progress.hpp"

namespace el2fx::util {

void Progress::begin(const char* phase, std::uint64_t total) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    phase_ = phase;
    start_ = bytes_.load(std::memory_order_relaxed);
    total_ = total;
    began_ = now;
}

Progress::Snapshot Progress::snapshot() const {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    Snapshot s;
    s.phase = phase_;
    if (!phase_) return s;
    const std::uint64_t bytes = bytes_.load(std::memory_order_relaxed);
    s.done = bytes > start_ ? bytes - start_ : 0;
    s.total = total_;
    s.seconds = std::chrono::duration<double>(now - began_).count();
    return s;
}

}  // namespace el2fx::util
