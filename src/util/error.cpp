#include "util/error.hpp"

namespace el2fx {

Error::Error(std::string message, Context context)
    : std::runtime_error(render(message, context)),
      message_(std::move(message)),
      context_(std::move(context)) {}

Error Error::with_file(const std::string& file) const {
    Context c = context_;
    c.file = file;
    return Error(message_, std::move(c));
}

// "prog.eventlog: byte 1234 (STOP_THREAD): payload truncated"
std::string Error::render(const std::string& message, const Context& context) {
    std::string out;
    if (!context.file.empty()) out += context.file + ": ";
    if (context.offset) out += "byte " + std::to_string(*context.offset) + " ";
    if (!context.event.empty()) out += "(" + context.event + ") ";
    if (!out.empty() && out.back() == ' ') out.back() = ':', out += ' ';
    out += message;
    return out;
}

}  // namespace el2fx
