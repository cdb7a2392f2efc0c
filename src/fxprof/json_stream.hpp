// A RapidJSON output stream (Ch, Put, Flush) that buffers bytes and hands them to a ByteSink
// in large chunks: the JSON writer knows nothing about compression or files.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>

#include "fxprof/byte_sink.hpp"

namespace el2fx::fxprof {

class JsonOutStream {
public:
    typedef char Ch;

    explicit JsonOutStream(ByteSink& sink);
    JsonOutStream(const JsonOutStream&) = delete;
    JsonOutStream& operator=(const JsonOutStream&) = delete;

    void Put(Ch c) {
        if (next_ == end_) drain();
        *next_++ = c;
    }
    // Room for n more bytes, which PutUnchecked then writes without a check each.
    void Reserve(std::size_t n) {
        if (static_cast<std::size_t>(end_ - next_) < n) make_room(n);
    }
    void PutUnchecked(Ch c) { *next_++ = c; }
    // n <= kShortBytes bytes from a buffer of kShortBytes: one fixed-size copy (JsonEmitter's
    // numbers and literals in arrays).
    static constexpr std::size_t kShortBytes = 24;
    void PutShort(const Ch* bytes, std::size_t n) {
        Reserve(kShortBytes);
        std::memcpy(next_, bytes, kShortBytes);
        next_ += n;
    }
    // n bytes at once (JsonEmitter::repeated(): JSON text the writer already vouched for).
    void PutBytes(const Ch* bytes, std::size_t n) {
        Reserve(n);
        std::memcpy(next_, bytes, n);
        next_ += n;
    }
    // Called by the writer when the root value is complete; hands the buffer on.
    void Flush() { drain(); }
    std::size_t bytes_written() const { return total_ + static_cast<std::size_t>(next_ - buffer_.get()); }

private:
    // Out of line: the inline paths above stay a compare and a store.
    void drain();
    void make_room(std::size_t n);

    ByteSink& sink_;
    std::unique_ptr<Ch[]> buffer_;
    Ch* next_;
    Ch* end_;
    std::size_t total_ = 0;
};

// RapidJSON's writer reserves room before each value and then puts its chars "unsafe"; these
// overloads (found by argument-dependent lookup, preferred to RapidJSON's generic templates,
// which check every char) make that one check per value.
inline void PutReserve(JsonOutStream& os, std::size_t count) { os.Reserve(count); }
inline void PutUnsafe(JsonOutStream& os, char c) { os.PutUnchecked(c); }

}  // namespace el2fx::fxprof
