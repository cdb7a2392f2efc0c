#include "util/temp_files.hpp"

#include <atomic>
#include <climits>
#include <cstring>
#include <unistd.h>

namespace el2fx::util {
namespace {

enum SlotState : int { kFree = 0, kFilling = 1, kReady = 2 };

struct Slot {
    std::atomic<int> state{kFree};
    bool directory = false;
    char path[PATH_MAX];
};

// Paths registered at once in one process: an output file, or a recording's directory with its
// FIFO and spool file and then the output file.
constexpr int kSlots = 16;
Slot g_slots[kSlots];

static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need lock-free atomics");

int register_path(std::string_view path, bool directory) noexcept {
    if (path.empty() || path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = kFree;
        if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
        std::memcpy(g_slots[i].path, path.data(), path.size());
        g_slots[i].path[path.size()] = '\0';
        g_slots[i].directory = directory;
        g_slots[i].state.store(kReady, std::memory_order_release);
        return i;
    }
    return -1;
}

}  // namespace

int register_temp_file(std::string_view path) noexcept { return register_path(path, false); }
int register_temp_dir(std::string_view path) noexcept { return register_path(path, true); }

void unregister_temp_file(int slot) noexcept {
    if (slot >= 0 && slot < kSlots) g_slots[slot].state.store(kFree, std::memory_order_release);
}

void remove_registered_temp_files() noexcept {
    for (bool directories : {false, true})  // a directory is empty only once its files are gone
        for (Slot& slot : g_slots)
            if (slot.state.load(std::memory_order_acquire) == kReady && slot.directory == directories)
                directories ? ::rmdir(slot.path) : ::unlink(slot.path);
}

}  // namespace el2fx::util
