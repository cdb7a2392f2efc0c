#include "eventlog/file_mapping.hpp"

#include <algorithm>
#include <array>
#include <csignal>
#include <mutex>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace el2fx::eventlog {
namespace {

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22  // Linux 5.14; older kernels refuse it, and the pages fault in
#endif

// The mappings the guard answers for: a few at once (one per input being read).
struct GuardSlot {
    std::atomic<std::uintptr_t> begin{0}, end{0};  // end 0: free
    std::atomic<bool> taken{false};
    std::atomic<bool> cut_short{false};
};
std::array<GuardSlot, 16> g_slots;
struct sigaction g_previous {};  // the SIGBUS action before the guard's
std::uintptr_t g_page = 4096;
std::uintptr_t g_huge = 4096 * 512;  // a page table's reach: the largest folio a fault maps at once

// Async-signal-safe: atomics, system calls made directly (not through a sanitizer's
// interceptors), sigaction.
extern "C" void on_sigbus(int signal, siginfo_t* info, void* context) {
    const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
    if (info->si_code > 0) {  // a fault, not a signal sent by kill()
        for (GuardSlot& slot : g_slots) {
            const std::uintptr_t end = slot.end.load(std::memory_order_acquire);
            if (address >= end || address < slot.begin.load(std::memory_order_acquire)) continue;
            const std::uintptr_t page = address & ~(g_page - 1);
            const long mapped =
                ::syscall(SYS_mmap, page, g_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            if (mapped == static_cast<long>(page)) {
                slot.cut_short.store(true, std::memory_order_release);
                return;  // the read is done again, now of zeros
            }
            break;
        }
    }
    if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
        g_previous.sa_sigaction(signal, info, context);
        return;
    }
    if ((g_previous.sa_flags & SA_SIGINFO) == 0 && g_previous.sa_handler != SIG_DFL &&
        g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(signal);
        return;
    }
    // As without the guard: the default action, at the fault done again or at once if sent.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    ::sigaction(signal, &fallback, nullptr);
    if (info->si_code <= 0) ::raise(signal);
}

// Installs the guard unless it is the handler already: at the first mapping, and again at a
// later one if something took SIGBUS meanwhile (a test framework does, around each test), which
// then becomes the handler other faults go to.
bool install_guard() {
    static std::mutex installing;
    std::lock_guard lock(installing);
    struct sigaction current {};
    if (::sigaction(SIGBUS, nullptr, &current) != 0) return false;
    if ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == on_sigbus) return true;
    g_page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    g_huge = g_page * (g_page / sizeof(void*));
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    g_previous = current;
    return ::sigaction(SIGBUS, &action, nullptr) == 0;
}

// The pages holding [offset, offset + size) of a mapping of `limit` bytes at `bytes`.
std::pair<std::uint8_t*, std::size_t> pages_of(const std::uint8_t* bytes, std::uint64_t limit, std::uint64_t offset,
                                               std::size_t size) {
    if (offset >= limit || size == 0) return {nullptr, 0};
    const std::uint64_t end = std::min<std::uint64_t>(limit, offset + size);
    const std::uint64_t first = offset & ~static_cast<std::uint64_t>(g_page - 1);
    const std::uint64_t last = (end + g_page - 1) & ~static_cast<std::uint64_t>(g_page - 1);
    return {const_cast<std::uint8_t*>(bytes) + first, static_cast<std::size_t>(last - first)};
}

}  // namespace

std::unique_ptr<FileMapping> FileMapping::map(int fd, std::uint64_t size) {
    if (size == 0 || size > static_cast<std::uint64_t>(SIZE_MAX / 2)) return nullptr;
    if (!install_guard()) return nullptr;
    std::size_t slot = 0;
    for (bool expected = false; slot < g_slots.size(); ++slot, expected = false)
        if (g_slots[slot].taken.compare_exchange_strong(expected, true)) break;
    if (slot == g_slots.size()) return nullptr;
    void* at = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (at == MAP_FAILED) {
        g_slots[slot].taken.store(false);
        return nullptr;
    }
    GuardSlot& s = g_slots[slot];
    s.cut_short.store(false);
    const auto begin = reinterpret_cast<std::uintptr_t>(at);
    s.begin.store(begin, std::memory_order_release);
    s.end.store(begin + ((size + g_page - 1) & ~(g_page - 1)), std::memory_order_release);
    return std::unique_ptr<FileMapping>(
        new FileMapping(static_cast<const std::uint8_t*>(at), size, &s.cut_short, slot));
}

FileMapping::FileMapping(const std::uint8_t* bytes, std::uint64_t size, std::atomic<bool>* cut_short, std::size_t slot)
    : bytes_(bytes), size_(size), cut_short_(cut_short), slot_(slot) {}

FileMapping::~FileMapping() {
    GuardSlot& s = g_slots[slot_];
    s.end.store(0, std::memory_order_release);
    s.begin.store(0, std::memory_order_release);
    ::munmap(const_cast<std::uint8_t*>(bytes_), static_cast<std::size_t>(size_));
    s.taken.store(false, std::memory_order_release);
}

std::uint64_t FileMapping::page_floor(std::uint64_t offset) { return offset & ~static_cast<std::uint64_t>(g_page - 1); }

void FileMapping::load(std::uint64_t offset, std::size_t size) const {
    const auto [at, length] = pages_of(bytes_, size_, offset, size);
    if (length) ::madvise(at, length, MADV_POPULATE_READ);  // a hint: its failure is a page fault later
}

void FileMapping::release(std::uint64_t offset, std::size_t size) const {
    const auto [at, length] = pages_of(bytes_, size_, offset, size);
    if (length) ::madvise(at, length, MADV_DONTNEED);
}

void FileMapping::release_around(std::uint64_t offset, std::size_t size) const {
    const auto [at, length] = pages_of(bytes_, size_, offset, size);
    if (!length) return;
    // Out to the huge pages holding the range, within the mapping (whose start is page-aligned).
    const auto begin = reinterpret_cast<std::uintptr_t>(bytes_);
    const std::uintptr_t end = begin + ((size_ + g_page - 1) & ~(g_page - 1));
    const std::uintptr_t first = std::max(begin, reinterpret_cast<std::uintptr_t>(at) & ~(g_huge - 1));
    const std::uintptr_t last = std::min(end, (reinterpret_cast<std::uintptr_t>(at) + length + g_huge - 1) & ~(g_huge - 1));
    ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace el2fx::eventlog
