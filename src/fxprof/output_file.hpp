// Output files that appear whole or not at all: bytes go to a temporary file in the destination
// directory, which is fsync'd and renamed over the destination on commit(). Destroyed without
// commit() (an error anywhere), the temporary file is removed. "-" is standard output (no
// temporary file; what was written stays written).
#pragma once

#include <optional>
#include <string>

#include "fxprof/byte_sink.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile.hpp"
#include "fxprof/profile_writer.hpp"

namespace el2fx::fxprof {

class OutputFile {
public:
    explicit OutputFile(std::string path);  // throws el2fx::Error (with the path) on failure
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    ByteSink& sink() { return sink_; }
    void commit();
    const std::string& path() const { return path_; }
    const std::string& temp_path() const { return temp_path_; }  // empty for "-"

private:
    void discard() noexcept;

    std::string path_;
    std::string temp_path_;
    int fd_ = -1;
    bool committed_ = false;
    FdSink sink_;
};

// Writes the profile gzip-compressed (the profiler gunzips by magic number, whatever the name).
// level: zlib's 1 (fastest, the default) to 9 (smallest).
WriteStats write_profile_gz(const Profile& profile, const std::string& path,
                            int level = GzipSink::kDefaultLevel);
// Writes plain JSON (tests, debugging).
WriteStats write_profile_json_file(const Profile& profile, const std::string& path);

}  // namespace el2fx::fxprof
