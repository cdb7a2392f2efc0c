// Bounded-memory storage for the profile's bulky tables (samples, markers, counter samples).
// A table appends compact binary records to a SpillStream: a list of chunks owned by the
// Profile's SpillStore. Chunks stay in memory up to the store's budget (all tables together);
// beyond it the oldest full chunks go to one temporary file, created on first need in $TMPDIR
// (or /tmp) and unlinked at once, and are read back with pread. Records never straddle chunks.
// Every system call is checked: failures (a missing directory, a full disk) throw el2fx::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace el2fx::fxprof {

class SpillStore;

// One table's (or run's) records, in append order.
class SpillStream {
public:
    // A pointer to room for at most max_bytes; commit() then says how many were written.
    std::uint8_t* reserve(SpillStore& store, std::size_t max_bytes);
    void commit(std::size_t used) { used_ += used; }
    // No more appends: the last chunk may now be spilled like the others.
    void close(SpillStore& store);
    // Gives the chunks back to the store; the stream is empty afterwards.
    void release(SpillStore& store);

    const std::vector<std::uint32_t>& chunks() const { return chunks_; }
    bool empty() const { return chunks_.empty(); }

private:
    friend class SpillStore;
    friend class SpillReader;
    std::vector<std::uint32_t> chunks_;  // ids in the store
    std::uint32_t next_capacity_ = 0;    // grows so that small tables stay small
    std::size_t used_ = 0;               // bytes written to the last chunk
};

struct SpillStats {
    std::size_t memory_bytes = 0;  // chunk bytes held in memory now
    std::size_t peak_memory_bytes = 0;
    std::uint64_t spilled_chunks = 0;  // chunks written to the file, in all
    std::uint64_t spilled_bytes = 0;   // their bytes
    std::uint64_t file_bytes = 0;      // the temporary file's size (slots: powers of two)
};

class SpillStore {
public:
    // Beyond this the chunks go to the file, which stays in the page cache: a small budget
    // costs no measurable time and keeps peak RSS low (the figures: the top-level README).
    static constexpr std::size_t kDefaultBudget = std::size_t{2} << 20;
    static constexpr std::size_t kMaxChunk = std::size_t{64} << 10;
    static constexpr std::size_t kFirstChunk = 256;

    explicit SpillStore(std::size_t memory_budget = kDefaultBudget) : budget_(memory_budget) {}
    ~SpillStore();
    SpillStore(const SpillStore&) = delete;
    SpillStore& operator=(const SpillStore&) = delete;

    // Takes effect at the next chunk allocation.
    void set_budget(std::size_t bytes) { budget_ = bytes; }
    std::size_t budget() const { return budget_; }
    const SpillStats& stats() const { return stats_; }

    // A chunk's bytes, into `buffer` (which grows as needed): a copy, so that later appends
    // (which may spill that chunk) cannot invalidate what a reader holds.
    // `open_size`: the bytes written so far, for a stream's last chunk while still open.
    std::span<const std::uint8_t> read(std::uint32_t chunk, std::size_t open_size,
                                       std::vector<std::uint8_t>& buffer) const;

private:
    friend class SpillStream;
    struct Chunk {
        std::unique_ptr<std::uint8_t[]> data;  // null once spilled (or free)
        std::uint32_t capacity = 0;
        std::uint32_t size = 0;  // bytes written, set when sealed
        std::int64_t file_offset = -1;
        std::uint8_t slot_class = 0;   // the file slot is 2^slot_class bytes
        std::uint32_t generation = 0;  // tells stale spill-queue entries apart
        bool sealed = false;
    };
    struct Queued {
        std::uint32_t chunk;
        std::uint32_t generation;
    };

    std::uint32_t allocate(std::size_t capacity);
    void seal(std::uint32_t chunk, std::size_t size);
    void free(std::uint32_t chunk);
    void make_room(std::size_t incoming);
    void spill(Chunk& c);
    void open_file();

    std::size_t budget_;
    std::vector<Chunk> chunks_;
    std::vector<std::uint32_t> free_ids_;
    std::deque<Queued> sealed_in_memory_;  // spill candidates, oldest first
    // File offsets of free slots, by size class (2^i bytes), to reuse.
    std::vector<std::vector<std::int64_t>> free_slots_ = std::vector<std::vector<std::int64_t>>(64);
    int fd_ = -1;
    std::string dir_;  // where the file is, for messages
    std::int64_t file_end_ = 0;
    SpillStats stats_;
};

// Reads one stream's chunks in order.
class SpillReader {
public:
    SpillReader(const SpillStore& store, const SpillStream& stream) : store_(&store), stream_(&stream) {}
    // The next chunk's bytes; false at the end.
    bool next(std::span<const std::uint8_t>& bytes) {
        if (index_ >= stream_->chunks_.size()) return false;
        bytes = store_->read(stream_->chunks_[index_++], stream_->used_, buffer_);
        return true;
    }

private:
    const SpillStore* store_;
    const SpillStream* stream_;
    std::size_t index_ = 0;
    std::vector<std::uint8_t> buffer_;
};

// ---- record encoding: LEB128 varints, zigzag for signed values ----------------------------
namespace spill {

constexpr std::size_t kMaxVarint = 10;

inline std::uint64_t zigzag(std::int64_t v) {
    return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t v) {
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

inline void put_uvarint(std::uint8_t*& p, std::uint64_t v) {
    while (v >= 0x80) {
        *p++ = static_cast<std::uint8_t>(v | 0x80);
        v >>= 7;
    }
    *p++ = static_cast<std::uint8_t>(v);
}
inline void put_svarint(std::uint8_t*& p, std::int64_t v) { put_uvarint(p, zigzag(v)); }
inline void put_double(std::uint8_t*& p, double d) {
    std::memcpy(p, &d, sizeof d);
    p += sizeof d;
}

// Records are written by this process and read back whole, so a truncated varint cannot
// happen short of memory corruption; readers still stop at the chunk's end.
inline std::uint64_t get_uvarint(const std::uint8_t*& p) {
    // Unrolled, with each byte added whole and its continuation bit subtracted after: a few
    // instructions a byte (the writer decodes every record once per column it writes).
    std::uint64_t v = p[0];
    if (v < 0x80) {
        p += 1;
        return v;
    }
    for (unsigned i = 1; i < kMaxVarint; ++i) {
        const std::uint64_t b = p[i];
        v += (b - 1) << (7 * i);  // - 1: the previous byte's continuation bit, 2^(7i)
        if (b < 0x80) {
            p += i + 1;
            return v;
        }
    }
    p += kMaxVarint;
    return v;
}
inline std::int64_t get_svarint(const std::uint8_t*& p) { return unzigzag(get_uvarint(p)); }
inline double get_double(const std::uint8_t*& p) {
    double d;
    std::memcpy(&d, p, sizeof d);
    p += sizeof d;
    return d;
}

}  // namespace spill

}  // namespace el2fx::fxprof
