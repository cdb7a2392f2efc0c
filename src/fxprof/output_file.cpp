#include "fxprof/output_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "fxprof/gzip.hpp"
#include "fxprof/parallel_gzip_sink.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {

constexpr int kCreateAttempts = 100;
std::atomic<unsigned> g_temp_counter{0};

bool is_stdout(const std::string& path) { return path == "-"; }

Error file_error(const std::string& path, const std::string& what, int err) {
    return Error(what + ": " + std::strerror(err), {path, {}, {}});
}

// Creates "<dir>/.<name>.tmp-<pid>-<n>" next to the destination (same file system, so the
// rename is atomic); mode 0666 minus the umask, like any new file.
int open_temp(const std::string& path, std::string& temp_path) {
    if (is_stdout(path)) return STDOUT_FILENO;
    if (path.empty()) throw Error("empty output file name");
    if (path.back() == '/') throw Error("is a directory", {path, {}, {}});
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    for (int attempt = 0; attempt < kCreateAttempts; ++attempt) {
        temp_path = dir + "." + name + ".tmp-" + std::to_string(::getpid()) + "-" +
                    std::to_string(g_temp_counter.fetch_add(1));
        const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) return fd;
        if (errno != EEXIST) {
            const int err = errno;
            temp_path.clear();
            throw file_error(path, "cannot create a temporary file in " +
                                       (dir.empty() ? std::string(".") : dir),
                             err);
        }
    }
    temp_path.clear();
    throw Error("cannot find a free temporary file name", {path, {}, {}});
}

}  // namespace

OutputFile::OutputFile(std::string path)
    : path_(std::move(path)), fd_(open_temp(path_, temp_path_)), sink_(fd_, path_) {}

OutputFile::~OutputFile() {
    if (!committed_) discard();
}

void OutputFile::discard() noexcept {
    if (is_stdout(path_)) return;
    if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
    if (!temp_path_.empty()) {
        ::unlink(temp_path_.c_str());
        temp_path_.clear();
    }
}

void OutputFile::commit() {
    if (committed_) return;
    if (is_stdout(path_)) {
        committed_ = true;
        return;
    }
    try {
        if (::fsync(fd_) != 0) throw file_error(path_, "cannot sync", errno);
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) throw file_error(path_, "cannot close", errno);
        if (::rename(temp_path_.c_str(), path_.c_str()) != 0)
            throw file_error(path_, "cannot rename " + temp_path_ + " to it", errno);
    } catch (...) {
        discard();
        throw;
    }
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

WriteStats write_profile_gz(const Profile& profile, const std::string& path, int level) {
    return naming_errors(path, [&] {
        OutputFile out(path);
        ParallelGzipSink gz(out.sink(), level);  // compressed on the other cores while the JSON is written
        WriteStats stats = write_profile_json(profile, gz);
        gz.finish();
        out.commit();
        return stats;
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
