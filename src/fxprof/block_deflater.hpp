// Deflates one block of a gzip member written in blocks (segmented_gzip.hpp): primed with the
// 32 KiB before it, ended on a byte boundary (or, the last, with the stream's end), so that the
// blocks join into one deflate stream. Two engines: zlib, always there, and ISA-L's igzip
// when the build found it (Debian's libisal-dev), which deflates profile JSON about four times
// as fast for a slightly smaller file (README, "Benchmarks"). Either gives one gzip member,
// which is all the profiler's DecompressionStream('gzip') reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace el2fx::fxprof {

enum class DeflateEngine { zlib, isal };

class BlockDeflater {
public:
    virtual ~BlockDeflater() = default;
    // Deflates `input` after `dictionary` (at most 32 KiB) into `output` (replaced), ending on a
    // byte boundary or, if `last`, with the final block.
    virtual void compress(const std::vector<unsigned char>& input, const std::vector<unsigned char>& dictionary,
                          bool last, std::vector<unsigned char>& output) = 0;
};

// The dictionary of the block after `input`: the last 32 KiB (deflate's reach back) of
// `dictionary` (the one before it) followed by `input`.
void slide_dictionary(std::vector<unsigned char>& dictionary, const std::vector<unsigned char>& input);

// Whether this build has the engine (zlib: always).
bool has_engine(DeflateEngine engine);
// The fastest engine the build has for a zlib-style `level` (igzip's levels are 0 to 3 and
// not zlib's; it takes 1 to 3, which are zlib's fast levels).
DeflateEngine fastest_engine(int level);
// Throws el2fx::Error if the engine is missing or refuses the level.
std::unique_ptr<BlockDeflater> make_block_deflater(DeflateEngine engine, int level);

// The gzip trailer's CRC-32 of `size` bytes, continuing `crc` (0 to start): ISA-L's
// carry-less-multiply version when the build has it, else zlib's.
std::uint32_t gzip_crc32(std::uint32_t crc, const unsigned char* data, std::size_t size);

}  // namespace el2fx::fxprof
