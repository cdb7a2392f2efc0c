#include "fxprof/temp_files.hpp"

#include <atomic>
#include <climits>
#include <cstring>
#include <unistd.h>

namespace el2fx::fxprof {
namespace {

enum SlotState : int { kFree = 0, kFilling = 1, kReady = 2 };

struct Slot {
    std::atomic<int> state{kFree};
    char path[PATH_MAX];
};

constexpr int kSlots = 16;  // output files open at once in one process: one in practice
Slot g_slots[kSlots];

static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need lock-free atomics");

}  // namespace

int register_temp_file(std::string_view path) noexcept {
    if (path.empty() || path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = kFree;
        if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
        std::memcpy(g_slots[i].path, path.data(), path.size());
        g_slots[i].path[path.size()] = '\0';
        g_slots[i].state.store(kReady, std::memory_order_release);
        return i;
    }
    return -1;
}

void unregister_temp_file(int slot) noexcept {
    if (slot >= 0 && slot < kSlots) g_slots[slot].state.store(kFree, std::memory_order_release);
}

void remove_registered_temp_files() noexcept {
    for (Slot& slot : g_slots)
        if (slot.state.load(std::memory_order_acquire) == kReady) ::unlink(slot.path);
}

}  // namespace el2fx::fxprof
