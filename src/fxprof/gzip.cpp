#include "fxprof/gzip.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>
#include <zlib.h>

#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {
constexpr int kGzipWindowBits = 15 + 16;  // 32 KiB window, gzip wrapper
constexpr int kMemLevel = 8;
constexpr int kOsUnknown = 255;  // the header's OS byte: fixed, so output is platform-neutral
constexpr std::size_t kChunk = 64 * 1024;
constexpr std::size_t kMaxAvail = UINT_MAX;  // zlib's avail_in is a uInt

Error zlib_error(const char* what, int code, const z_stream& zs) { return compression_error(what, "zlib", code, zs.msg); }
}  // namespace

struct GzipSink::State {
    z_stream zs{};
    gz_header header{};
    std::array<unsigned char, kChunk> out{};
    bool initialised = false;
};

GzipSink::GzipSink(ByteSink& downstream, int level) : state_(std::make_unique<State>()), downstream_(downstream) {
    z_stream& zs = state_->zs;
    const int rc = deflateInit2(&zs, level, Z_DEFLATED, kGzipWindowBits, kMemLevel, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) throw zlib_error("deflateInit2", rc, zs);
    state_->initialised = true;
    state_->header.time = 0;  // no timestamp of the conversion run
    state_->header.os = kOsUnknown;
    const int hc = deflateSetHeader(&zs, &state_->header);
    if (hc != Z_OK) throw zlib_error("deflateSetHeader", hc, zs);
}

GzipSink::~GzipSink() {
    if (state_ && state_->initialised) deflateEnd(&state_->zs);  // Z_DATA_ERROR if unfinished: fine
}

void GzipSink::pump(int flush) {
    z_stream& zs = state_->zs;
    for (;;) {
        zs.next_out = state_->out.data();
        zs.avail_out = static_cast<uInt>(state_->out.size());
        const int rc = deflate(&zs, flush);
        const std::size_t produced = state_->out.size() - zs.avail_out;
        if (rc == Z_STREAM_ERROR) throw zlib_error("deflate", rc, zs);
        if (rc == Z_BUF_ERROR && (zs.avail_in != 0 || flush == Z_FINISH))
            throw zlib_error("deflate", rc, zs);  // no progress although work was left
        if (rc != Z_OK && rc != Z_BUF_ERROR && rc != Z_STREAM_END) throw zlib_error("deflate", rc, zs);
        if (produced > 0) downstream_.write(reinterpret_cast<const char*>(state_->out.data()), produced);
        if (flush == Z_FINISH) {
            if (rc == Z_STREAM_END) return;
        } else if (zs.avail_out != 0) {
            return;  // all input consumed and the output buffer was not filled
        }
    }
}

void GzipSink::write(const char* data, std::size_t size) {
    if (finished_) throw Error("gzip: write after finish");
    z_stream& zs = state_->zs;
    while (size > 0) {
        const std::size_t n = std::min(size, kMaxAvail);
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
        zs.avail_in = static_cast<uInt>(n);
        pump(Z_NO_FLUSH);
        if (zs.avail_in != 0) throw Error("gzip: deflate left input unconsumed");
        data += n;
        size -= n;
    }
}

void GzipSink::finish() {
    if (finished_) return;
    z_stream& zs = state_->zs;
    zs.next_in = nullptr;
    zs.avail_in = 0;
    pump(Z_FINISH);
    finished_ = true;
    const int rc = deflateEnd(&zs);
    state_->initialised = false;
    if (rc != Z_OK) throw zlib_error("deflateEnd", rc, zs);
}

void write_gzip_header(ByteSink& out, int level) {
    const unsigned char xfl = level == 9 ? 2 : level == 1 ? 4 : 0;
    const unsigned char header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255};
    out.write(reinterpret_cast<const char*>(header), sizeof header);
}

void write_gzip_trailer(ByteSink& out, std::uint32_t crc, std::uint64_t size) {
    unsigned char trailer[8];
    for (int i = 0; i < 4; ++i) {
        trailer[i] = static_cast<unsigned char>(crc >> (8 * i));
        trailer[4 + i] = static_cast<unsigned char>(size >> (8 * i));  // ISIZE: modulo 2^32
    }
    out.write(reinterpret_cast<const char*>(trailer), sizeof trailer);
}

Error compression_error(const char* what, const char* library, int code, const char* detail) {
    std::string msg = std::string("gzip: ") + what + " failed (" + library + " " + std::to_string(code);
    if (detail) msg += std::string(": ") + detail;
    return Error(msg + ")");
}

bool looks_gzipped(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(std::string_view compressed) {
    if (!looks_gzipped(compressed)) throw Error("gzip: not a gzip stream");
    z_stream zs{};
    int rc = inflateInit2(&zs, kGzipWindowBits);
    if (rc != Z_OK) throw zlib_error("inflateInit2", rc, zs);
    struct End {
        z_stream* zs;
        ~End() { inflateEnd(zs); }
    } end{&zs};

    std::string out;
    std::array<unsigned char, kChunk> buf;
    auto next = reinterpret_cast<const unsigned char*>(compressed.data());
    std::size_t left = compressed.size();
    bool in_member = false;
    while (left > 0 || zs.avail_in > 0 || in_member) {
        if (zs.avail_in == 0 && left > 0) {
            const std::size_t n = std::min(left, kMaxAvail);
            zs.next_in = const_cast<Bytef*>(next);
            zs.avail_in = static_cast<uInt>(n);
            next += n;
            left -= n;
        }
        in_member = true;
        zs.next_out = buf.data();
        zs.avail_out = static_cast<uInt>(buf.size());
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(reinterpret_cast<const char*>(buf.data()), buf.size() - zs.avail_out);
        if (rc == Z_STREAM_END) {
            in_member = false;
            if (zs.avail_in == 0 && left == 0) break;
            rc = inflateReset(&zs);  // another gzip member follows
            if (rc != Z_OK) throw zlib_error("inflateReset", rc, zs);
            continue;
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0 && left == 0) throw Error("gzip: truncated stream");
        if (rc != Z_OK && rc != Z_BUF_ERROR) throw zlib_error("inflate", rc, zs);
    }
    return out;
}

}  // namespace el2fx::fxprof
