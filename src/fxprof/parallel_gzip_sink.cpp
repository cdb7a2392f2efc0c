#include "fxprof/parallel_gzip_sink.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <zlib.h>

#include "util/error.hpp"

namespace el2fx::fxprof {
namespace {

constexpr std::size_t kWindow = 32 << 10;  // deflate's reach back: the dictionary each block gets
constexpr int kRawDeflate = -15;           // no zlib or gzip wrapper: this sink writes the gzip one
constexpr int kMemLevel = 8;

Error zlib_error(const char* what, int code) {
    return Error(std::string("gzip: ") + what + " failed (zlib " + std::to_string(code) + ")");
}

void put_le32(std::array<unsigned char, 8>& out, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(v >> (8 * i));
}

}  // namespace

// A worker's deflate stream, reset for each block.
class ParallelGzipSink::Deflater {
public:
    explicit Deflater(int level) {
        const int rc = deflateInit2(&zs_, level, Z_DEFLATED, kRawDeflate, kMemLevel, Z_DEFAULT_STRATEGY);
        if (rc != Z_OK) throw zlib_error("deflateInit2", rc);
    }
    ~Deflater() { deflateEnd(&zs_); }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;

    // Deflates `input` after `dictionary`, ending on a byte boundary or (last) the stream's end.
    void compress(const std::vector<unsigned char>& input, const std::vector<unsigned char>& dictionary, bool last,
                  std::vector<unsigned char>& output) {
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

ParallelGzipSink::ParallelGzipSink(ByteSink& downstream, int level, unsigned workers, std::size_t block_bytes)
    : downstream_(downstream),
      level_(level),
      block_bytes_(std::clamp<std::size_t>(block_bytes, 1, UINT_MAX / 2)),
      max_jobs_(std::max(1u, workers) + 2),
      filling_(std::make_unique<Job>()) {
    Deflater check(level_);  // an invalid level fails here, not on a worker
    filling_->input.reserve(block_bytes_);
    crc_ = static_cast<std::uint32_t>(crc32(0, nullptr, 0));
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
void ParallelGzipSink::compress(Job& job, Deflater* deflater, std::exception_ptr init_failure) {
    try {
        if (init_failure) std::rethrow_exception(init_failure);
        deflater->compress(job.input, job.dictionary, job.last, job.output);
        job.crc = static_cast<std::uint32_t>(crc32(0, job.input.data(), static_cast<uInt>(job.input.size())));
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
    std::unique_ptr<Deflater> deflater;
    std::exception_ptr init_failure;
    try {
        deflater = std::make_unique<Deflater>(level_);
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
    if (!own_deflater_) own_deflater_ = std::make_unique<Deflater>(level_);
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
