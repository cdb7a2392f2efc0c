// A ByteSink that hands its bytes to another sink on a worker thread, in blocks, so the
// downstream work (gzip compression and the file writes) runs beside the JSON writer on a
// second core instead of after it. The bytes reach downstream unchanged and in order.
// An error downstream is rethrown by the next write() or by finish().
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "fxprof/byte_sink.hpp"

namespace el2fx::fxprof {

class BackgroundSink final : public ByteSink {
public:
    static constexpr std::size_t kBlockBytes = 1 << 20;

    explicit BackgroundSink(ByteSink& downstream, std::size_t block_bytes = kBlockBytes);
    // Unfinished (an error elsewhere): stops the worker; what was not yet written is dropped.
    ~BackgroundSink() override;
    BackgroundSink(const BackgroundSink&) = delete;
    BackgroundSink& operator=(const BackgroundSink&) = delete;

    void write(const char* data, std::size_t size) override;
    // Hands over the last bytes and returns once downstream has them all.
    void finish();

private:
    void hand_over();  // the filling block to the worker (waits while it is busy)
    void run();        // the worker
    void rethrow_failure();

    ByteSink& downstream_;
    const std::size_t block_bytes_;
    std::vector<char> filling_;  // the writer's block
    std::vector<char> queued_;   // the worker's block (two blocks in all: bounded memory)
    bool has_queued_ = false;
    bool stopping_ = false;
    bool finished_ = false;
    std::exception_ptr failure_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::thread worker_;  // last: started once everything above exists
};

}  // namespace el2fx::fxprof
