// A RapidJSON output stream (Ch, Put, Flush) that buffers bytes and hands them to a ByteSink
// in large chunks: the JSON writer knows nothing about compression or files.
#pragma once

#include <array>
#include <cstddef>

#include "fxprof/byte_sink.hpp"

namespace el2fx::fxprof {

class JsonOutStream {
public:
    typedef char Ch;

    explicit JsonOutStream(ByteSink& sink) : sink_(sink) {}
    JsonOutStream(const JsonOutStream&) = delete;
    JsonOutStream& operator=(const JsonOutStream&) = delete;

    void Put(Ch c) {
        if (used_ == buffer_.size()) drain();
        buffer_[used_++] = c;
    }
    // Called by the writer when the root value is complete; hands the buffer on.
    void Flush() { drain(); }
    std::size_t bytes_written() const { return total_ + used_; }

private:
    void drain() {
        if (used_ == 0) return;
        sink_.write(buffer_.data(), used_);
        total_ += used_;
        used_ = 0;
    }

    ByteSink& sink_;
    std::array<Ch, 64 * 1024> buffer_;
    std::size_t used_ = 0;
    std::size_t total_ = 0;
};

}  // namespace el2fx::fxprof
