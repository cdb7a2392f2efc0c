#include <cstdio>
#include <cstdlib>
#include <string>

#include "cli/summary_command.hpp"
#include "memory_file.hpp"
#include "product_fuzz_targets.hpp"
#include "util/error.hpp"
#include "util/rapidjson.hpp"

namespace {

// A FILE* that collects what is written in memory (open_memstream).
class MemoryStream {
public:
    MemoryStream() : file_(::open_memstream(&buffer_, &size_)) {}
    ~MemoryStream() {
        if (file_) std::fclose(file_);
        std::free(buffer_);
    }
    MemoryStream(const MemoryStream&) = delete;
    MemoryStream& operator=(const MemoryStream&) = delete;
    std::FILE* file() const { return file_; }
    std::string text() {
        std::fflush(file_);
        return std::string(buffer_ ? buffer_ : "", size_);
    }

private:
    char* buffer_ = nullptr;
    std::size_t size_ = 0;
    std::FILE* file_;
};

}  // namespace

int fuzz_summary(const std::uint8_t* data, std::size_t size) {
    el2fx::fuzz::MemoryFile file(data, size);
    if (!file.ok()) return 0;
    const std::uint8_t bits = el2fx::fuzz::option_bits(data, size);
    el2fx::cli::SummaryCommand command;
    command.input = file.path();
    command.json = bits & 1;
    command.strict = bits & 2;
    MemoryStream out, err;
    if (!out.file() || !err.file()) return 0;
    try {
        el2fx::cli::run_summary(command, out.file(), err.file());
    } catch (const el2fx::Error&) {
        return 0;
    }
    if (command.json) {
        const std::string text = out.text();
        rapidjson::Document d;
        d.Parse(text.data(), text.size());
        if (d.HasParseError()) {
            std::fprintf(stderr, "summary fuzz target: --json output does not parse:\n%s\n", text.c_str());
            std::abort();
        }
    }
    return 0;
}
