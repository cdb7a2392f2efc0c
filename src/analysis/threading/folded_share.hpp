// Which folded threads' lives the consumer's analysis follows while a ReaderThreadLives keeps
// the others' on the reader's thread. With millions of short-lived threads folded, their lives
// alone keep the reader's thread busier than the consumer; a share of them followed on the
// consumer evens the cores. The reader's thread sets the share as it goes (from how far behind
// the consumer is), for the threads it has not seen yet; a thread keeps its side for life, and
// both sides ask this one object, so each thread is followed exactly once. Where a thread goes
// does not change the profile: the shared track's samples of one instant are summed
// (fxprof::SampleTable::sum_same_instants), and no track draws the folded threads' spans.
//
// One writer (the reader's thread), one reader (the consumer), no lock: an entry is written
// before the count that shows it, and a thread id an entry is for reaches the consumer only in
// a batch handed over after it was written (EventPrefetcher's hand-over orders them).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "eventlog/event_types.hpp"

namespace el2fx::analysis {

class FoldedShare {
public:
    static constexpr unsigned kStepBits = 4;
    static constexpr unsigned kSteps = 1u << kStepBits;  // a share is a number of sixteenths of the threads
    static constexpr std::size_t kMaxChanges = std::size_t{1} << 12;  // then the share stays

    // On the reader's thread: the share from thread id `first` on, where no id from `first`
    // on was given to either side yet. Ignored once the share changed kMaxChanges times.
    void set(std::uint64_t first, unsigned share) {
        if (share > kSteps) share = kSteps;
        const std::size_t n = count_.load(std::memory_order_relaxed);
        Entry& last = entries_[n - 1];
        if (last.share.load(std::memory_order_relaxed) == share) return;
        if (first <= last.first) {  // no thread from last.first on was seen: its share changes
            last.share.store(static_cast<std::uint8_t>(share), std::memory_order_relaxed);
            newest_.store(last.first << 8 | share, std::memory_order_release);
            return;
        }
        if (n == kMaxChanges) return;
        entries_[n].first = first;
        entries_[n].share.store(static_cast<std::uint8_t>(share), std::memory_order_relaxed);
        count_.store(n + 1, std::memory_order_release);
        newest_.store(first << 8 | share, std::memory_order_release);
    }
    // The share the newest threads get.
    unsigned latest() const { return static_cast<unsigned>(newest_.load(std::memory_order_acquire) & 0xff); }

    // Either side: whether the consumer follows thread `id` (a folded one), by a hash of the id
    // (ids come in sequence, and a log may skip some in a pattern).
    bool on_consumer(eventlog::ThreadId id) const {
        // Most events are of threads made since the share last changed: one load answers
        // (every event of a log that never shares asks).
        const std::uint64_t newest = newest_.load(std::memory_order_acquire);
        const unsigned share = (newest >> 8) <= id ? static_cast<unsigned>(newest & 0xff) : share_before(id);
        return share != 0 && (id * std::uint32_t{0x9E3779B9}) >> (32 - kStepBits) < share;
    }

private:
    // The share of the last entry at or below `id` (the first is for 0).
    [[gnu::noinline]] unsigned share_before(eventlog::ThreadId id) const {
        std::size_t n = count_.load(std::memory_order_acquire);
        std::size_t lo = 0;  // entries_[lo].first <= id < entries_[n].first
        while (n - lo > 1) {
            const std::size_t mid = lo + (n - lo) / 2;
            if (entries_[mid].first <= id)
                lo = mid;
            else
                n = mid;
        }
        return entries_[lo].share.load(std::memory_order_relaxed);
    }

    struct Entry {
        std::uint64_t first = 0;  // the first thread id it is for
        std::atomic<std::uint8_t> share{0};
    };
    // The newest entry's first id << 8 | its share, written after the entry and the count.
    std::atomic<std::uint64_t> newest_{0};
    std::atomic<std::size_t> count_{1};
    std::array<Entry, kMaxChanges> entries_{};  // by first; the first entry's is 0
};

}  // namespace el2fx::analysis
