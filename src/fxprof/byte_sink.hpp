// Where output bytes go: a chain of sinks (JSON text -> gzip -> file). Every failure throws
// el2fx::Error; nothing is silently dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace el2fx::fxprof {

class ByteSink {
public:
    virtual ~ByteSink() = default;
    virtual void write(const char* data, std::size_t size) = 0;
};

// Appends to a string (tests, in-memory output).
class StringSink final : public ByteSink {
public:
    explicit StringSink(std::string& out) : out_(out) {}
    void write(const char* data, std::size_t size) override { out_.append(data, size); }

private:
    std::string& out_;
};

// Writes to a file descriptor it does not own; `name` is used in error messages.
class FdSink final : public ByteSink {
public:
    FdSink(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
    void write(const char* data, std::size_t size) override;
    std::uint64_t bytes_written() const { return written_; }

private:
    int fd_;
    std::string name_;
    std::uint64_t written_ = 0;
};

}  // namespace el2fx::fxprof
