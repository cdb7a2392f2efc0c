// gzip on worker threads, the way pigz does it: the bytes are cut into blocks; each block is
// deflated on a worker, primed with the 32 KiB that precede it (so matches reach back as in
// one stream) and ended on a byte boundary (a sync flush; the stream's end for the last), so the
// pieces join into one deflate stream in one gzip member. The CRC is combined from the
// blocks'. The bytes depend only on the input, the engine, the level and the block size, never
// on the threads' timing: the same profile gives the same file (block_deflater.hpp: igzip when
// the build has it, zlib otherwise).
//
// Compressing was the longest part of writing a large profile (longer than the JSON writer
// feeding it); with the work split, the writer sets the pace (figures: the README).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "fxprof/block_deflater.hpp"
#include "fxprof/byte_sink.hpp"
#include "fxprof/gzip.hpp"

namespace el2fx::fxprof {

class ParallelGzipSink final : public ByteSink {
public:
    // 256 KiB: with igzip, half of the 512 KiB before costs no write time, makes a slightly
    // smaller file and the sink's buffers 1 MB less (the measurements: git history).
    static constexpr std::size_t kBlockBytes = 256 << 10;
    static constexpr unsigned kWorkers = 1;  // and the writer's thread, when blocks wait

    explicit ParallelGzipSink(ByteSink& downstream, int level = GzipSink::kDefaultLevel, unsigned workers = kWorkers,
                              std::size_t block_bytes = kBlockBytes);
    // The same with a chosen engine (both have tests); the first takes fastest_engine(level).
    ParallelGzipSink(ByteSink& downstream, int level, DeflateEngine engine, unsigned workers = kWorkers,
                     std::size_t block_bytes = kBlockBytes);
    // Unfinished (an error elsewhere): stops the workers; the output is incomplete.
    ~ParallelGzipSink() override;
    ParallelGzipSink(const ParallelGzipSink&) = delete;
    ParallelGzipSink& operator=(const ParallelGzipSink&) = delete;

    void write(const char* data, std::size_t size) override;
    // Compresses the last block, hands everything downstream in order, then the trailer.
    void finish();

private:
    struct Job {
        std::vector<unsigned char> input;
        std::vector<unsigned char> dictionary;  // the 32 KiB of input before this block
        std::vector<unsigned char> output;
        std::uint32_t crc = 0;
        bool last = false;
        bool done = false;
        std::exception_ptr failure;
    };

    void submit(bool last);           // the filling block to the workers (waits if too many are out)
    void write_done_jobs(bool wait);  // finished blocks downstream, in order
    bool help_with_a_waiting_job();   // compresses one on the writer's thread; false if none waits
    void compress(Job& job, BlockDeflater* deflater, std::exception_ptr init_failure);
    void run();  // a worker
    void stop_workers();

    ByteSink& downstream_;
    const int level_;
    const DeflateEngine engine_;
    const std::size_t block_bytes_;
    const std::size_t max_jobs_;              // blocks compressed or waiting at once: bounded memory
    std::unique_ptr<BlockDeflater> own_deflater_;  // the writer's, when it helps
    std::unique_ptr<Job> filling_;
    std::vector<std::unique_ptr<Job>> spare_;  // written jobs, their buffers reused
    bool header_written_ = false;
    std::vector<unsigned char> history_;  // the last 32 KiB written, the next block's dictionary
    std::uint32_t crc_ = 0;
    std::uint64_t total_ = 0;
    bool finished_ = false;

    std::deque<std::unique_ptr<Job>> jobs_;  // in stream order; workers take the first not started
    std::size_t next_to_start_ = 0;          // index in jobs_ of the first job no worker took
    bool stopping_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::thread> workers_;  // last: started once everything above exists
};

}  // namespace el2fx::fxprof
