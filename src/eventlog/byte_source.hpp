// Where eventlog bytes come from: a regular file, standard input ("-") or a FIFO.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "eventlog/file_mapping.hpp"
#include "util/error.hpp"

namespace el2fx::util {
class Progress;
}

namespace el2fx::eventlog {

class InputFile {
public:
    // How a pass reads a seekable input's bytes: mapped (file_mapping.hpp) where the file can
    // be, else, or always, by reads.
    enum class Access { mapped_where_possible, reads_only };

    // "-" is standard input. Throws el2fx::Error when the file cannot be opened.
    explicit InputFile(const std::string& path, Access access = Access::mapped_where_possible);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    // Sequential read; returns 0 at end of input. Retries on EINTR.
    std::size_t read(std::uint8_t* buffer, std::size_t size);
    // Positioned read; only for seekable inputs. Returns fewer bytes at end of file.
    std::size_t read_at(std::uint64_t offset, std::uint8_t* buffer, std::size_t size) const;

    bool seekable() const { return seekable_; }
    // The whole input mapped, as large as it was at the first call once seekable (after
    // spool_to_temporary_file() for a pipe); null where it is read instead. Thread-safe.
    const FileMapping* mapping() const;
    // Counts `bytes` taken from the mapping as read (count_reads()).
    void count_mapped(std::size_t bytes) const;
    // True once the mapped input is shorter than mapped: a read past its new end found zeros
    // (the guard's), or the rest of its last page, which reads as zeros without a fault, may.
    bool cut_short_while_mapped() const;
    // The error for a file that changed while a pass read it, located at `offset` if known.
    Error changed_while_read(std::optional<std::uint64_t> offset = {}) const;
    // Bytes in a seekable input, now; nullopt for a pipe or FIFO not yet spooled.
    std::optional<std::uint64_t> size() const;
    const std::string& name() const { return name_; }

    // Counts every byte read from now on into `progress` (a progress display's; nullptr: none):
    // once per read, and reads are of whole chunks.
    void count_reads(util::Progress* progress) { progress_ = progress; }

    // Copies the rest of a non-seekable input into an unlinked temporary file and
    // reads from that instead, so that it can be read out of order (pipes, FIFOs).
    void spool_to_temporary_file();
    // Back to the first byte for another sequential pass; only for seekable inputs
    // (spool_to_temporary_file makes any input seekable). Throws el2fx::Error.
    void rewind();

private:
    std::string name_;
    int fd_ = -1;
    bool owns_fd_ = false;
    bool seekable_ = false;
    util::Progress* progress_ = nullptr;
    Access access_;
    mutable std::mutex mapping_mutex_;
    mutable bool mapping_tried_ = false;
    mutable std::unique_ptr<FileMapping> mapping_;
};

}  // namespace el2fx::eventlog
