// Memory for small objects made and freed all through a conversion (the nodes of the maps of
// live threads, their timers' buffers): a freed block goes on a list of its size and is handed
// out again, in constant time each way; blocks come from arenas kept until the whole is
// destroyed, so the memory follows the most objects alive at once. Larger or over-aligned
// requests go to the global heap. std::pmr::unsynchronized_pool_resource does the same but
// searches for a freed block's chunk, which showed in a log of millions of threads.
#pragma once

#include <array>
#include <cstddef>
#include <memory_resource>
#include <new>
#include <vector>

namespace el2fx::util {

class RecyclingMemory final : public std::pmr::memory_resource {
public:
    static constexpr std::size_t kGrain = 16;             // sizes round up to this; the blocks' alignment
    static constexpr std::size_t kLargest = 32 * kGrain;  // recycled sizes: 16 .. 512 bytes
    static constexpr std::size_t kArenaBytes = 64 * 1024;

    RecyclingMemory() = default;
    RecyclingMemory(const RecyclingMemory&) = delete;
    RecyclingMemory& operator=(const RecyclingMemory&) = delete;
    ~RecyclingMemory() override {
        for (void* arena : arenas_) ::operator delete (arena, std::align_val_t{kGrain});
    }

    // The arenas' bytes: the most small objects alive at once, rounded up.
    std::size_t arena_bytes() const { return arenas_.size() * kArenaBytes; }

private:
    struct FreeBlock {
        FreeBlock* next;
    };

    static bool recycled(std::size_t bytes, std::size_t align) { return bytes <= kLargest && align <= kGrain; }
    static std::size_t size_class(std::size_t bytes) { return bytes == 0 ? 0 : (bytes - 1) / kGrain; }

    void* do_allocate(std::size_t bytes, std::size_t align) override {
        if (!recycled(bytes, align)) return ::operator new (bytes, std::align_val_t{align});
        const std::size_t c = size_class(bytes);
        if (FreeBlock* b = free_[c]) {
            free_[c] = b->next;
            return b;
        }
        const std::size_t size = (c + 1) * kGrain;
        if (left_ < size) {  // the rest of the arena (less than the largest block) stays unused
            arenas_.reserve(arenas_.size() + 1);
            cursor_ = static_cast<std::byte*>(::operator new (kArenaBytes, std::align_val_t{kGrain}));
            arenas_.push_back(cursor_);
            left_ = kArenaBytes;
        }
        void* p = cursor_;
        cursor_ += size;
        left_ -= size;
        return p;
    }

    void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
        if (!recycled(bytes, align)) {
            ::operator delete (p, std::align_val_t{align});  // unsized: clang needs -fsized-deallocation for the other
            return;
        }
        const std::size_t c = size_class(bytes);
        free_[c] = ::new (p) FreeBlock{free_[c]};
    }

    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

    std::array<FreeBlock*, kLargest / kGrain> free_{};  // by size class
    std::vector<void*> arenas_;
    std::byte* cursor_ = nullptr;  // the newest arena's unused part
    std::size_t left_ = 0;
};

}  // namespace el2fx::util
