// A private temporary directory (mode 0700, in $TMPDIR or /tmp) for the FIFO and the spool file
// of a recording. The destructor removes the files named through it and the directory; a
// signal handler removes them with remove_private_dirs(), which is async-signal-safe.
#pragma once

#include <string>
#include <vector>

namespace el2fx::record {

class PrivateDir {
public:
    // Throws el2fx::Error when the directory cannot be made.
    explicit PrivateDir(const std::string& prefix = "eventlog2fxprof");
    ~PrivateDir();
    PrivateDir(const PrivateDir&) = delete;
    PrivateDir& operator=(const PrivateDir&) = delete;

    const std::string& path() const { return path_; }
    // The path of `name` inside the directory, remembered so that it is removed with it
    // (at most 4 names per directory).
    std::string file(const std::string& name);

private:
    std::string path_;
    int slot_ = -1;
    int files_ = 0;
    std::vector<std::string> names_;
};

// The directory name `PrivateDir` would make, with XXXXXX for the random part (--dry-run).
std::string private_dir_pattern(const std::string& prefix = "eventlog2fxprof");

// Unlinks the files named through every live PrivateDir, then removes the directories.
// Async-signal-safe (atomics, unlink(2), rmdir(2)).
void remove_private_dirs() noexcept;

}  // namespace el2fx::record
