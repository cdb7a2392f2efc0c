#include "fxprof/output_file.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fxprof/gzip.hpp"
#include "util/temp_files.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {

constexpr int kCreateAttempts = 100;
constexpr int kMaxSymlinkHops = 40;  // as the kernel's ELOOP limit
std::atomic<unsigned> g_temp_counter{0};

bool is_stdout(const std::string& path) { return path == "-"; }

Error file_error(const std::string& path, const std::string& what, int err) {
    return Error(what + ": " + std::strerror(err), {path, {}, {}});
}

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// Follows symbolic links from `path` to what is not one (or does not exist). `st` gets its
// lstat; false when nothing is there (or it cannot be examined: creating it will say why).
bool resolve_links(const std::string& path, std::string& target, struct stat& st) {
    target = path;
    for (int hops = 0;; ++hops) {
        if (::lstat(target.c_str(), &st) != 0) return false;
        if (!S_ISLNK(st.st_mode)) return true;
        if (hops == kMaxSymlinkHops) throw Error("too many levels of symbolic links", {path, {}, {}});
        char buf[PATH_MAX];
        const ssize_t n = ::readlink(target.c_str(), buf, sizeof buf);
        if (n < 0) throw file_error(path, "cannot read the symbolic link " + target, errno);
        if (static_cast<std::size_t>(n) >= sizeof buf) throw Error("symbolic link target too long", {path, {}, {}});
        std::string next(buf, static_cast<std::size_t>(n));
        target = next.front() == '/' ? next : directory_of(target) + next;
    }
}

// Creates "<dir>/.<name>.tmp-<pid>-<n>" next to `target` (same file system, so the rename is
// atomic); mode 0666 minus the umask, like any new file.
int open_temp(const std::string& path, const std::string& target, std::string& temp_path) {
    const std::string dir = directory_of(target);
    const std::string name = target.substr(dir.size());
    for (int attempt = 0; attempt < kCreateAttempts; ++attempt) {
        temp_path =
            dir + "." + name + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(g_temp_counter.fetch_add(1));
        const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        if (errno != EEXIST) {
            const int err = errno;
            temp_path.clear();
            throw file_error(path, "cannot create a temporary file in " + (dir.empty() ? std::string(".") : dir), err);
        }
    }
    temp_path.clear();
    throw Error("cannot find a free temporary file name", {path, {}, {}});
}

// A character device or FIFO, opened for writing without creating or truncating anything
// (a FIFO waits for its reader, as with a shell's `>`).
int open_in_place(const std::string& path, const std::string& target) {
    const int fd = ::open(target.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) throw file_error(path, "cannot open", errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        ::close(fd);
        throw Error("changed while it was being opened; not written", {path, {}, {}});
    }
    return fd;
}

}  // namespace

struct OutputFile::Opened {
    Kind kind = Kind::standard_output;
    std::string target;
    std::string temp_path;
    int fd = -1;
};

OutputFile::Opened OutputFile::open_output(const std::string& path) {
    if (is_stdout(path)) return {Kind::standard_output, path, {}, STDOUT_FILENO};
    if (path.empty()) throw Error("empty output file name");
    if (path.back() == '/') throw Error("is a directory", {path, {}, {}});
    Opened opened;
    struct stat st {};
    const bool exists = resolve_links(path, opened.target, st);
    if (!exists || S_ISREG(st.st_mode)) {
        opened.kind = Kind::replaced;
        opened.fd = open_temp(path, opened.target, opened.temp_path);
        return opened;
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
        opened.kind = Kind::direct;
        opened.fd = open_in_place(path, opened.target);
        return opened;
    }
    if (S_ISDIR(st.st_mode)) throw Error("is a directory", {path, {}, {}});
    if (S_ISBLK(st.st_mode)) throw Error("is a block device: a profile is not written onto one", {path, {}, {}});
    if (S_ISSOCK(st.st_mode)) throw Error("is a socket: a profile cannot be written into one", {path, {}, {}});
    throw Error("is not a regular file, a character device or a FIFO", {path, {}, {}});
}

OutputFile::OutputFile(std::string path) : OutputFile(path, open_output(path)) {}

OutputFile::OutputFile(std::string path, Opened opened)
    : path_(std::move(path)),
      kind_(opened.kind),
      target_(std::move(opened.target)),
      temp_path_(std::move(opened.temp_path)),
      fd_(opened.fd),
      sink_(fd_, path_) {
    if (kind_ == Kind::replaced) temp_slot_ = util::register_temp_file(temp_path_);
}

OutputFile::~OutputFile() {
    if (!committed_) discard();
}

void OutputFile::discard() noexcept {
    if (kind_ == Kind::standard_output) return;
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    if (!temp_path_.empty()) {
        ::unlink(temp_path_.c_str());  // then unregistered: a signal in between finds nothing to do
        util::unregister_temp_file(temp_slot_);
        temp_slot_ = -1;
        temp_path_.clear();
    }
}

void OutputFile::commit() {
    if (committed_) return;
    if (kind_ == Kind::standard_output) {
        committed_ = true;
        return;
    }
    try {
        // Devices and FIFOs have nothing to sync (fsync fails on them with EINVAL).
        if (kind_ == Kind::replaced && ::fsync(fd_) != 0) throw file_error(path_, "cannot sync", errno);
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw file_error(path_, "cannot close", errno);
        if (kind_ == Kind::replaced && ::rename(temp_path_.c_str(), target_.c_str()) != 0)
            throw file_error(path_, "cannot rename " + temp_path_ + " to " + target_, errno);
    } catch (...) {
        discard();
        throw;
    }
    util::unregister_temp_file(temp_slot_);
    temp_slot_ = -1;
    temp_path_.clear();
    committed_ = true;
}

namespace {
// Errors from below the file layer (zlib, the JSON writer) get the output's name.
template <class F>
WriteStats naming_errors(const std::string& path, F&& f) {
    try {
        return f();
    } catch (const Error& e) {
        if (e.context().file.empty()) throw e.with_file(path);
        throw;
    }
}
}  // namespace

WriteStats write_profile_gz(const Profile& profile, OutputFile& out, int level) {
    return naming_errors(out.path(), [&] {
        WriteStats stats = write_profile_json_gz(profile, out.sink(), level);  // on two cores
        out.commit();
        return stats;
    });
}

WriteStats write_profile_gz(const Profile& profile, const std::string& path, int level) {
    return naming_errors(path, [&] {
        OutputFile out(path);
        return write_profile_gz(profile, out, level);
    });
}

WriteStats write_profile_json_file(const Profile& profile, const std::string& path) {
    return naming_errors(path, [&] {
        OutputFile out(path);
        WriteStats stats = write_profile_json(profile, out.sink());
        out.commit();
        return stats;
    });
}

}  // namespace el2fx::fxprof
