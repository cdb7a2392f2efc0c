// A temporary file holding given bytes (an eventlog built by a test), removed at scope end.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace el2fx::testing {

struct TempFile {
    std::string path;
    explicit TempFile(const std::string& bytes) {
        char name[] = "/tmp/el2fx-test-XXXXXX";
        const int fd = ::mkstemp(name);
        BOOST_REQUIRE(fd >= 0);
        BOOST_REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
        ::close(fd);
        path = name;
    }
    ~TempFile() { ::unlink(path.c_str()); }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
};

}  // namespace el2fx::testing
