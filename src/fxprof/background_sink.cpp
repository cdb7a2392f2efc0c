#include "fxprof/background_sink.hpp"

#include <algorithm>

#include "util/error.hpp"

namespace el2fx::fxprof {

BackgroundSink::BackgroundSink(ByteSink& downstream, std::size_t block_bytes)
    : downstream_(downstream), block_bytes_(block_bytes == 0 ? 1 : block_bytes) {
    filling_.reserve(block_bytes_);
    queued_.reserve(block_bytes_);
    worker_ = std::thread([this] { run(); });
}

BackgroundSink::~BackgroundSink() {
    if (!worker_.joinable()) return;  // finished
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        has_queued_ = false;  // not finished: drop what is left
    }
    changed_.notify_all();
    worker_.join();
}

void BackgroundSink::run() {
    std::vector<char> block;
    block.reserve(block_bytes_);
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return has_queued_ || stopping_; });
            if (!has_queued_) return;  // stopping, nothing left
            block.swap(queued_);
            has_queued_ = false;
        }
        changed_.notify_all();  // the writer may queue the next block
        try {
            downstream_.write(block.data(), block.size());
        } catch (...) {
            std::lock_guard lock(mutex_);
            failure_ = std::current_exception();
            stopping_ = true;
            changed_.notify_all();
            return;
        }
        block.clear();
    }
}

void BackgroundSink::rethrow_failure() {
    if (failure_) std::rethrow_exception(failure_);
}

void BackgroundSink::hand_over() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !has_queued_ || failure_; });
    rethrow_failure();
    queued_.swap(filling_);
    has_queued_ = true;
    lock.unlock();
    changed_.notify_all();
    filling_.clear();
}

void BackgroundSink::write(const char* data, std::size_t size) {
    if (finished_) throw Error("write after finish");
    while (size > 0) {
        const std::size_t n = std::min(size, block_bytes_ - filling_.size());
        filling_.insert(filling_.end(), data, data + n);
        data += n;
        size -= n;
        if (filling_.size() == block_bytes_) hand_over();
    }
}

void BackgroundSink::finish() {
    if (finished_) return;
    if (!filling_.empty()) hand_over();
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !has_queued_ || failure_; });
    stopping_ = true;
    lock.unlock();
    changed_.notify_all();
    worker_.join();
    finished_ = true;
    rethrow_failure();
}

}  // namespace el2fx::fxprof
