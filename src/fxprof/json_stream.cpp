#include "fxprof/json_stream.hpp"

namespace el2fx::fxprof {

namespace {
constexpr std::size_t kChunk = 64 * 1024;
}

JsonOutStream::JsonOutStream(ByteSink& sink)
    : sink_(sink), buffer_(new Ch[kChunk]), next_(buffer_.get()), end_(buffer_.get() + kChunk) {}

void JsonOutStream::drain() {
    const auto used = static_cast<std::size_t>(next_ - buffer_.get());
    if (used == 0) return;
    sink_.write(buffer_.get(), used);
    total_ += used;
    next_ = buffer_.get();
}

void JsonOutStream::make_room(std::size_t n) {
    drain();
    // Only a value longer than a chunk (a string reserves 6 bytes per char) grows the buffer.
    if (n > static_cast<std::size_t>(end_ - buffer_.get())) {
        buffer_.reset(new Ch[n]);
        next_ = buffer_.get();
        end_ = next_ + n;
    }
}

}  // namespace el2fx::fxprof
