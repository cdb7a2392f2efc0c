// Fuzz inputs as files: the product's readers take a path, so the bytes go into an
// anonymous in-memory file (memfd) named by its /proc/self/fd path. Nothing touches the disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace el2fx::fuzz {

class MemoryFile {
public:
    MemoryFile(const std::uint8_t* data, std::size_t size) {
        fd_ = ::memfd_create("fuzz-eventlog", MFD_CLOEXEC);
        if (fd_ < 0) return;
        std::size_t done = 0;
        while (done < size) {
            ssize_t n = ::write(fd_, data + done, size - done);
            if (n <= 0) {
                ::close(fd_);
                fd_ = -1;
                return;
            }
            done += static_cast<std::size_t>(n);
        }
    }
    ~MemoryFile() {
        if (fd_ >= 0) ::close(fd_);
    }
    MemoryFile(const MemoryFile&) = delete;
    MemoryFile& operator=(const MemoryFile&) = delete;

    bool ok() const { return fd_ >= 0; }
    std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

private:
    int fd_ = -1;
};

// A few option bits taken from the input, so that mutations also explore the options:
// the last byte mixed with the size (an eventlog's last byte is usually its end marker).
inline std::uint8_t option_bits(const std::uint8_t* data, std::size_t size) {
    return size == 0 ? 0 : static_cast<std::uint8_t>(data[size - 1] ^ (size * 131) ^ (size >> 8));
}

}  // namespace el2fx::fuzz
