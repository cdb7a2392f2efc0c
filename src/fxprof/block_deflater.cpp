#include "fxprof/block_deflater.hpp"

#include <algorithm>
#include <string>
#include <zlib.h>

#include "fxprof/gzip.hpp"
#include "util/error.hpp"

#ifdef EL2FX_HAVE_ISAL
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#endif

namespace el2fx::fxprof {
namespace {

constexpr int kRawDeflate = -15;  // no zlib or gzip wrapper: the sink writes the gzip one
constexpr int kMemLevel = 8;

Error zlib_error(const char* what, int code) { return compression_error(what, "zlib", code); }

// A zlib stream, reset for each block.
class ZlibDeflater final : public BlockDeflater {
public:
    explicit ZlibDeflater(int level) {
        const int rc = deflateInit2(&zs_, level, Z_DEFLATED, kRawDeflate, kMemLevel, Z_DEFAULT_STRATEGY);
        if (rc != Z_OK) throw zlib_error("deflateInit2", rc);
    }
    ~ZlibDeflater() override { deflateEnd(&zs_); }
    ZlibDeflater(const ZlibDeflater&) = delete;
    ZlibDeflater& operator=(const ZlibDeflater&) = delete;

    void compress(const std::vector<unsigned char>& input, const std::vector<unsigned char>& dictionary, bool last,
                  std::vector<unsigned char>& output) override {
        int rc = deflateReset(&zs_);
        if (rc != Z_OK) throw zlib_error("deflateReset", rc);
        if (!dictionary.empty()) {
            rc = deflateSetDictionary(&zs_, dictionary.data(), static_cast<uInt>(dictionary.size()));
            if (rc != Z_OK) throw zlib_error("deflateSetDictionary", rc);
        }
        output.resize(deflateBound(&zs_, static_cast<uLong>(input.size())) + 16);  // + the flush marker
        zs_.next_in = const_cast<Bytef*>(input.data());
        zs_.avail_in = static_cast<uInt>(input.size());
        std::size_t produced = 0;
        for (;;) {
            zs_.next_out = output.data() + produced;
            zs_.avail_out = static_cast<uInt>(output.size() - produced);
            rc = deflate(&zs_, last ? Z_FINISH : Z_SYNC_FLUSH);
            produced = output.size() - zs_.avail_out;
            if (rc == Z_STREAM_ERROR) throw zlib_error("deflate", rc);
            const bool complete = last ? rc == Z_STREAM_END : (zs_.avail_in == 0 && zs_.avail_out != 0);
            if (complete) break;
            if (zs_.avail_out == 0)
                output.resize(output.size() * 2);  // beyond the bound: never expected
            else if (rc != Z_OK && rc != Z_BUF_ERROR)
                throw zlib_error("deflate", rc);
        }
        output.resize(produced);
    }

private:
    z_stream zs_{};
};

#ifdef EL2FX_HAVE_ISAL
Error isal_error(const char* what, int code) { return compression_error(what, "igzip", code); }

// An igzip stream with its level's buffer, reset for each block.
class IsalDeflater final : public BlockDeflater {
public:
    explicit IsalDeflater(int level) : level_buf_(level_buffer_size(level)) {
        isal_deflate_init(&zs_);
        zs_.level = static_cast<std::uint32_t>(level);
        zs_.level_buf = level_buf_.data();
        zs_.level_buf_size = static_cast<std::uint32_t>(level_buf_.size());
        zs_.gzip_flag = IGZIP_DEFLATE;  // raw: the sink writes the gzip wrapper
    }

    void compress(const std::vector<unsigned char>& input, const std::vector<unsigned char>& dictionary, bool last,
                  std::vector<unsigned char>& output) override {
        isal_deflate_reset(&zs_);
        if (!dictionary.empty()) {
            const int rc = isal_deflate_set_dict(&zs_, const_cast<unsigned char*>(dictionary.data()),
                                                 static_cast<std::uint32_t>(dictionary.size()));
            if (rc != COMP_OK) throw isal_error("isal_deflate_set_dict", rc);
        }
        // Stored blocks at worst, each with its 5-byte header, and the flush's empty block.
        output.resize(input.size() + input.size() / 16 + 64);
        zs_.next_in = const_cast<unsigned char*>(input.data());
        zs_.avail_in = static_cast<std::uint32_t>(input.size());
        zs_.end_of_stream = last ? 1 : 0;
        zs_.flush = last ? NO_FLUSH : SYNC_FLUSH;
        std::size_t produced = 0;
        for (;;) {
            zs_.next_out = output.data() + produced;
            zs_.avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(output.size() - produced, UINT32_MAX));
            const std::uint32_t in_before = zs_.avail_in;
            const std::size_t out_before = produced;
            const int rc = isal_deflate(&zs_);
            produced = static_cast<std::size_t>(zs_.next_out - output.data());
            if (rc != COMP_OK) throw isal_error("isal_deflate", rc);
            // Everything is out once the input is taken and the stream waits for a new block
            // (after the sync flush) or has ended.
            if (zs_.avail_in == 0 && zs_.internal_state.state == (last ? ZSTATE_END : ZSTATE_NEW_HDR)) break;
            if (zs_.avail_out == 0)
                output.resize(output.size() * 2);  // beyond the bound: never expected
            else if (produced == out_before && zs_.avail_in == in_before)
                throw isal_error("isal_deflate (no progress)", rc);  // never loop for ever
        }
        output.resize(produced);
    }

private:
    static std::size_t level_buffer_size(int level) {
        switch (level) {
            case 1: return ISAL_DEF_LVL1_SMALL;
            case 2: return ISAL_DEF_LVL2_DEFAULT;
            case 3: return ISAL_DEF_LVL3_DEFAULT;
            default: throw Error("gzip: igzip has no level " + std::to_string(level));
        }
    }
    std::vector<std::uint8_t> level_buf_;
    isal_zstream zs_{};
};
#endif

}  // namespace

bool has_engine([[maybe_unused]] DeflateEngine engine) {
#ifdef EL2FX_HAVE_ISAL
    return true;
#else
    return engine == DeflateEngine::zlib;
#endif
}

DeflateEngine fastest_engine(int level) {
    return has_engine(DeflateEngine::isal) && level >= 1 && level <= 3 ? DeflateEngine::isal : DeflateEngine::zlib;
}

std::unique_ptr<BlockDeflater> make_block_deflater(DeflateEngine engine, int level) {
    if (engine == DeflateEngine::zlib) return std::make_unique<ZlibDeflater>(level);
#ifdef EL2FX_HAVE_ISAL
    return std::make_unique<IsalDeflater>(level);
#else
    throw Error("gzip: this build has no igzip (ISA-L)");
#endif
}

void slide_dictionary(std::vector<unsigned char>& dictionary, const std::vector<unsigned char>& input) {
    constexpr std::size_t kWindow = 32 << 10;
    const std::size_t from_input = std::min(input.size(), kWindow);
    const std::size_t from_before = std::min(dictionary.size(), kWindow - from_input);
    dictionary.erase(dictionary.begin(), dictionary.end() - static_cast<std::ptrdiff_t>(from_before));
    dictionary.insert(dictionary.end(), input.end() - static_cast<std::ptrdiff_t>(from_input), input.end());
}

std::uint32_t gzip_crc32(std::uint32_t crc, const unsigned char* data, std::size_t size) {
#ifdef EL2FX_HAVE_ISAL
    return crc32_gzip_refl(crc, data, size);
#else
    return static_cast<std::uint32_t>(crc32_z(crc, data, size));
#endif
}

}  // namespace el2fx::fxprof
