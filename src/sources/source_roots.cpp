#include "sources/source_roots.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <memory>

#include "util/error.hpp"
#include "util/utf8.hpp"

namespace el2fx::sources {
namespace {

// realpath(3), or empty when the path does not resolve.
std::string real_path(const std::string& path) {
    std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr), &std::free);
    return resolved ? std::string(resolved.get()) : std::string();
}

// The part of `path` under `root` (both real paths), or nullopt-like false when outside.
bool under(const std::string& path, const std::string& root, std::string_view& rest) {
    if (root == "/") {
        if (path.size() < 2 || path[0] != '/') return false;
        rest = std::string_view(path).substr(1);
        return true;
    }
    if (path.size() <= root.size() + 1 || path.compare(0, root.size(), root) != 0 || path[root.size()] != '/')
        return false;
    rest = std::string_view(path).substr(root.size() + 1);
    return true;
}

bool hidden(std::string_view relative) {
    while (!relative.empty()) {
        if (relative.front() == '.') return true;
        std::size_t slash = relative.find('/');
        if (slash == std::string_view::npos) break;
        relative.remove_prefix(slash + 1);
    }
    return false;
}

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

}  // namespace

std::string_view describe(Refusal refusal) {
    switch (refusal) {
        case Refusal::none: return "embedded";
        case Refusal::bad_name: return "not a usable file name";
        case Refusal::not_found: return "not found under the --sources directories";
        case Refusal::not_source: return "not a Haskell source file (hidden, or by its extension)";
        case Refusal::not_regular: return "not a regular file";
        case Refusal::too_large: return "too large";
        case Refusal::not_utf8: return "not UTF-8";
        case Refusal::unreadable: return "cannot be read";
    }
    return "?";
}

bool acceptable_name(std::string_view name) {
    if (name.empty() || name.size() > kMaxNameBytes || !utf8::is_valid(name)) return false;
    for (char c : name) {
        auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) return false;
    }
    return true;
}

bool is_source_name(std::string_view name) {
    static constexpr std::array<std::string_view, 12> kExtensions = {
        ".hs", ".lhs", ".hsc", ".hs-boot", ".lhs-boot", ".hsig", ".lhsig", ".x", ".y", ".ly", ".chs", ".cmm"};
    std::size_t slash = name.find_last_of('/');
    std::string_view base = slash == std::string_view::npos ? name : name.substr(slash + 1);
    for (std::string_view ext : kExtensions)
        if (base.size() > ext.size() && base.substr(base.size() - ext.size()) == ext) return true;
    return false;
}

SourceRoots::SourceRoots(const std::vector<std::string>& dirs) {
    for (const std::string& dir : dirs) {
        if (dir.empty()) throw Error("--sources: an empty directory name");
        std::string real = real_path(dir);
        struct stat st {};
        if (real.empty() || ::stat(real.c_str(), &st) != 0) throw Error("--sources " + dir + ": no such directory");
        if (!S_ISDIR(st.st_mode)) throw Error("--sources " + dir + ": not a directory");
        bool seen = false;
        for (const std::string& r : roots_) seen = seen || r == real;
        if (!seen) roots_.push_back(std::move(real));
    }
}

SourceRoots::Found SourceRoots::find(std::string_view name) const {
    if (!acceptable_name(name)) return {{}, Refusal::bad_name};
    const std::string text(name);
    for (const std::string& root : roots_) {
        std::string candidate = text.front() == '/' ? text : (root == "/" ? root : root + "/") + text;
        std::string real = real_path(candidate);
        std::string_view relative;
        if (real.empty() || !under(real, root, relative)) continue;  // missing here, or escapes this root
        if (hidden(relative) || !is_source_name(real)) return {{}, Refusal::not_source};
        struct stat st {};
        if (::stat(real.c_str(), &st) != 0) continue;
        if (!S_ISREG(st.st_mode)) return {{}, Refusal::not_regular};
        return {real, Refusal::none};
    }
    return {{}, Refusal::not_found};
}

SourceRoots::Text SourceRoots::read(std::string_view name, std::uint64_t max_bytes) const {
    Found found = find(name);
    if (found.refusal != Refusal::none) return {{}, found.refusal, {}};
    // O_NOFOLLOW: the real path names no link; one put there since is refused. O_NONBLOCK: a
    // FIFO put there since does not hang us (fstat refuses it).
    Fd fd(::open(found.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY));
    if (fd.get() < 0) return {{}, Refusal::unreadable, found.path};
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return {{}, Refusal::unreadable, found.path};
    if (!S_ISREG(st.st_mode)) return {{}, Refusal::not_regular, found.path};
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) return {{}, Refusal::too_large, found.path};
    std::string content;
    char buf[64 * 1024];
    for (;;) {
        ssize_t r = ::read(fd.get(), buf, sizeof buf);
        if (r < 0) {
            if (errno == EINTR) continue;
            return {{}, Refusal::unreadable, found.path};
        }
        if (r == 0) break;
        content.append(buf, static_cast<std::size_t>(r));
        if (content.size() > max_bytes) return {{}, Refusal::too_large, found.path};  // it grew
    }
    if (!utf8::is_valid(content)) return {{}, Refusal::not_utf8, found.path};
    return {std::move(content), Refusal::none, found.path};
}

}  // namespace el2fx::sources
