#include "fxprof/segmented_gzip.hpp"

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <exception>
#include <limits>
#include <mutex>
#include <span>
#include <thread>
#include <vector>
#include <zlib.h>

#include "fxprof/block_deflater.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// What the trailer needs of some input: its CRC-32 and size.
struct InputSum {
    std::uint32_t crc = 0;
    std::uint64_t size = 0;

    // The input followed by more.
    void add(const InputSum& more) {
        crc = static_cast<std::uint32_t>(crc32_combine(crc, more.crc, static_cast<z_off_t>(more.size)));
        size += more.size;
    }
};

// Deflated bytes and the sum of their input.
struct Deflated {
    std::vector<unsigned char> bytes;
    InputSum input;
};

// What the threads share: which segment comes next, and the order of the blocks downstream.
// Downstream is written under the lock, by whichever thread finds the blocks' turn has come.
class SegmentOrder {
public:
    SegmentOrder(ByteSink& downstream, std::size_t segments, std::size_t held_limit)
        : downstream_(downstream), held_(segments), held_limit_(held_limit) {}

    // The next segment to render; kNone when every one is taken or a thread failed.
    std::size_t take() {
        std::lock_guard lock(mutex_);
        if (failure_ || next_ >= held_.size()) return kNone;
        return next_++;
    }

    // A block of `segment`: downstream if every segment before it has gone, else kept (its
    // bytes only: the caller reuses its buffer), and then, with too much kept, waits for its
    // turn.
    void put(std::size_t segment, std::span<const unsigned char> bytes, const InputSum& input) {
        std::unique_lock lock(mutex_);
        if (failure_) throw Error("gzip: stopped by another thread's failure");
        if (head_ == segment) {
            write_held(segment);
            write(bytes, input);
            return;
        }
        Deflated& held = held_[segment].deflated;
        held_bytes_ -= held.bytes.capacity();  // the memory held, not only the bytes
        held.bytes.insert(held.bytes.end(), bytes.begin(), bytes.end());
        held.input.add(input);
        held_bytes_ += held.bytes.capacity();
        changed_.wait(lock, [&] { return failure_ || head_ == segment || held_bytes_ <= held_limit_; });
        if (failure_) throw Error("gzip: stopped by another thread's failure");
        if (head_ == segment) write_held(segment);
    }

    // `segment` has all its blocks: the segments after it whose blocks are all kept follow it.
    void finish(std::size_t segment) {
        std::lock_guard lock(mutex_);
        held_[segment].done = true;
        while (head_ < held_.size() && held_[head_].done) {
            write_held(head_);
            ++head_;
        }
        changed_.notify_all();
    }

    void fail(std::exception_ptr e) {
        {
            std::lock_guard lock(mutex_);
            if (!failure_) failure_ = e;
        }
        changed_.notify_all();
    }
    // After the threads stopped.
    std::exception_ptr failure() const { return failure_; }
    const InputSum& written() const { return written_; }

private:
    struct Held {
        Deflated deflated;
        bool done = false;
    };

    void write(std::span<const unsigned char> bytes, const InputSum& input) {
        downstream_.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        written_.add(input);
    }
    void write_held(std::size_t segment) {
        Deflated& held = held_[segment].deflated;
        if (held.bytes.empty()) return;
        write(held.bytes, held.input);
        held_bytes_ -= held.bytes.capacity();
        held = Deflated{};  // its memory freed
        changed_.notify_all();
    }

    ByteSink& downstream_;
    std::vector<Held> held_;
    const std::size_t held_limit_;
    std::size_t held_bytes_ = 0;
    std::size_t next_ = 0;  // the next segment to take
    std::size_t head_ = 0;  // the first segment not yet all downstream
    InputSum written_;  // downstream so far
    std::exception_ptr failure_;
    std::mutex mutex_;
    std::condition_variable changed_;
};

// A rendering thread's sink: cuts one segment's text into blocks and deflates each, primed with
// the segment's 32 KiB before it.
class SegmentDeflater final : public ByteSink {
public:
    SegmentDeflater(SegmentOrder& order, const SegmentedGzipOptions& options, DeflateEngine engine)
        : order_(order), deflater_(make_block_deflater(engine, options.level)), block_bytes_(options.block_bytes) {
        input_.reserve(block_bytes_);
    }

    void begin(std::size_t segment, bool last) {
        segment_ = segment;
        last_ = last;
        input_.clear();
        dictionary_.clear();
    }
    void write(const char* data, std::size_t size) override {
        while (size > 0) {
            const std::size_t n = std::min(size, block_bytes_ - input_.size());
            input_.insert(input_.end(), reinterpret_cast<const unsigned char*>(data),
                          reinterpret_cast<const unsigned char*>(data) + n);
            data += n;
            size -= n;
            if (input_.size() == block_bytes_) deflate(false);
        }
    }
    // The segment's last block (the stream's end in the last segment).
    void end() {
        if (!input_.empty() || last_) deflate(last_);
        order_.finish(segment_);
    }

private:
    void deflate(bool last) {
        deflater_->compress(input_, dictionary_, last, output_);
        const InputSum sum{gzip_crc32(0, input_.data(), input_.size()), input_.size()};
        slide_dictionary(dictionary_, input_);  // the segment's so far: the next block's
        order_.put(segment_, output_, sum);
        input_.clear();
    }

    SegmentOrder& order_;
    std::unique_ptr<BlockDeflater> deflater_;
    const std::size_t block_bytes_;
    std::vector<unsigned char> input_;
    std::vector<unsigned char> dictionary_;
    std::vector<unsigned char> output_;  // reused: a block's buffer is as large as its input
    std::size_t segment_ = 0;
    bool last_ = false;
};

void render_segments(unsigned slot, SegmentOrder& order, std::size_t segments, const SegmentRenderer& render,
                     const SegmentedGzipOptions& options, DeflateEngine engine) {
    try {
        SegmentDeflater text(order, options, engine);
        for (std::size_t s = order.take(); s != kNone; s = order.take()) {
            text.begin(s, s + 1 == segments);
            render(slot, s, text);
            text.end();
        }
    } catch (...) {
        order.fail(std::current_exception());
    }
}

}  // namespace

std::uint64_t write_segmented_gzip(ByteSink& downstream, std::size_t segments, const SegmentRenderer& render,
                                   const SegmentedGzipOptions& options) {
    if (segments == 0) throw Error("gzip: a document of no segments");
    SegmentedGzipOptions o = options;
    o.threads = std::max(1u, o.threads);
    o.block_bytes = std::clamp<std::size_t>(o.block_bytes, 1, UINT_MAX / 2);
    const DeflateEngine engine = o.engine.value_or(fastest_engine(o.level));
    make_block_deflater(engine, o.level);  // a missing engine or an invalid level fails here, not on a thread

    write_gzip_header(downstream, o.level);
    SegmentOrder order(downstream, segments, o.held_bytes);
    {
        std::vector<std::jthread> others;
        for (unsigned slot = 1; slot < o.threads; ++slot)
            others.emplace_back([&, slot] { render_segments(slot, order, segments, render, o, engine); });
        render_segments(0, order, segments, render, o, engine);
    }  // the others joined
    if (order.failure()) std::rethrow_exception(order.failure());
    write_gzip_trailer(downstream, order.written().crc, order.written().size);
    return order.written().size;
}

}  // namespace el2fx::fxprof
