// A private temporary directory (mode 0700, in $TMPDIR or /tmp) for the FIFO and the spool file
// of a recording. The destructor removes the files named through it and the directory; they are
// registered (util/temp_files.hpp), so a signal handler removes them too.
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
    // The path of `name` inside the directory, remembered so that it is removed with it.
    std::string file(const std::string& name);

private:
    struct Entry {
        std::string path;
        int slot;  // in the temp-file registry; -1: not registered
    };
    std::string path_;
    int slot_ = -1;
    std::vector<Entry> files_;
};

// The directory name `PrivateDir` would make, with XXXXXX for the random part (--dry-run).
std::string private_dir_pattern(const std::string& prefix = "eventlog2fxprof");

}  // namespace el2fx::record
