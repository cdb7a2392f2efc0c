#include "fxprof/byte_sink.hpp"

#include <cerrno>
#include <cstring>
#include <unistd.h>

#include "util/error.hpp"

namespace el2fx::fxprof {

void FdSink::write(const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t n = ::write(fd_, data, size);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw Error(std::string("cannot write: ") + std::strerror(errno), {name_, {}, {}});
        }
        if (n == 0) throw Error("cannot write: no progress", {name_, {}, {}});
        data += n;
        size -= static_cast<std::size_t>(n);
        written_ += static_cast<std::uint64_t>(n);
    }
}

}  // namespace el2fx::fxprof
