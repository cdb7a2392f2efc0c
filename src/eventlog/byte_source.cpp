#include "eventlog/byte_source.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "util/error.hpp"
#include "util/progress.hpp"

namespace el2fx::eventlog {
namespace {

[[noreturn]] void io_error(const std::string& name, const std::string& what) {
    throw Error(what + ": " + std::strerror(errno), Error::Context{name, std::nullopt, {}});
}

}  // namespace

InputFile::InputFile(const std::string& path, Access access) : name_(path), access_(access) {
    if (path == "-") {
        fd_ = STDIN_FILENO;
    } else {
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0) io_error(path, "cannot open");
        owns_fd_ = true;
    }
    struct stat st {};
    if (::fstat(fd_, &st) != 0) io_error(name_, "cannot stat");
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        io_error(name_, "cannot read");
    }
    seekable_ = S_ISREG(st.st_mode);
    if (seekable_ && ::lseek(fd_, 0, SEEK_CUR) != 0) seekable_ = false;  // a redirected stdin already read from
#ifdef POSIX_FADV_SEQUENTIAL
    if (seekable_) ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
}

const FileMapping* InputFile::mapping() const {
    std::lock_guard lock(mapping_mutex_);
    if (!mapping_tried_ && seekable_) {
        mapping_tried_ = true;
        if (access_ == Access::mapped_where_possible)
            if (const std::optional<std::uint64_t> bytes = size()) mapping_ = FileMapping::map(fd_, *bytes);
    }
    return mapping_.get();
}

void InputFile::count_mapped(std::size_t bytes) const {
    if (progress_) progress_->add(bytes);
}

bool InputFile::cut_short_while_mapped() const {
    const FileMapping* mapped = mapping();
    if (!mapped) return false;
    if (!mapped->intact()) return true;
    const std::optional<std::uint64_t> now = size();
    return now && *now < mapped->size();
}

Error InputFile::changed_while_read(std::optional<std::uint64_t> offset) const {
    return Error("the input changed while it was being read", {name_, offset, {}});
}

InputFile::~InputFile() {
    if (owns_fd_) ::close(fd_);
}

std::size_t InputFile::read(std::uint8_t* buffer, std::size_t size) {
    for (;;) {
        ssize_t n = ::read(fd_, buffer, size);
        if (n >= 0) {
            if (progress_) progress_->add(static_cast<std::uint64_t>(n));
            return static_cast<std::size_t>(n);
        }
        if (errno != EINTR) io_error(name_, "read failed");
    }
}

std::size_t InputFile::read_at(std::uint64_t offset, std::uint8_t* buffer, std::size_t size) const {
    std::size_t done = 0;
    while (done < size) {
        ssize_t n = ::pread(fd_, buffer + done, size - done, static_cast<off_t>(offset + done));
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            io_error(name_, "read failed");
        }
        done += static_cast<std::size_t>(n);
    }
    if (progress_) progress_->add(done);
    return done;
}

std::optional<std::uint64_t> InputFile::size() const {
    if (!seekable_) return std::nullopt;
    struct stat st {};
    if (::fstat(fd_, &st) != 0) io_error(name_, "cannot stat");
    return static_cast<std::uint64_t>(st.st_size);
}

void InputFile::rewind() {
    if (!seekable_ || ::lseek(fd_, 0, SEEK_SET) != 0) io_error(name_, "cannot read the input a second time");
}

void InputFile::spool_to_temporary_file() {
    if (seekable_) return;
    const char* dir = std::getenv("TMPDIR");
    std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/eventlog2fxprof-XXXXXX";
    std::vector<char> path(pattern.begin(), pattern.end());
    path.push_back('\0');
    int tmp = ::mkstemp(path.data());
    if (tmp < 0) io_error(name_, "cannot create a temporary file to buffer the input");
    ::unlink(path.data());  // gone when closed, whatever happens
    std::vector<std::uint8_t> buffer(1 << 20);
    for (;;) {
        std::size_t n = read(buffer.data(), buffer.size());
        if (n == 0) break;
        for (std::size_t done = 0; done < n;) {
            ssize_t w = ::write(tmp, buffer.data() + done, n - done);
            if (w < 0) {
                if (errno == EINTR) continue;
                int saved = errno;
                ::close(tmp);
                errno = saved;
                io_error(name_, "cannot buffer the input in a temporary file");
            }
            done += static_cast<std::size_t>(w);
        }
    }
    if (::lseek(tmp, 0, SEEK_SET) != 0) io_error(name_, "cannot rewind the temporary file");
    if (owns_fd_) ::close(fd_);
    fd_ = tmp;
    owns_fd_ = true;
    seekable_ = true;
}

}  // namespace el2fx::eventlog
