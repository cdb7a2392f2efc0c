#include "fxprof/spill_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {

std::string temp_dir() {
    const char* d = std::getenv("TMPDIR");
    return d && *d ? std::string(d) : std::string("/tmp");
}

Error io_error(const std::string& what, const std::string& dir, int err) {
    std::string m = what + " (the profile's temporary table file in " + dir + "): " + std::strerror(err);
    if (err == ENOSPC || err == EDQUOT) m += " (disk full? set TMPDIR to a directory with room)";
    return Error(m);
}

}  // namespace

// ---- SpillStream ----------------------------------------------------------------------------

std::uint8_t* SpillStream::reserve(SpillStore& store, std::size_t max_bytes) {
    if (!chunks_.empty()) {
        const std::uint32_t last = chunks_.back();
        SpillStore::Chunk& c = store.chunks_[last];
        if (!c.sealed) {
            if (c.capacity - used_ >= max_bytes) return c.data.get() + used_;
            store.seal(last, used_);
        }
    }
    std::size_t capacity = next_capacity_ ? next_capacity_ : SpillStore::kFirstChunk;
    capacity = std::max(capacity, max_bytes);
    const std::uint32_t id = store.allocate(capacity);
    chunks_.push_back(id);
    used_ = 0;
    next_capacity_ = static_cast<std::uint32_t>(std::min(SpillStore::kMaxChunk, capacity * 2));
    return store.chunks_[id].data.get();
}

void SpillStream::close(SpillStore& store) {
    if (!chunks_.empty() && !store.chunks_[chunks_.back()].sealed) store.seal(chunks_.back(), used_);
}

void SpillStream::release(SpillStore& store) {
    for (std::uint32_t id : chunks_) store.free(id);
    chunks_.clear();
    used_ = 0;
    next_capacity_ = 0;
}

// ---- SpillStore -----------------------------------------------------------------------------

SpillStore::~SpillStore() {
    if (fd_ >= 0) ::close(fd_);  // unlinked already: closing frees the space
}

std::uint32_t SpillStore::allocate(std::size_t capacity) {
    if (capacity > UINT32_MAX) throw Error("profile table record too large");
    make_room(capacity);
    std::uint32_t id;
    if (!free_ids_.empty()) {
        id = free_ids_.back();
        free_ids_.pop_back();
    } else {
        if (chunks_.size() >= UINT32_MAX) throw Error("profile tables: too many chunks");
        id = static_cast<std::uint32_t>(chunks_.size());
        chunks_.emplace_back();
    }
    Chunk& c = chunks_[id];
    c.data = std::make_unique_for_overwrite<std::uint8_t[]>(capacity);
    c.capacity = static_cast<std::uint32_t>(capacity);
    c.size = 0;
    c.sealed = false;
    c.file_offset = -1;
    stats_.memory_bytes += capacity;
    stats_.peak_memory_bytes = std::max(stats_.peak_memory_bytes, stats_.memory_bytes);
    return id;
}

void SpillStore::seal(std::uint32_t id, std::size_t size) {
    Chunk& c = chunks_[id];
    c.sealed = true;
    c.size = static_cast<std::uint32_t>(size);
    sealed_in_memory_.push_back({id, c.generation});
}

void SpillStore::free(std::uint32_t id) {
    Chunk& c = chunks_[id];
    if (c.data) {
        stats_.memory_bytes -= c.capacity;
        c.data.reset();
    }
    if (c.file_offset >= 0) free_slots_[c.slot_class].push_back(c.file_offset);
    c.file_offset = -1;
    c.sealed = false;
    c.size = 0;
    ++c.generation;
    free_ids_.push_back(id);
}

void SpillStore::make_room(std::size_t incoming) {
    while (stats_.memory_bytes + incoming > budget_ && !sealed_in_memory_.empty()) {
        const Queued q = sealed_in_memory_.front();
        Chunk& c = chunks_[q.chunk];
        if (c.generation == q.generation && c.data) spill(c);  // else freed meanwhile
        sealed_in_memory_.pop_front();
    }
}

void SpillStore::spill(Chunk& c) {
    if (fd_ < 0) open_file();
    // Power-of-two slots, reused when chunks are freed (runs merged).
    const auto slot_class = static_cast<std::uint8_t>(std::bit_width(std::max<std::size_t>(c.size, kFirstChunk) - 1));
    std::vector<std::int64_t>& free_slots = free_slots_[slot_class];
    const bool reuse = !free_slots.empty();
    const std::int64_t offset = reuse ? free_slots.back() : file_end_;
    const std::uint8_t* p = c.data.get();
    std::size_t left = c.size;
    std::int64_t at = offset;
    while (left > 0) {
        const ssize_t n = ::pwrite(fd_, p, left, at);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw io_error("cannot write", dir_, errno);
        }
        if (n == 0) throw io_error("cannot write", dir_, ENOSPC);
        p += n;
        left -= static_cast<std::size_t>(n);
        at += n;
    }
    if (reuse)
        free_slots.pop_back();
    else
        file_end_ += std::int64_t{1} << slot_class;
    c.file_offset = offset;
    c.slot_class = slot_class;
    c.data.reset();
    stats_.memory_bytes -= c.capacity;
    ++stats_.spilled_chunks;
    stats_.spilled_bytes += c.size;
    stats_.file_bytes = static_cast<std::uint64_t>(file_end_);
}

void SpillStore::open_file() {
    dir_ = temp_dir();
    int fd = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        // No O_TMPFILE on this file system: a named file, unlinked at once.
        std::string path = dir_ + "/el2fx-tables-XXXXXX";
        fd = ::mkostemp(path.data(), O_CLOEXEC);
        if (fd >= 0 && ::unlink(path.c_str()) != 0) {
            const int err = errno;
            ::close(fd);
            throw io_error("cannot unlink " + path, dir_, err);
        }
    }
    if (fd < 0) throw io_error("cannot create a temporary file", dir_, errno);
    fd_ = fd;
}

std::span<const std::uint8_t> SpillStore::read(std::uint32_t id, std::size_t open_size,
                                               std::vector<std::uint8_t>& buffer) const {
    const Chunk& c = chunks_[id];
    const std::size_t size = c.sealed ? c.size : open_size;
    if (buffer.size() < size) buffer.resize(std::max(size, kMaxChunk));
    if (c.data) {
        std::memcpy(buffer.data(), c.data.get(), size);
        return {buffer.data(), size};
    }
    std::uint8_t* p = buffer.data();
    std::size_t left = size;
    std::int64_t at = c.file_offset;
    while (left > 0) {
        const ssize_t n = ::pread(fd_, p, left, at);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw io_error("cannot read", dir_, errno);
        }
        if (n == 0) throw Error("the profile's temporary table file is shorter than written");
        p += n;
        left -= static_cast<std::size_t>(n);
        at += n;
    }
    return {buffer.data(), size};
}

}  // namespace el2fx::fxprof
