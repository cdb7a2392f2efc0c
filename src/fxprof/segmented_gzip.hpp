// One gzip member made of segments rendered and deflated on two threads at once. A document
// (the profile's JSON) is cut into segments at points its content fixes; each thread takes the
// next segment in order, renders its text and deflates it as it goes, in blocks primed with the
// 32 KiB of the segment before them and ended on a byte boundary (the last segment's last block
// ends the stream), so the pieces join into one deflate stream. The CRC is combined from the
// blocks'. A segment's blocks go downstream as soon as every segment before it has gone; a
// thread ahead of that keeps its blocks in memory, up to a bound, then waits.
//
// Both cores render and deflate: rendering the text, not deflating it, bounded the write when
// one thread wrote the JSON and another deflated it (the figures: git history). The bytes
// depend only on the segments' text, the engine, the level and the block size, never on the
// threads' number or timing: the same document gives the same file. A segment's first block
// has no dictionary, so cut few segments (a megabyte or more), not one per small value.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include "fxprof/block_deflater.hpp"
#include "fxprof/byte_sink.hpp"
#include "fxprof/gzip.hpp"

namespace el2fx::fxprof {

struct SegmentedGzipOptions {
    int level = GzipSink::kDefaultLevel;
    std::optional<DeflateEngine> engine;  // by default fastest_engine(level)
    unsigned threads = 2;                 // the caller's and one more
    std::size_t block_bytes = std::size_t{256} << 10;
    // The memory of compressed bytes a thread ahead of the written segments may hold before
    // it waits.
    std::size_t held_bytes = std::size_t{8} << 20;
};

// Renders `segment`'s text into `text`; `slot` (0 .. threads - 1) names the rendering thread,
// so that each thread can use state of its own. Called once per segment, in no fixed order
// between threads, and concurrently.
using SegmentRenderer = std::function<void(unsigned slot, std::size_t segment, ByteSink& text)>;

// Writes the gzip member of `segments` segments downstream; returns the uncompressed size.
// The first error (a renderer's, the deflater's, downstream's) is thrown once every thread
// has stopped; downstream has then received an incomplete member.
std::uint64_t write_segmented_gzip(ByteSink& downstream, std::size_t segments, const SegmentRenderer& render,
                                   const SegmentedGzipOptions& options = {});

}  // namespace el2fx::fxprof
