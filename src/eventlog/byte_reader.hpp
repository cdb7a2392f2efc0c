// Big-endian cursor over one record's bytes with a sticky error (LLVM's
// DataExtractor::Cursor idea): a record is decoded field by field and checked
// once at the end, and the first failing position is still known.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace el2fx::eventlog {

inline std::uint16_t load_be16(const std::uint8_t* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }
inline std::uint32_t load_be32(const std::uint8_t* p) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return __builtin_bswap32(v);
}
inline std::uint64_t load_be64(const std::uint8_t* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

class ByteReader {
public:
    ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    std::uint8_t u8() { return take(1) ? data_[pos_ - 1] : 0; }
    std::uint16_t u16() { return take(2) ? load_be16(data_ + pos_ - 2) : 0; }
    std::uint32_t u32() { return take(4) ? load_be32(data_ + pos_ - 4) : 0; }
    std::uint64_t u64() { return take(8) ? load_be64(data_ + pos_ - 8) : 0; }

    std::string_view bytes(std::size_t n) {
        if (!take(n)) return {};
        return {reinterpret_cast<const char*>(data_ + pos_ - n), n};
    }
    std::string_view rest() { return bytes(remaining()); }
    // A NUL-terminated string; the NUL is consumed, not returned. No NUL before the
    // end of the record is an error.
    std::string_view cstring() {
        if (failed_) return {};
        const void* nul = std::memchr(data_ + pos_, 0, size_ - pos_);
        if (!nul) {
            fail();
            return {};
        }
        std::size_t n = static_cast<const std::uint8_t*>(nul) - (data_ + pos_);
        std::string_view s(reinterpret_cast<const char*>(data_ + pos_), n);
        pos_ += n + 1;
        return s;
    }

    bool ok() const { return !failed_; }
    std::size_t position() const { return pos_; }
    std::size_t size() const { return size_; }
    std::size_t remaining() const { return failed_ ? 0 : size_ - pos_; }

private:
    bool take(std::size_t n) {
        if (failed_ || n > size_ - pos_) {
            fail();
            return false;
        }
        pos_ += n;
        return true;
    }
    void fail() { failed_ = true; }

    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    bool failed_ = false;
};

}  // namespace el2fx::eventlog
