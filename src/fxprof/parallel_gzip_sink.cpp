#include "fxprof/parallel_gzip_sink.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <zlib.h>

#include "util/error.hpp"

namespace el2fx::fxprof {
namespace {

constexpr std::size_t kWindow = 32 << 10;  // deflate's reach back: the dictionary each block gets
void put_le32(std::array<unsigned char, 8>& out, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace

ParallelGzipSink::ParallelGzipSink(ByteSink& downstream, int level, unsigned workers, std::size_t block_bytes)
    : ParallelGzipSink(downstream, level, fastest_engine(level), workers, block_bytes) {}

ParallelGzipSink::ParallelGzipSink(ByteSink& downstream, int level, DeflateEngine engine, unsigned workers,
                                   std::size_t block_bytes)
    : downstream_(downstream),
      level_(level),
      engine_(engine),
      block_bytes_(std::clamp<std::size_t>(block_bytes, 1, UINT_MAX / 2)),
      max_jobs_(std::max(1u, workers) + 2),
      filling_(std::make_unique<Job>()) {
    make_block_deflater(engine_, level_);  // a missing engine or an invalid level fails here, not on a worker
    filling_->input.reserve(block_bytes_);
    for (unsigned i = 0; i < std::max(1u, workers); ++i) workers_.emplace_back([this] { run(); });
}

ParallelGzipSink::~ParallelGzipSink() { stop_workers(); }  // (the deflaters end after the threads)

void ParallelGzipSink::stop_workers() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& w : workers_)
        if (w.joinable()) w.join();
}

// Compresses a taken job; its failure is kept for the writer to throw in stream order.
void ParallelGzipSink::compress(Job& job, BlockDeflater* deflater, std::exception_ptr init_failure) {
    try {
        if (init_failure) std::rethrow_exception(init_failure);
        deflater->compress(job.input, job.dictionary, job.last, job.output);
        job.crc = gzip_crc32(0, job.input.data(), job.input.size());
    } catch (...) {
        job.failure = std::current_exception();
    }
    {
        std::lock_guard lock(mutex_);
        job.done = true;
    }
    changed_.notify_all();
}

void ParallelGzipSink::run() {
    std::unique_ptr<BlockDeflater> deflater;
    std::exception_ptr init_failure;
    try {
        deflater = make_block_deflater(engine_, level_);
    } catch (...) {
        init_failure = std::current_exception();
    }
    for (;;) {
        Job* job = nullptr;
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return stopping_ || next_to_start_ < jobs_.size(); });
            if (stopping_) return;
            job = jobs_[next_to_start_++].get();
        }
        compress(*job, deflater.get(), init_failure);
    }
}

// With every slot taken, the writer compresses a waiting block itself rather than wait: on a
// machine with as many cores as threads, no core idles while the JSON writer is held up.
bool ParallelGzipSink::help_with_a_waiting_job() {
    Job* job = nullptr;
    {
        std::lock_guard lock(mutex_);
        if (next_to_start_ >= jobs_.size()) return false;
        job = jobs_[next_to_start_++].get();
    }
    if (!own_deflater_) own_deflater_ = make_block_deflater(engine_, level_);
    compress(*job, own_deflater_.get(), nullptr);
    return true;
}

void ParallelGzipSink::write(const char* data, std::size_t size) {
    if (finished_) throw Error("gzip: write after finish");
    while (size > 0) {
        std::vector<unsigned char>& input = filling_->input;
        const std::size_t n = std::min(size, block_bytes_ - input.size());
        input.insert(input.end(), reinterpret_cast<const unsigned char*>(data),
                     reinterpret_cast<const unsigned char*>(data) + n);
        data += n;
        size -= n;
        if (input.size() == block_bytes_) submit(false);
    }
}

void ParallelGzipSink::submit(bool last) {
    Job& job = *filling_;
    job.last = last;
    job.done = false;
    job.failure = nullptr;
    job.dictionary.assign(history_.begin(), history_.end());
    // The next block's dictionary: the last 32 KiB of everything so far.
    const std::size_t from_input = std::min(job.input.size(), kWindow);
    const std::size_t from_history = std::min(history_.size(), kWindow - from_input);
    history_.erase(history_.begin(), history_.end() - static_cast<std::ptrdiff_t>(from_history));
    history_.insert(history_.end(), job.input.end() - static_cast<std::ptrdiff_t>(from_input), job.input.end());
    total_ += job.input.size();

    write_done_jobs(false);
    while (true) {
        {
            std::lock_guard lock(mutex_);
            if (jobs_.size() < max_jobs_) {
                jobs_.push_back(std::move(filling_));
                break;
            }
        }
        if (!help_with_a_waiting_job()) write_done_jobs(true);
    }
    changed_.notify_all();
    if (!spare_.empty()) {
        filling_ = std::move(spare_.back());
        spare_.pop_back();
    } else {
        filling_ = std::make_unique<Job>();
        filling_->input.reserve(block_bytes_);
    }
    filling_->input.clear();
}

void ParallelGzipSink::write_done_jobs(bool wait) {
    for (;;) {
        std::unique_ptr<Job> job;
        {
            std::unique_lock lock(mutex_);
            if (wait) changed_.wait(lock, [this] { return jobs_.empty() || jobs_.front()->done; });
            if (jobs_.empty() || !jobs_.front()->done) return;
            job = std::move(jobs_.front());
            jobs_.pop_front();
            --next_to_start_;
        }
        wait = false;
        if (job->failure) std::rethrow_exception(job->failure);
        if (!header_written_) {
            // The gzip header: no name, no mtime (the same input gives the same bytes), the
            // extra flags as zlib sets them for the level, OS unknown.
            const unsigned char xfl = level_ == 9 ? 2 : level_ == 1 ? 4 : 0;
            const unsigned char header[10] = {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255};
            downstream_.write(reinterpret_cast<const char*>(header), sizeof header);
            header_written_ = true;
        }
        downstream_.write(reinterpret_cast<const char*>(job->output.data()), job->output.size());
        crc_ = static_cast<std::uint32_t>(crc32_combine(crc_, job->crc, static_cast<z_off_t>(job->input.size())));
        spare_.push_back(std::move(job));
    }
}

void ParallelGzipSink::finish() {
    if (finished_) return;
    submit(true);
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (jobs_.empty()) break;
        }
        if (!help_with_a_waiting_job()) write_done_jobs(true);
    }
    std::array<unsigned char, 8> trailer{};
    put_le32(trailer, 0, crc_);
    put_le32(trailer, 4, static_cast<std::uint32_t>(total_));  // ISIZE: the size modulo 2^32
    downstream_.write(reinterpret_cast<const char*>(trailer.data()), trailer.size());
    finished_ = true;
    stop_workers();
}

}  // namespace el2fx::fxprof
