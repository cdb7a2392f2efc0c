// The one error type of the library: what went wrong, and where in which input.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace el2fx {

class Error : public std::runtime_error {
public:
    struct Context {
        std::string file;                     // input name as the user gave it ("-" for stdin)
        std::optional<std::uint64_t> offset;  // byte offset in the input
        std::string event;                    // event type name, when one is involved
    };

    explicit Error(std::string message, Context context = {});

    const std::string& message() const noexcept { return message_; }
    const Context& context() const noexcept { return context_; }

    // Returns a copy with the file name filled in (lower layers do not know it).
    Error with_file(const std::string& file) const;

private:
    static std::string render(const std::string& message, const Context& context);

    std::string message_;
    Context context_;
};

}  // namespace el2fx
