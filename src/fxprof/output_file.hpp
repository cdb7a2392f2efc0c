// Where a profile is written. What is at the path decides how:
// - nothing, or a regular file: the bytes go to a temporary file in the same directory,
//   which is fsync'd and renamed over the path on commit(), so the file appears whole or not
//   at all. Destroyed without commit() (an error anywhere), the temporary file is removed;
//   it is registered (temp_files.hpp) so that a program killed by a signal can remove it too.
// - a character device (/dev/null, a terminal) or a FIFO: written straight into, as a
//   shell's `>` does (never replaced by a regular file); what was written stays written.
// - a symbolic link: followed (chains too) to what it names, and the rules above apply
//   there; the link itself stays (a dangling link gets its target created).
// - a directory, a block device or a socket: refused with an el2fx::Error naming the path.
// "-" is standard output (what was written stays written).
#pragma once

#include <cstdint>
#include <string>

#include "fxprof/byte_sink.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile.hpp"
#include "fxprof/profile_writer.hpp"

namespace el2fx::fxprof {

class OutputFile {
public:
    enum class Kind {
        standard_output,  // "-"
        replaced,         // temporary file renamed over the target
        direct,           // character device or FIFO, written in place
    };

    explicit OutputFile(std::string path);  // throws el2fx::Error (with the path) on failure
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    ByteSink& sink() { return sink_; }
    void commit();
    const std::string& path() const { return path_; }            // as given
    const std::string& target() const { return target_; }        // symbolic links followed
    const std::string& temp_path() const { return temp_path_; }  // empty unless `replaced`
    Kind kind() const { return kind_; }
    std::uint64_t bytes_written() const { return sink_.bytes_written(); }

private:
    struct Opened;
    static Opened open_output(const std::string& path);
    OutputFile(std::string path, Opened opened);
    void discard() noexcept;

    std::string path_;
    Kind kind_;
    std::string target_;
    std::string temp_path_;
    int fd_ = -1;
    int temp_slot_ = -1;  // in the registry of temporary files
    bool committed_ = false;
    FdSink sink_;
};

// Writes the profile gzip-compressed (the profiler gunzips by magic number, whatever the name),
// then commits `out`. level: zlib's 1 (fastest, the default) to 9 (smallest).
WriteStats write_profile_gz(const Profile& profile, OutputFile& out, int level = GzipSink::kDefaultLevel);
WriteStats write_profile_gz(const Profile& profile, const std::string& path, int level = GzipSink::kDefaultLevel);
// Writes plain JSON (tests, debugging).
WriteStats write_profile_json_file(const Profile& profile, const std::string& path);

}  // namespace el2fx::fxprof
