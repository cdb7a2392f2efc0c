#include "record/private_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "util/error.hpp"
#include "util/temp_files.hpp"

namespace el2fx::record {
namespace {

std::string temp_root() {
    const char* tmp = std::getenv("TMPDIR");
    std::string root = tmp && *tmp ? tmp : "/tmp";
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    return root;
}

}  // namespace

std::string private_dir_pattern(const std::string& prefix) { return temp_root() + "/" + prefix + ".XXXXXX"; }

PrivateDir::PrivateDir(const std::string& prefix) {
    std::string pattern = private_dir_pattern(prefix);
    if (::mkdtemp(pattern.data()) == nullptr)  // mode 0700
        throw Error("cannot make a temporary directory " + pattern + ": " + std::strerror(errno) +
                    " (set TMPDIR to a writable directory)");
    path_ = pattern;
    slot_ = util::register_temp_dir(path_);
}

std::string PrivateDir::file(const std::string& name) {
    std::string p = path_ + "/" + name;
    files_.push_back({p, util::register_temp_file(p)});
    return p;
}

PrivateDir::~PrivateDir() {
    // Removed before unregistered: a signal in between finds nothing left to remove, not a leftover.
    for (const Entry& f : files_) {
        ::unlink(f.path.c_str());
        util::unregister_temp_file(f.slot);
    }
    ::rmdir(path_.c_str());
    util::unregister_temp_file(slot_);
}

}  // namespace el2fx::record
