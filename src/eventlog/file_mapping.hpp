// A regular file's bytes mapped read-only, so that a pass reads them where the page cache
// holds them instead of copying them out with a system call per chunk (src/README.md,
// Performance notes). A file cut short while mapped would end the process with SIGBUS at the
// first read past its new end; instead, a guard (one SIGBUS handler for the process, installed
// with a mapping where it is not the handler already) puts a page of zeros in place of the lost
// one and marks the mapping no longer intact, which its reader checks to raise a located error.
// A fault at any other address goes to the handler that was there before, or ends the process
// as it would have.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace el2fx::eventlog {

class FileMapping {
public:
    // Maps bytes [0, size) of the open regular file `fd`; null where the file cannot be
    // mapped (size 0, a file system without mappings, no guard slot free): read it instead.
    static std::unique_ptr<FileMapping> map(int fd, std::uint64_t size);
    ~FileMapping();
    FileMapping(const FileMapping&) = delete;
    FileMapping& operator=(const FileMapping&) = delete;

    const std::uint8_t* bytes() const { return bytes_; }
    std::uint64_t size() const { return size_; }

    // Hints, whatever the bytes: load() maps the pages holding [offset, offset + size) in at
    // once (one system call instead of a page fault every few pages); release() lets them go
    // from this process's memory (the page cache keeps them), so that a pass over a large
    // file holds only what it reads at the moment. Reading released bytes again is correct,
    // only slower.
    void load(std::uint64_t offset, std::size_t size) const;
    void release(std::uint64_t offset, std::size_t size) const;
    // Lets go of [offset, offset + size) and of all the pages a fault there may have mapped
    // around it: the kernel maps a faulting page's neighbours too (a window of them, or a
    // whole large folio, up to a huge page), which may lie in a neighbouring range that another
    // reader has read and let go of already. A reader leaving its range calls this, so that
    // what it mapped does not stay mapped to the pass's end.
    void release_around(std::uint64_t offset, std::size_t size) const;
    // How a reader walking through the mapping uses them: it loads kLoadStep at a time (one
    // system call) and lets go of what it read once that is kReleaseAfter, so that the pages
    // mapped stay about a megabyte a reader, and what the kernel maps around its steps (up to
    // the huge pages they touch). Letting go costs the other core an interruption (to forget
    // the pages), so not at every step.
    static constexpr std::size_t kLoadStep = 256 << 10;
    static constexpr std::size_t kReleaseAfter = 1 << 20;
    // Framing is a chain of loads (each record's size gives the next one's place), and the
    // processor's own prefetching stops at each page of a mapping: a reader framing records
    // asks for the bytes this far ahead of each (__builtin_prefetch, which never faults).
    static constexpr std::size_t kPrefetchAhead = 1024;
    // The start of the page holding `offset` (what to release up to, keeping `offset`).
    static std::uint64_t page_floor(std::uint64_t offset);

    // False once a read found the file shorter than mapped: the bytes past its end have read
    // as zeros since then.
    bool intact() const { return !cut_short_->load(std::memory_order_acquire); }

private:
    FileMapping(const std::uint8_t* bytes, std::uint64_t size, std::atomic<bool>* cut_short, std::size_t slot);

    const std::uint8_t* bytes_;
    std::uint64_t size_;
    std::atomic<bool>* cut_short_;  // the guard's slot for this mapping
    std::size_t slot_;
};

}  // namespace el2fx::eventlog
