#include "util/error.hpp"

namespace el2fx {

Error::Error(std::string message, Context context)
    : std::runtime_error(render(message, context)), message_(std::move(message)), context_(std::move(context)) {}

Error Error::with_file(const std::string& file) const {
    Context c = context_;
    c.file = file;
    return Error(message_, std::move(c));
}

// "prog.eventlog: byte 1234 (STOP_THREAD): payload truncated"
std::string Error::render(const std::string& message, const Context& context) {
    // The parts that are there, separated by spaces, then one ": " (a file alone once gave
    // "prog.json.gz:: cannot ...").
    std::string out;
    auto part = [&out](const std::string& text) {
        if (!out.empty()) out += ' ';
        out += text;
    };
    if (!context.file.empty()) part(context.file + ":");
    if (context.offset) part("byte " + std::to_string(*context.offset));
    if (!context.event.empty()) part("(" + context.event + ")");
    if (!out.empty() && out.back() != ':') out += ':';
    if (!out.empty()) out += ' ';
    out += message;
    return out;
}

}  // namespace el2fx
