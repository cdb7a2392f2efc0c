// gzip compression as a ByteSink filter (zlib deflate with a gzip wrapper: windowBits 15 + 16),
// with an explicit finish(). The header's mtime is 0 and its OS byte fixed, so the same input
// gives the same bytes. And the reverse, for tests and tools: gunzip().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fxprof/byte_sink.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

class GzipSink final : public ByteSink {
public:
    // zlib level 1: on profile JSON it is much faster than level 6 for a file only a little
    // larger (the figures are in git history, not here).
    static constexpr int kDefaultLevel = 1;

    explicit GzipSink(ByteSink& downstream, int level = kDefaultLevel);
    ~GzipSink() override;
    GzipSink(const GzipSink&) = delete;
    GzipSink& operator=(const GzipSink&) = delete;

    void write(const char* data, std::size_t size) override;
    // Ends the gzip stream (trailer with CRC and size) and hands everything downstream.
    // Writing after finish() is an error; a sink destroyed unfinished wrote an incomplete file.
    void finish();

private:
    struct State;
    void pump(int flush);
    std::unique_ptr<State> state_;
    ByteSink& downstream_;
    bool finished_ = false;
};

// The 10-byte header of a gzip member written in deflated blocks (segmented_gzip.hpp): no
// name, no mtime (the same input gives the same bytes), the extra flags as zlib sets them for
// the level, OS unknown.
void write_gzip_header(ByteSink& out, int level);
// Its 8-byte trailer: the CRC-32 of the uncompressed bytes and their count modulo 2^32.
void write_gzip_trailer(ByteSink& out, std::uint32_t crc, std::uint64_t size);

// The error of a compression library's call: "gzip: <what> failed (<library> <code>[: <detail>])".
Error compression_error(const char* what, const char* library, int code, const char* detail = nullptr);

// Decompresses a gzip stream (one or more members); throws el2fx::Error if it is corrupt or
// truncated.
std::string gunzip(std::string_view compressed);

// True if the bytes start with the gzip magic number.
bool looks_gzipped(std::string_view bytes);

}  // namespace el2fx::fxprof
